@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation
import Synchronization

/// The messages of a conversation each way (a WebSocket's, a gRPC stream's), and the lines
/// waiting for one: what `expect message` matches from its cursor on, what `inspect` reads, and
/// what a recording keeps — the messages sent and the ones a line waited for.
///
/// Bounded: once twice ``keptLimit`` messages are kept, the oldest ``keptLimit`` go (one array
/// move per 10,000 messages, not one each).
final class MessageLog<Message: Sendable & Equatable>: Sendable {
    /// The fewest messages kept.
    static var keptLimit: Int { 10_000 }

    /// A message as `expect message` and `inspect` read it.
    let document: @Sendable (Message) -> JSON

    private struct State {
        /// Every message each way, in order: `received` is its number when it came from the server.
        var transcript: [(received: Int?, message: Message, at: Duration?)] = []
        var received: [Message] = []
        /// How many messages were dropped from the front of `received`.
        var dropped = 0
        /// Messages before this number were matched by an `expect message` or skipped by it.
        var cursor = 1
        /// The numbers of the messages an `expect message` matched: what the file waited for.
        var matched: Set<Int> = []
        var sent = 0
        var ended = false
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

        mutating func keep(received: Int?, _ message: Message, at: Duration?) {
            transcript.append((received, message, at))
            if transcript.count >= 2 * MessageLog.keptLimit {
                transcript.removeFirst(MessageLog.keptLimit)
            }
        }

        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
    }

    private let state = Mutex(State())

    init(document: @escaping @Sendable (Message) -> JSON) {
        self.document = document
    }

    /// Keeps a message from the server, wakes the lines waiting for one, and returns its number
    /// in the conversation (from 1).
    @discardableResult
    func receive(_ message: Message, at: Duration?) -> Int {
        let (number, waiters) = state.withLock { state in
            state.received.append(message)
            state.keep(received: state.dropped + state.received.count, message, at: at)
            if state.received.count >= 2 * Self.keptLimit {
                state.received.removeFirst(Self.keptLimit)
                state.dropped += Self.keptLimit
            }
            return (state.dropped + state.received.count, state.takeWaiters())
        }
        for waiter in waiters { waiter.resume() }
        return number
    }

    /// No more messages come: the lines waiting for one stop waiting. Returns how many came.
    @discardableResult
    func end() -> Int {
        let (received, waiters) = state.withLock { state in
            state.ended = true
            return (state.dropped + state.received.count, state.takeWaiters())
        }
        for waiter in waiters { waiter.resume() }
        return received
    }

    /// Keeps a message this side is sending, before it goes: an answer the server sends back at
    /// once then comes after it, as it did.
    func sending(_ message: Message) {
        state.withLock {
            $0.sent += 1
            $0.keep(received: nil, message, at: nil)
        }
    }

    /// Takes back a message ``sending(_:)`` kept that could not be sent.
    func unsent(_ message: Message) {
        state.withLock { state in
            state.sent -= 1
            if let index = state.transcript.lastIndex(where: { $0.received == nil && $0.message == message }) {
                state.transcript.remove(at: index)
            }
        }
    }

    /// Messages received and sent so far.
    var counts: (received: Int, sent: Int) {
        state.withLock { ($0.dropped + $0.received.count, $0.sent) }
    }

    /// Every message kept, each way, in order: `from` `server` or `client`, `n` and `ms` for one
    /// received, `data` as `expect message` reads it.
    func messagesDocument() -> JSON {
        let transcript = state.withLock { $0.transcript }
        return .array(
            transcript.map { entry -> JSON in
                var members = [JSON.Member(key: "from", value: .string(entry.received == nil ? "client" : "server"))]
                if let number = entry.received {
                    members.append(JSON.Member(key: "n", value: .number(String(number))))
                }
                if let at = entry.at {
                    members.append(JSON.Member(key: "ms", value: .number(String(Int(at / .milliseconds(1))))))
                }
                members.append(JSON.Member(key: "data", value: document(entry.message)))
                return .object(members)
            })
    }

