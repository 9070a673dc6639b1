@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation
import Synchronization

/// What a WebSocket conversation shows: its opening, each message each way, and its end.
struct WebSocketOutput: Sendable {
    enum Kind: Sendable {
        /// Opened: the URL (masked) it went to, and the conversation's number in the history.
        case opened(url: String, number: Int)
        /// A message from the server, its number in the conversation (from 1) and when it came.
        case received(WebSocketMessage, number: Int, at: Duration)
        /// A message sent, as it went (variables expanded).
        case sent(WebSocketMessage)
        /// A ping sent.
        case ping
        /// The conversation ended; `received` messages came in all.
        case closed(WebSocketClose, url: String, received: Int)
    }

    var kind: Kind

    /// A text message's JSON when it parses, else `nil`.
    static func json(of message: WebSocketMessage) -> JSON? {
        guard case .text(let text) = message, let first = text.first(where: { !$0.isWhitespace }),
            first == "{" || first == "[" || first == "\""
        else { return nil }
        return try? JSON(parsing: text)
    }

    /// A message as `expect message` reads it: its JSON, or its text as a JSON string (a binary
    /// message as its bytes in base64).
    static func document(of message: WebSocketMessage) -> JSON {
        if let json = json(of: message) { return json }
        switch message {
        case .text(let text): return .string(text)
        case .binary(let data): return .string(data.base64EncodedString())
        }
    }
}

/// The WebSocket a session has open: its connection, the messages that came, and the lines
/// waiting for one (`expect message`). Messages are shown as they arrive through the
/// executor's ``Executor/background`` outputs, whether a line runs or the prompt waits.
final class OpenWebSocket: Sendable {
    /// The fewest messages kept for `expect message`: older ones are dropped, this many at a
    /// time once twice as many are kept (one array move per 10,000 messages, not one each).
    static let keptLimit = 10_000

    let connection: WebSocketConnection
    /// The URL as shown (secrets masked).
    let shownURL: String

    private struct State {
        /// Every message each way, in order (bounded as `received` is): what `inspect` reads.
        var transcript: [(received: Int?, message: WebSocketMessage, at: Duration?)] = []
        var received: [WebSocketMessage] = []
        /// How many messages were dropped from the front of `received`.
        var dropped = 0
        /// Messages before this number were matched by an `expect message` or skipped by it.
        var cursor = 1
        /// The numbers of the messages an `expect message` matched: what the file waited for.
        var matched: Set<Int> = []
        var sent = 0
        var closed: WebSocketClose?
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

        /// Keeps a message in the transcript: `received` is its number when it came from the server.
        mutating func keep(received: Int?, _ message: WebSocketMessage, at: Duration?) {
            transcript.append((received, message, at))
            if transcript.count >= 2 * OpenWebSocket.keptLimit {
                transcript.removeFirst(OpenWebSocket.keptLimit)
            }
        }
    }

    private let state = Mutex(State())

    init(connection: WebSocketConnection, shownURL: String) {
        self.connection = connection
        self.shownURL = shownURL
    }

    /// Reads the connection's events until it ends: keeps each message, wakes the lines waiting
    /// for one, and hands each to `show`; `ended` runs once it has ended.
    func pump(show: @escaping @Sendable (WebSocketOutput) -> Void, ended: @escaping @Sendable () -> Void) {
        Task {
            for await event in connection.events {
                switch event {
                case .message(let message, let at):
                    let (number, waiters) = state.withLock { state in
                        state.received.append(message)
                        state.keep(received: state.dropped + state.received.count, message, at: at)
                        if state.received.count >= 2 * Self.keptLimit {
                            state.received.removeFirst(Self.keptLimit)
                            state.dropped += Self.keptLimit
                        }
                        let waiters = Array(state.waiters.values)
                        state.waiters.removeAll()
                        return (state.dropped + state.received.count, waiters)
                    }
                    show(WebSocketOutput(kind: .received(message, number: number, at: at)))
                    for waiter in waiters { waiter.resume() }
                case .closed(let close):
                    let (received, waiters) = state.withLock { state in
                        state.closed = close
                        let waiters = Array(state.waiters.values)
                        state.waiters.removeAll()
                        return (state.dropped + state.received.count, waiters)
                    }
                    ended()
                    show(WebSocketOutput(kind: .closed(close, url: shownURL, received: received)))
                    for waiter in waiters { waiter.resume() }
                }
            }
        }
    }

