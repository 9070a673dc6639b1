import FathomGRPC
@_spi(Fathom) import FathomHTTP
import FathomProtobuf
import Foundation
import Synchronization

/// One gRPC call on its way, and what it left: the header metadata, each message (as JSON text)
/// as it arrives — a server stream's shown live as a stream's events are — `stream limit`
/// cancelling the call once that many have come, Ctrl-C cancelling it; then the answer as the
/// response the history keeps (the message as JSON, a stream's as NDJSON) and the call's record.
/// It holds no session state: the executor prepares the call and keeps what this returns.
struct GRPCCallRun {
    /// `pkg.Service/Method` and its descriptor.
    let name: String
    let method: MethodDescriptor
    let codec: GRPCMessages
    let live: LiveOutputs
    let showHeaders: Bool
    /// `stream limit`: a server stream is cancelled after this many messages.
    let limit: Int?
    /// Where the messages of a conversation go (a stream written a message at a time at the
    /// prompt, ``OpenGRPCStream``) — each with its number and when it came — instead of the
    /// line's live outputs, which end with the line.
    var onMessage: (@Sendable (_ text: String, _ number: Int, _ at: Duration) -> Void)? = nil

    /// The request messages: given whole, or sent as they are written.
    enum Requests: Sendable {
        case whole([[UInt8]])
        case streaming(AsyncStream<[UInt8]>)
    }

    /// What the call left.
    struct Result {
        var outcome: GRPCConnection.Outcome
        var messages: [String]
        var headers: GRPCMetadata
        var started: ContinuousClock.Instant
        var firstByte: ContinuousClock.Instant?
        var elapsed: Duration
        /// Ended at `stream limit`.
        var stopped: Bool
    }

    /// Makes the call through `client` over `connection`.
    func run(
        _ request: PreparedRequest, requests: Requests, client: NetworkClient, connection: GRPCConnection,
        timeout: Duration?
    ) async throws -> Result {
        let onMessage = onMessage
        let streaming = method.serverStreaming && onMessage == nil
        let started = ContinuousClock.now
        let received = Mutex<(messages: [String], headers: GRPCMetadata, firstByte: ContinuousClock.Instant?)>(
            ([], GRPCMetadata(), nil))
        // `stream limit` ends a server stream: the call is cancelled once that many have come.
        let call = Mutex<(task: Task<GRPCConnection.Outcome, any Error>?, stop: Bool)>((nil, false))
        let (codec, live, showHeaders, limit, name) = (codec, live, showHeaders, limit, name)
        let onEvent: @Sendable (GRPCConnection.Event) async -> Void = { event in
            switch event {
            case .headers(let headers):
                received.withLock {
                    $0.headers = headers
                    $0.firstByte = $0.firstByte ?? .now
                }
                if streaming {
                    live.send(
                        .streamHead(
                            StreamHead(
                                status: HTTPStatus(code: 200), headers: GRPCMessages.headers(headers),
                                format: .jsonLines, showHeaders: showHeaders, grpcMethod: name)))
                }
            case .message(let bytes):
                let text = codec.text(bytes)
                let index = received.withLock {
                    $0.messages.append(text)
                    return $0.messages.count
                }
                onMessage?(text, index, ContinuousClock.now - started)
                guard streaming else { return }
                live.send(
                    .streamEvent(
                        StreamEventOutput(
                            index: index, event: StreamEvent(data: text), format: .jsonLines,
                            elapsed: ContinuousClock.now - started, violations: nil)))
                if let limit, index >= limit {
                    let task = call.withLock { state in
                        state.stop = true
                        return state.task
                    }
                    task?.cancel()
                }
            }
        }
        let task = Task {
            switch requests {
            case .whole(let messages):
                try await client.grpc(request, on: connection, messages: messages, timeout: timeout, onEvent: onEvent)
            case .streaming(let messages):
                try await client.grpc(request, on: connection, streaming: messages, timeout: timeout, onEvent: onEvent)
            }
        }
        if call.withLock({ state in
            state.task = task
            return state.stop
        }) {
            task.cancel()
        }
        let outcome = try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        let (texts, headers, firstByte) = received.withLock { ($0.messages, $0.headers, $0.firstByte) }
        return Result(
            outcome: outcome, messages: texts, headers: headers, started: started, firstByte: firstByte,
            elapsed: ContinuousClock.now - started, stopped: call.withLock { $0.stop })
    }

    /// The answer as a response to keep (sent as `request` when the interceptors' is unknown),
    /// and the call's record beside it.
    func response(_ result: Result, request: PreparedRequest) -> (NetworkResponse<Data>, GRPCCallRecord) {
        var headers = GRPCMessages.headers(result.headers)
        let body: Data
        if method.serverStreaming || method.clientStreaming && result.messages.count != 1 {
            headers.add(.contentType, "application/x-ndjson")
            body = Data(result.messages.map { $0 + "\n" }.joined().utf8)
        } else if let text = result.messages.first {
            headers.add(.contentType, "application/json")
            body = Data(text.utf8)
        } else {
            body = Data()
        }
        let outcome = result.outcome
        let details = outcome.trailers.bytes("grpc-status-details-bin").first.flatMap {
            try? GRPCStatusDetails.json($0, api: codec.pool)
        }
        // Ended at `stream limit`: cancelled on purpose, which the stream's ending says.
        let status = result.stopped && outcome.status.code == 1 ? GRPCStatus(code: 1) : outcome.status
        let record = GRPCCallRecord(
            method: name, kind: method.kind, status: status, trailers: GRPCMessages.headers(outcome.trailers),
            details: details)
        let response = NetworkResponse(
            status: HTTPStatus(code: 200), headers: headers, body: body, httpVersion: "HTTP/2",
            request: outcome.sent ?? request,
            timing: ResponseTiming(
                firstByte: result.firstByte.map { $0 - result.started } ?? result.elapsed, total: result.elapsed))
        return (response, record)
    }

    /// A server stream's summary: how many, how it ended.
    func streamSummary(_ result: Result) -> StreamSummary? {
        guard method.serverStreaming else { return nil }
        return StreamSummary(
            format: .jsonLines, events: result.messages.count,
            ending: result.stopped ? .stopped : result.outcome.status.code == 1 ? .cancelled : .complete,
            shownLive: live.isListening)
    }
}