    /// The messages the file's lines made of the conversation — each one sent, and each one an
    /// `expect message` waited for — in order: what a recording keeps. A message that only
    /// happened to arrive (a ticker's next tick) depends on timing, not on the API.
    func recordedMessages() -> JSON {
        let (transcript, matched) = state.withLock { ($0.transcript, $0.matched) }
        return .array(
            transcript.compactMap { entry -> JSON? in
                if let number = entry.received, !matched.contains(number) { return nil }
                return .object([
                    JSON.Member(key: "from", value: .string(entry.received == nil ? "client" : "server")),
                    JSON.Member(key: "data", value: document(entry.message)),
                ])
            })
    }

    /// The first message from the cursor on for which `matches` is true, waiting for new ones
    /// until `deadline`; the cursor moves past it. `nil` (with how many were looked at and the
    /// last) when none came in time or the conversation ended first.
    func firstMessage(
        until deadline: ContinuousClock.Instant, matching matches: (Message) throws -> Bool
    ) async throws -> (found: Message?, looked: Int, last: Message?) {
        var looked = 0
        var last: Message?
        while true {
            try Task.checkCancellation()
            let (pending, ended) = state.withLock { state -> ([(Int, Message)], Bool) in
                let start = max(state.cursor, state.dropped + 1)
                let end = state.dropped + state.received.count
                guard start <= end else { return ([], state.ended) }
                let messages = (start...end).map { ($0, state.received[$0 - state.dropped - 1]) }
                return (messages, state.ended)
            }
            for (number, message) in pending {
                looked += 1
                last = message
                state.withLock { $0.cursor = number + 1 }
                if try matches(message) {
                    state.withLock { _ = $0.matched.insert(number) }
                    return (message, looked, last)
                }
            }
            if ended || ContinuousClock.now >= deadline { return (nil, looked, last) }
            await waitForMessage(until: deadline)
        }
    }

    /// `expect message EXPR OP VALUE` (`written` is EXPR): waits up to `wait` for a message that
    /// matches, from the one after the last matched; a failed check says what was looked at and
    /// the last message seen (`ended` says how the conversation ended, when it has: `before the
    /// WebSocket closed`). `variables` expand the expression and the operand.
    func expect(
        _ written: String, _ expectation: Expectation, variables: Variables, wait: Duration,
        ended: @Sendable () -> String?
    ) async throws -> CommandResult {
        let operand = try expectation.operand.map { try variables.expand($0) }
        var last: ExpectationResult?
        let document = self.document
        let found = try await firstMessage(until: .now + wait) { message in
            let result = try ExpectationEvaluator.evaluateValue(written, expectation.op, operand: operand) {
                try JSONPath(try variables.expand($0)).query(document(message)).map(\.value)
            }
            last = result
            return result.passed
        }
        if found.found != nil, let last {
            return CommandResult(.succeeded, [.expectation(ExpectationOutput(line: "", result: last))])
        }
        let within = ended() ?? "in \(wait.shortDescription)"
        let expected =
            written == "$" && expectation.op == .exists
            ? "a message" : "a message where \(written) \(expectation.op.rawValue)" + (operand.map { " \($0)" } ?? "")
        let lastShown = found.last.map {
            "; the last: " + document($0).formatted(.compactText).trimmingCharacters(in: .newlines)
        }
        let actual = "none \(within) (\(found.looked) looked at\(lastShown ?? ""))"
        let result = ExpectationResult(passed: false, expected: expected, actual: actual)
        return CommandResult(.checkFailed, [.expectation(ExpectationOutput(line: "", result: result))])
    }

    /// Returns when a message arrives, the conversation ends, the deadline passes or the task is
    /// cancelled.
    private func waitForMessage(until deadline: ContinuousClock.Instant) async {
        let id = UUID()
        let timer = Task { [weak self] in
            try await Task.sleep(until: deadline, clock: .continuous)
            self?.wake(id)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    // Anything new since the caller looked, or a timer or cancel that came first: no wait.
                    if state.ended || state.cursor <= state.dropped + state.received.count
                        || ContinuousClock.now >= deadline || Task.isCancelled
                    {
                        return true
                    }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            wake(id)
        }
    }

    private func wake(_ id: UUID) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
}