    /// Sends `message`, kept in the transcript first: an answer the server sends back at once
    /// then comes after it, as it did. A message that could not be sent is taken back out.
    func send(_ message: WebSocketMessage) async throws {
        state.withLock {
            $0.sent += 1
            $0.keep(received: nil, message, at: nil)
        }
        do {
            try await connection.send(message)
        } catch {
            state.withLock { state in
                state.sent -= 1
                if let index = state.transcript.lastIndex(where: { $0.received == nil && $0.message == message }) {
                    state.transcript.remove(at: index)
                }
            }
            throw error
        }
    }

    /// The conversation as `inspect`, `let` and `show` read it: `url`, `messages` (each way, in
    /// order: `from` `server` or `client`, `data` as `expect message` reads it, `n` and `ms` for
    /// one received), `received`, `sent`, and `closed` (`code`, `reason`, `by`) once it has ended.
    /// The oldest messages go past ``keptLimit`` twice over, as for `expect message`.
    func document() -> JSON {
        let (transcript, counts) = state.withLock { state in
            (state.transcript, (state.dropped + state.received.count, state.sent))
        }
        let messages = transcript.map { entry -> JSON in
            var members = [JSON.Member(key: "from", value: .string(entry.received == nil ? "client" : "server"))]
            if let number = entry.received {
                members.append(JSON.Member(key: "n", value: .number(String(number))))
            }
            if let at = entry.at {
                members.append(JSON.Member(key: "ms", value: .number(String(Int(at / .milliseconds(1))))))
            }
            members.append(JSON.Member(key: "data", value: WebSocketOutput.document(of: entry.message)))
            return .object(members)
        }
        var closed = JSON.null
        if let close = self.closed {
            var members: [JSON.Member] = []
            if let code = close.code { members.append(JSON.Member(key: "code", value: .number(String(code)))) }
            if let reason = close.reason { members.append(JSON.Member(key: "reason", value: .string(reason))) }
            let by =
                switch close.initiator {
                case .client: "client"
                case .server: "server"
                case .dropped: "dropped"
                }
            members.append(JSON.Member(key: "by", value: .string(by)))
            closed = .object(members)
        }
        return .object([
            JSON.Member(key: "url", value: .string(shownURL)),
            JSON.Member(key: "messages", value: .array(messages)),
            JSON.Member(key: "received", value: .number(String(counts.0))),
            JSON.Member(key: "sent", value: .number(String(counts.1))),
            JSON.Member(key: "closed", value: closed),
        ])
    }

    /// What a recording keeps and `replay --compare` checks: the messages the file's lines made
    /// of the conversation — each one sent, and each one an `expect message` waited for — in
    /// order, and how the file's `close` ended it. A message that only happened to arrive (a
    /// ticker's next tick) depends on timing, not on the API, and is not compared.
    func recordedDocument() -> JSON {
        let (transcript, matched) = state.withLock { ($0.transcript, $0.matched) }
        let messages = transcript.compactMap { entry -> JSON? in
            if let number = entry.received, !matched.contains(number) { return nil }
            return .object([
                JSON.Member(key: "from", value: .string(entry.received == nil ? "client" : "server")),
                JSON.Member(key: "data", value: WebSocketOutput.document(of: entry.message)),
            ])
        }
        var members = [JSON.Member(key: "messages", value: .array(messages))]
        if let close = closed, close.initiator == .client, !close.failedByFathom {
            members.append(
                JSON.Member(
                    key: "closed",
                    value: .object([JSON.Member(key: "code", value: .number(String(close.code ?? 1005)))])))
        }
        return .object(members)
    }

    /// How it ended, or `nil` while it is open: as soon as the connection knows, before its
    /// last event is read.
    var closed: WebSocketClose? { connection.closed }

    /// Messages received and sent so far.
    var counts: (received: Int, sent: Int) {
        state.withLock { ($0.dropped + $0.received.count, $0.sent) }
    }

