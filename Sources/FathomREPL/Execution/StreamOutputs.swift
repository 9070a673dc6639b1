@_spi(Fathom) import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation
import Synchronization

/// A streamed response's head, shown as soon as it arrives.
struct StreamHead: Sendable {
    var status: HTTPStatus
    var headers: NetworkHeaders
    var format: StreamFormat
    var showHeaders: Bool
    /// The gRPC method whose server stream this is (`call`), shown instead of the HTTP status.
    var grpcMethod: String? = nil
}

/// One event of a stream, shown as it arrives.
struct StreamEventOutput: Sendable {
    /// From 1, in the order they came.
    var index: Int
    var event: StreamEvent
    var format: StreamFormat
    /// Since the response's first byte; `nil` when shown again later.
    var elapsed: Duration?
    /// The event against the description's `itemSchema`, when it gives one: empty when it keeps it.
    var violations: [SchemaViolation]?
}

/// How a streamed response ended and what it held, shown under it.
struct StreamSummary: Sendable, Equatable {
    var format: StreamFormat
    var events: Int
    var ending: StreamWatch.Ending
    /// Its events were shown as they came: the response is shown as this summary alone.
    var shownLive: Bool
}

/// A streamed response as the session reads it: `inspect`, `let`, `expect` and `diff` see a
/// JSON array of its events. A server-sent event is `{"event", "id", "retry", "data"}` (only
/// those it has; `data` is JSON when it parses, else text); a line or record is its JSON value
/// (or its text). Read from the body as kept, so `show #N` and a recording read the same.
/// A stream's events, parsed from a kept body once (``ResponseHistory/Entry/stream``).
struct ParsedStream: Sendable {
    var format: StreamFormat
    var events: [StreamEvent]

    /// The events of `response`'s body, when its `Content-Type` is a stream's.
    init?(_ response: NetworkResponse<Data>) {
        guard let format = StreamFormat(contentType: response.contentType) else { return nil }
        var parser = StreamParser(format: format)
        self.format = format
        events = parser.feed(response.body) + parser.finish()
    }

    /// The events as a JSON array.
    var json: JSON { .array(events.map { StreamDocument.json($0, format: format) }) }

    /// The events as OpenAPI 3.2's `itemSchema` describes them: a server-sent event's `data`
    /// as text.
    var items: [JSON] { events.map { StreamDocument.json($0, format: format, dataAsText: true) } }
}

enum StreamDocument {
    /// One event as JSON; with `dataAsText`, a server-sent event's `data` stays text, as
    /// `itemSchema` describes it (a line or record is its value either way).
    static func json(_ event: StreamEvent, format: StreamFormat, dataAsText: Bool = false) -> JSON {
        let parsed = (try? JSON(parsing: event.data)) ?? .string(event.data)
        guard format == .serverSentEvents else { return parsed }
        var members = [JSON.Member(key: "event", value: .string(event.type ?? "message"))]
        if let id = event.id { members.append(JSON.Member(key: "id", value: .string(id))) }
        if let retry = event.retry { members.append(JSON.Member(key: "retry", value: .number(String(retry)))) }
        members.append(JSON.Member(key: "data", value: dataAsText ? .string(event.data) : parsed))
        return .object(members)
    }
}

/// Where outputs go while a line still runs (a stream's head and events): the loop that runs
/// lines sets it, and a script or a replay that does not leaves them for the line's end.
final class LiveOutputs: Sendable {
    /// The handler in a box: a closure read out of a `Mutex` (`withLock { $0 }`) is written back
    /// wrapped in one more reabstraction thunk each time, and 4,600 WebSocket messages later
    /// calling it overflowed the stack. A class reference is read back as it is.
    private final class Sink: Sendable {
        let handler: @Sendable (Output) -> Void
        init(_ handler: @escaping @Sendable (Output) -> Void) { self.handler = handler }
    }

    private let sink = Mutex<Sink?>(nil)

