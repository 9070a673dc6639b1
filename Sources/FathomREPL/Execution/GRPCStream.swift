import FathomGRPC
@_spi(Fathom) import FathomHTTP
@_spi(Fathom) import FathomJSON
import FathomProtobuf
import Foundation
import Synchronization

/// What a gRPC stream written at the prompt shows: its opening, each message each way, and its
/// end when the server ends it before a `close`.
struct GRPCStreamOutput: Sendable {
    enum Kind: Sendable {
        /// Opened: the method, and the conversation's number in the history.
        case opened(method: String, number: Int)
        /// A message from the server (one line of JSON), its number in the call and when it came.
        case received(String, number: Int, at: Duration)
        /// A message sent (one line of JSON).
        case sent(String)
        /// The server ended the call before this side half-closed: its status; `close` shows
        /// the rest.
        case ended(method: String, status: GRPCStatus, received: Int)
    }

    var kind: Kind
}

/// A client or bidirectional stream a `call` opened and later lines write (``OpenConversation``):
/// `send JSON|items` sends a message (an array, one each), `expect message` waits for one from
/// the server, `close` half-closes and waits for the call's end — kept then as the response a
/// `call` with the messages given whole would have made (status, trailers, the server's messages).
///
/// The call itself runs in its own task (``GRPCCallRun``) from the `call` line to its end; the
/// server's messages are kept in ``log`` and shown as they arrive through the executor's
/// background outputs.
final class OpenGRPCStream: OpenConversation {
    /// `pkg.Service/Method`.
    let name: String
    let method: MethodDescriptor
    let pool: DescriptorPool
    /// The `call` line's method as written: with `POST /NAME`, what a recording matches it by.
    let target: String
    /// The messages each way: the server's are kept by the call's `onMessage` as they come.
    let log: MessageLog<String>

    /// A log for a stream's messages (each one line of JSON).
    static func makeLog() -> MessageLog<String> {
        MessageLog(document: { (try? JSON(parsing: $0)) ?? .string($0) })
    }

    private let writer: AsyncStream<[UInt8]>.Continuation
    private let run: GRPCCallRun
    private let request: PreparedRequest
    private let call: Task<GRPCCallRun.Result, any Error>

    private struct State {
        var halfClosed = false
        /// The call's end, once it has ended.
        var result: Result<GRPCCallRun.Result, any Error>?
        /// The response kept for it and its number, once a line has kept one (`close`, or the
        /// first line after the server ended it).
        var settled: (response: NetworkResponse<Data>, number: Int)?
        /// A `close` line has shown the call's end.
        var closed = false
    }

    private let state = Mutex(State())

    /// Starts the call (`start`), whose request messages are what ``send(_:in:)`` writes to
    /// `writer`.
    init(
        name: String, method: MethodDescriptor, pool: DescriptorPool, target: String, log: MessageLog<String>,
        run: GRPCCallRun, request: PreparedRequest, writer: AsyncStream<[UInt8]>.Continuation,
        start: @escaping @Sendable () async throws -> GRPCCallRun.Result
    ) {
        self.name = name
        self.method = method
        self.pool = pool
        self.target = target
        self.log = log
        self.run = run
        self.request = request
        self.writer = writer
        call = Task { try await start() }
    }

    /// Waits for the call's end in the background: keeps it, ends the log (the lines waiting for
    /// a message stop), and calls `ended` with whether this side had half-closed first.
    func watch(ended: @escaping @Sendable (_ halfClosed: Bool, GRPCStatus?) -> Void) {
        Task { [self] in
            let result = await call.result
            let halfClosed = state.withLock { state in
                state.result = state.result ?? result
                return state.halfClosed
            }
            log.end()
            ended(halfClosed, try? result.get().outcome.status)
        }
    }