    /// The first message from the cursor on for which `matches` is true, waiting for new ones
    /// until `deadline`; the cursor moves past it. `nil` (with how many were looked at and the
    /// last) when none came in time or the connection ended first.
    func firstMessage(
        until deadline: ContinuousClock.Instant, matching matches: (WebSocketMessage) throws -> Bool
    ) async throws -> (found: WebSocketMessage?, looked: Int, last: WebSocketMessage?) {
        var looked = 0
        var last: WebSocketMessage?
        while true {
            try Task.checkCancellation()
            let (pending, closed) = state.withLock { state -> ([(Int, WebSocketMessage)], Bool) in
                let start = max(state.cursor, state.dropped + 1)
                let end = state.dropped + state.received.count
                guard start <= end else { return ([], state.closed != nil) }
                let messages = (start...end).map { ($0, state.received[$0 - state.dropped - 1]) }
                return (messages, state.closed != nil)
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
            if closed || ContinuousClock.now >= deadline { return (nil, looked, last) }
            await waitForMessage(until: deadline)
        }
    }

    /// `expect message EXPR OP VALUE` (`written` is EXPR): waits up to `wait` for a message that
    /// matches, from the one after the last matched; a failed check says what was looked at and
    /// the last message seen. `variables` expand the expression and the operand.
    func expect(
        _ written: String, _ expectation: Expectation, variables: Variables, wait: Duration
    ) async throws -> CommandResult {
        let operand = try expectation.operand.map { try variables.expand($0) }
        var last: ExpectationResult?
        let found = try await firstMessage(until: .now + wait) { message in
            let document = WebSocketOutput.document(of: message)
            let result = try ExpectationEvaluator.evaluateValue(written, expectation.op, operand: operand) {
                try JSONPath(try variables.expand($0)).query(document).map(\.value)
            }
            last = result
            return result.passed
        }
        if found.found != nil, let last {
            return CommandResult(.succeeded, [.expectation(ExpectationOutput(line: "", result: last))])
        }
        let within = closed != nil ? "before the WebSocket closed" : "in \(wait.shortDescription)"
        let expected =
            written == "$" && expectation.op == .exists
            ? "a message" : "a message where \(written) \(expectation.op.rawValue)" + (operand.map { " \($0)" } ?? "")
        let lastShown = found.last.map {
            "; the last: " + WebSocketOutput.document(of: $0).formatted(.compactText).trimmingCharacters(in: .newlines)
        }
        let actual = "none \(within) (\(found.looked) looked at\(lastShown ?? ""))"
        let result = ExpectationResult(passed: false, expected: expected, actual: actual)
        return CommandResult(.checkFailed, [.expectation(ExpectationOutput(line: "", result: result))])
    }

    /// Returns when a message arrives, the connection ends, the deadline passes or the task is
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
                    if state.closed != nil || state.cursor <= state.dropped + state.received.count
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

/// A WebSocket conversation as an entry of the history: its messages each way, read live from
/// the connection while it is open.
struct Conversation: Exchange {
    let number: Int
    let socket: OpenWebSocket
    /// The `ws` line's target as written (`/ws/{{room}}`): with `WS`, what a recording matches it by.
    let target: String

    func document() -> JSON { socket.document() }

    /// The conversation as a recording keeps it: `WS`, the URL's path, 101, and as its JSON
    /// what the file's lines made of it (``OpenWebSocket/recordedDocument()``).
    func recorded() -> RecordedResponse? {
        let path = URL(string: socket.connection.url.description)?.path ?? target
        return RecordedResponse(
            method: "WS", target: target, path: path, status: 101, contentType: "application/json",
            body: Data(socket.recordedDocument().formatted(.compactText).utf8))
    }

    var listed: String {
        let (received, sent) = socket.counts
        return "WS \(socket.shownURL) · \(received) received, \(sent) sent" + (socket.closed == nil ? " · open" : "")
    }

    func notAResponse(last: Bool) -> CommandError {
        CommandError(
            .session,
            "\(last ? "the last entry is" : "#\(number) is") the WebSocket conversation #\(number), not a response",
            hint: "`expect message …` waits for a message; `inspect #\(number) $.messages` reads them")
    }
}

extension WebSocketClose {
    /// Fathom failed the connection (RFC 6455 §7.1.7): the server broke the protocol (1002),
    /// sent text that is not UTF-8 (1007), or a message over the limit (1009) — not a `close` line.
    var failedByFathom: Bool {
        initiator == .client && error != nil && [1002, 1007, 1009].contains(code ?? 0)
    }
}