    /// Sends `output` now; `false` when no one is listening.
    @discardableResult
    func send(_ output: Output) -> Bool {
        guard let sink = sink.withLock({ $0 }) else { return false }
        sink.handler(output)
        return true
    }

    var isListening: Bool { sink.withLock { $0 != nil } }

    func listen(_ handler: (@Sendable (Output) -> Void)?) {
        sink.withLock { $0 = handler.map(Sink.init) }
    }
}

/// Reads one response as a stream when it is one: decides at its head (a stream's content type,
/// or any chunked body with `stream on`), shows the head and each event as they arrive (when
/// the loop listens), and ends the stream at `stream limit` events.
final class StreamReader: Sendable {
    /// The check of each event against the description, for a response with this status and
    /// content type; `nil` when the description gives no `itemSchema` for it.
    typealias ItemCheck = @Sendable (HTTPStatus, String?) -> (@Sendable (JSON) -> [SchemaViolation])?

    private struct State {
        var format: StreamFormat?
        var parser: StreamParser?
        var events = 0
        var firstByte: ContinuousClock.Instant?
        var check: (@Sendable (JSON) -> [SchemaViolation])?
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    let watch: StreamWatch
    private let live: LiveOutputs

    init(all: Bool, limit: Int?, showHeaders: Bool, live: LiveOutputs, itemCheck: ItemCheck? = nil) {
        let shared = self.shared
        self.live = live
        watch = StreamWatch(
            streams: { status, headers in
                var format = StreamFormat(contentType: headers[.contentType])
                if format == nil, all, headers[NetworkHeaders.Name("Transfer-Encoding")]?.lowercased() == "chunked" {
                    format = .chunks
                }
                guard let format else { return false }
                let check = itemCheck?(status, headers[.contentType])
                shared.state.withLock { state in
                    state.format = format
                    state.parser = StreamParser(format: format)
                    state.firstByte = .now
                    state.check = check
                }
                live.send(
                    .streamHead(StreamHead(status: status, headers: headers, format: format, showHeaders: showHeaders)))
                return true
            },
            chunk: { data in
                let (events, format, first, goOn) = shared.state.withLock {
                    state -> ([StreamEvent], StreamFormat, Int, Bool) in
                    var events = state.parser?.feed(data) ?? []
                    if let limit, state.events + events.count >= limit {
                        events = Array(events.prefix(limit - state.events))
                    }
                    let first = state.events + 1
                    state.events += events.count
                    return (events, state.format ?? .chunks, first, limit.map { state.events < $0 } ?? true)
                }
                Self.emit(events, from: first, format: format, shared: shared, live: live)
                return goOn
            })
    }

    /// Shows `events` (numbered from `first`) as they arrived, each checked against the
    /// description's `itemSchema` when it gives one.
    private static func emit(
        _ events: [StreamEvent], from first: Int, format: StreamFormat, shared: Shared, live: LiveOutputs
    ) {
        let (elapsed, check) = shared.state.withLock { ($0.firstByte.map { ContinuousClock.now - $0 }, $0.check) }
        for (offset, event) in events.enumerated() {
            let violations = check?(StreamDocument.json(event, format: format, dataAsText: true))
            live.send(
                .streamEvent(
                    StreamEventOutput(
                        index: first + offset, event: event, format: format, elapsed: elapsed, violations: violations)))
        }
    }

    /// Ends the reading once the send returned: a last line without its line break is an
    /// event now, and is shown. What the stream came to; `nil` when the response was no stream.
    func finish() -> StreamSummary? {
        let (format, events, parser) = shared.state.withLock { ($0.format, $0.events, $0.parser) }
        guard let format else { return nil }
        var finishing = parser
        var total = events
        if watch.ending == .complete, let last = finishing?.finish(), !last.isEmpty {
            Self.emit(last, from: total + 1, format: format, shared: shared, live: live)
            total += last.count
        }
        return StreamSummary(
            format: format, events: total, ending: watch.ending ?? .complete, shownLive: live.isListening)
    }
}