    var prompt: ConversationPrompt {
        let parts = name.split(separator: "/")
        let service = parts.first.map { $0.split(separator: ".").last.map(String.init) ?? String($0) } ?? name
        return ConversationPrompt(word: "grpc", target: service + "/" + (parts.last.map(String.init) ?? ""))
    }

    var described: String { "a gRPC stream of \(name)" }

    var opener: String { "`call \(name)` opens another" }

    var ended: String? {
        let (result, halfClosed) = state.withLock { ($0.result, $0.halfClosed) }
        if let result {
            let status = (try? result.get().outcome.status.codeName) ?? "an error"
            return "the gRPC stream of \(name) has ended (\(status))"
        }
        return halfClosed ? "the gRPC stream of \(name) is half-closed" : nil
    }

    /// Sends the messages a `send` line wrote: JSON (an array sends each element), items
    /// (`name=text name:=json a.b=x`), or a file's JSON — each checked against the method's
    /// request type before any is sent.
    func send(_ message: MessageSpec, in executor: isolated Executor) async throws -> CommandResult {
        let request: CallCommand.Request
        switch message {
        case .text(let text):
            request = try Self.request(text)
        case .file(let template):
            let path = executor.resolvePath(try executor.session.variables.expand(template))
            let data = try BoundedFile.read(path, limit: 4 << 20, what: "a message")
            request = .json(String(decoding: data, as: UTF8.self))
        }
        let values = try request.json(expanding: executor.session.variables)
        let messages = try GRPCMessages.requests(values, for: method, named: name, in: pool)
        var outputs: [Output] = []
        for (json, bytes) in zip(messages.json, messages.bytes) {
            let text = GRPCMessages.compact(json)
            log.sending(text)
            if case .terminated = writer.yield(bytes) {
                log.unsent(text)
                throw CommandError(.session, ended ?? "the gRPC stream of \(name) has ended", hint: opener)
            }
            outputs.append(.grpcStream(GRPCStreamOutput(kind: .sent(text))))
        }
        return CommandResult(.succeeded, outputs)
    }

    /// The text after `send` as a call's request: JSON when it starts as JSON does, else items.
    static func request(_ text: String) throws(CommandError) -> CallCommand.Request {
        let trimmed = text.trimmingBlanksAround
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return .json(trimmed) }
        var arguments = Arguments(raw: Substring(trimmed), column: 6, command: "send")
        let words = try arguments.words()
        return words.isEmpty ? .json("{}") : .items(words.map(\.text))
    }

    /// Half-closes and waits for the call's end (its deadline bounds the wait; Ctrl-C cancels
    /// the call), then keeps it as a response: the status, trailers and what the server sent.
    func close(_ line: CloseCommand, in executor: isolated Executor) async throws -> CommandResult {
        if line.code != nil {
            throw CommandError(
                .parse, "a gRPC stream's close takes no code", hint: "`close` half-closes the stream")
        }
        state.withLock { $0.halfClosed = true }
        writer.finish()
        executor.feeds.snapshot.setConversation(nil)
        let call = self.call
        let result = await withTaskCancellationHandler {
            await call.result
        } onCancel: {
            call.cancel()
        }
        // Kept here too: the watching task may not have run yet.
        state.withLock {
            $0.result = $0.result ?? result
            $0.closed = true
        }
        return try settle(in: executor, shown: true) ?? CommandResult(.succeeded, [])
    }

    /// `close` after the server ended the call: shows its end, once — so a file's `close` works
    /// whether or not the server ended the call before the line ran.
    func closeAfterEnd(_ line: CloseCommand, in executor: isolated Executor) throws -> CommandResult? {
        guard line.code == nil,
            state.withLock({ state in
                defer { state.closed = true }
                return !state.closed
            })
        else { return nil }
        return try settle(in: executor, shown: true)
    }

    func expectMessage(
        _ written: String, _ expectation: Expectation, variables: Variables, wait: Duration
    ) async throws -> CommandResult {
        try await log.expect(written, expectation, variables: variables, wait: wait) { [self] in
            state.withLock { $0.result != nil } ? "before the call ended" : nil
        }
    }

    /// Cancels the call (a script or file that ends without `close`).
    func end() async {
        writer.finish()
        call.cancel()
        _ = await call.result
    }

    /// Keeps the ended call as a response, once: the `close` line's answer, or (the server having
    /// ended it first) before the next line runs, so `expect status` reads it. `nil` while the
    /// call goes on, or when it is kept already and `shown` is false.
    func settle(in executor: isolated Executor, shown: Bool) throws -> CommandResult? {
        let (result, settled) = state.withLock { ($0.result, $0.settled) }
        guard let result else { return nil }
        let ended = try result.get()
        let number: Int
        if let settled {
            guard shown else { return nil }
            number = settled.number
        } else {
            let (response, record) = run.response(ended, request: request)
            number = executor.record.responses.append(response, grpc: record)
            state.withLock { $0.settled = (response, number) }
            guard shown else { return nil }
        }
        var output = executor.responseOutput(try executor.record.responses.entry(number))
        output.target = "/" + name
        if method.serverStreaming {
            output.stream = StreamSummary(
                format: .jsonLines, events: ended.messages.count,
                ending: ended.outcome.status.code == 1 ? .cancelled : .complete, shownLive: true)
        }
        return CommandResult(.succeeded, [.response(output)])
    }

    /// The response kept for the ended call, once one is.
    var settledResponse: NetworkResponse<Data>? { state.withLock { $0.settled?.response } }

    /// The conversation as `inspect`, `let` and `show` read it: `method`, `messages` (each way,
    /// in order), `received`, `sent`, and `status` (`code`, `name`, `message`) once it has ended.
    func document() -> JSON {
        let counts = log.counts
        var status = JSON.null
        if let outcome = try? state.withLock({ $0.result })?.get().outcome {
            status = .object([
                JSON.Member(key: "code", value: .number(String(outcome.status.code))),
                JSON.Member(key: "name", value: .string(outcome.status.codeName)),
                JSON.Member(key: "message", value: .string(outcome.status.message)),
            ])
        }
        return .object([
            JSON.Member(key: "method", value: .string(name)),
            JSON.Member(key: "messages", value: log.messagesDocument()),
            JSON.Member(key: "received", value: .number(String(counts.received))),
            JSON.Member(key: "sent", value: .number(String(counts.sent))),
            JSON.Member(key: "status", value: status),
        ])
    }
}

/// A gRPC stream written at the prompt as an entry of the history: its messages each way, read
/// live while the call goes on. Its end is kept as a response of its own (the `close` line's).
struct GRPCStreamConversation: Exchange {
    let number: Int
    let stream: OpenGRPCStream

    func document() -> JSON { stream.document() }

    /// Once the call is kept as a response, that response (what `replay --compare` reads of the
    /// `close` line); before it, the messages the file's lines made of the call.
    func recorded() -> RecordedResponse? {
        if let response = stream.settledResponse { return RecordedResponse(response, target: "/" + stream.name) }
        return RecordedResponse(
            method: "POST", target: "/" + stream.name, path: "/" + stream.name, status: 200,
            contentType: "application/json",
            body: Data(
                JSON.object([JSON.Member(key: "messages", value: stream.log.recordedMessages())])
                    .formatted(.compactText).utf8))
    }

    var listed: String {
        let (received, sent) = stream.log.counts
        return "gRPC \(stream.name) · \(received) received, \(sent) sent" + (stream.ended == nil ? " · open" : "")
    }

    func notAResponse(last: Bool) -> CommandError {
        CommandError(
            .session,
            "\(last ? "the last entry is" : "#\(number) is") the gRPC stream #\(number), not a response",
            hint: stream.ended == nil
                ? "`close` half-closes it and keeps the call's answer as a response; `expect message …` waits for a message"
                : "`inspect #\(number) $.messages` reads its messages")
    }
}
