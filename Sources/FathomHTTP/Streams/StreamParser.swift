import Foundation

/// One event of a streamed response: a server-sent event, a line of JSON Lines, a record of a
/// JSON text sequence, or a chunk as it came.
public struct StreamEvent: Hashable, Sendable {
    /// The event's data: a server-sent event's `data` lines joined with line feeds, or the line,
    /// record or chunk as text.
    public var data: String
    /// A server-sent event's type (`message` unless the stream named one); `nil` for other formats.
    public var type: String?
    /// The last event ID when the event was dispatched (server-sent events), if any was set.
    public var id: String?
    /// The reconnection time in milliseconds, when this event's own `retry` field set one.
    public var retry: Int?

    /// An event; see the properties.
    public init(data: String, type: String? = nil, id: String? = nil, retry: Int? = nil) {
        self.data = data
        self.type = type
        self.id = id
        self.retry = retry
    }
}

/// How a streamed body divides into events.
public enum StreamFormat: String, Hashable, Sendable, CaseIterable {
    /// `text/event-stream`, parsed by the WHATWG HTML rules for server-sent events.
    case serverSentEvents = "sse"
    /// `application/x-ndjson`, `application/jsonl`, `application/json-lines`: one value per line.
    case jsonLines = "ndjson"
    /// `application/json-seq` (RFC 7464): records that start with RS (0x1E).
    case jsonSequence = "json-seq"
    /// Any other body, read as it comes: each chunk the network delivered is an event.
    case chunks

    /// The format a `Content-Type` names; `nil` for a body that is not a stream.
    public init?(contentType: String?) {
        guard let contentType else { return nil }
        switch MediaType.essence(contentType) {
        case "text/event-stream": self = .serverSentEvents
        case "application/x-ndjson", "application/jsonl", "application/json-lines", "application/x-jsonlines",
            "application/jsonlines":
            self = .jsonLines
        case "application/json-seq": self = .jsonSequence
        default: return nil
        }
    }
}

/// Divides a streamed body into events as its bytes arrive, however the network splits them.
///
/// Server-sent events follow the WHATWG HTML parsing rules: a leading byte order mark is
/// dropped; lines end with CRLF, LF or CR; a line starting with `:` is a comment; `data` lines
/// accumulate, joined by line feeds; `event` sets the type, `id` the last event ID (unless it
/// holds NUL), `retry` the reconnection time (digits only); a blank line dispatches the event when
/// it has data; an event the stream ends before dispatching is dropped.
///
/// ```swift
/// var parser = StreamParser(format: .serverSentEvents)
/// for chunk in chunks { for event in parser.feed(chunk) { print(event.data) } }
/// for event in parser.finish() { print(event.data) }
/// ```
public struct StreamParser: Sendable {
    /// How the bytes divide into events.
    public let format: StreamFormat
    private var line: [UInt8] = []
    private var afterCR = false
    private var started = false
    // Server-sent events' buffers.
    private var data = ""
    private var hasData = false
    private var type = ""
    private var lastID: String?
    private var retry: Int?

    /// A parser for `format`.
    public init(format: StreamFormat) {
        self.format = format
    }

    /// The events `bytes` complete.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [StreamEvent] {
        var events: [StreamEvent] = []
        if format == .chunks {
            var chunk = Array(bytes)
            if !started, chunk.starts(with: [0xEF, 0xBB, 0xBF]) { chunk.removeFirst(3) }
            started = true
            if !chunk.isEmpty { events.append(StreamEvent(data: String(decoding: chunk, as: UTF8.self))) }
            return events
        }
        for byte in bytes {
            if !started {
                // A byte order mark is dropped once, at the very start.
                line.append(byte)
                if line.count < 3, [0xEF, 0xBB, 0xBF].starts(with: line) { continue }
                started = true
                let pending = line == [0xEF, 0xBB, 0xBF] ? [] : line
                line = []
                for pendingByte in pending { take(pendingByte, into: &events) }
                continue
            }
            take(byte, into: &events)
        }
        return events
    }

    /// The events the end of the stream completes: a last line without its line break (lines
    /// and sequences); never a server-sent event that was not dispatched.
    public mutating func finish() -> [StreamEvent] {
        var events: [StreamEvent] = []
        if !started, !line.isEmpty {
            started = true
            let pending = line
            line = []
            for byte in pending { take(byte, into: &events) }
        }
        switch format {
        case .jsonLines, .jsonSequence:
            if let event = record(line) { events.append(event) }
        case .serverSentEvents, .chunks:
            break
        }
        line = []
        return events
    }

    private mutating func take(_ byte: UInt8, into events: inout [StreamEvent]) {
        if format == .jsonSequence {
            // RFC 7464: RS starts a record; the record's own line breaks are the JSON's whitespace.
            if byte == 0x1E {
                if let event = record(line) { events.append(event) }
                line = []
            } else {
                line.append(byte)
            }
            return
        }
        switch byte {
        case 0x0A where afterCR:
            afterCR = false
        case 0x0A, 0x0D:
            afterCR = byte == 0x0D
            endOfLine(into: &events)
        default:
            afterCR = false
            line.append(byte)
        }
    }

    private mutating func endOfLine(into events: inout [StreamEvent]) {
        let bytes = line
        line = []
        switch format {
        case .jsonLines:
            if let event = record(bytes) { events.append(event) }
        case .serverSentEvents:
            if let event = sseLine(bytes) { events.append(event) }
        case .jsonSequence, .chunks:
            break
        }
    }

    /// A line or record as an event; `nil` when it is blank.
    private func record(_ bytes: [UInt8]) -> StreamEvent? {
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : StreamEvent(data: trimmed)
    }

    private mutating func sseLine(_ bytes: [UInt8]) -> StreamEvent? {
        guard !bytes.isEmpty else { return dispatch() }
        if bytes[0] == UInt8(ascii: ":") { return nil }
        let field: String
        var value: String
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            var rest = bytes[(colon + 1)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
            value = String(decoding: rest, as: UTF8.self)
        } else {
            field = String(decoding: bytes, as: UTF8.self)
            value = ""
        }
        switch field {
        case "event": type = value
        case "data":
            data += value
            data += "\n"
            hasData = true
        case "id": if !value.unicodeScalars.contains("\0") { lastID = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { retry = Int(value) }
        default: value = ""
        }
        return nil
    }

    /// A blank line: the event buffered so far, when it has data.
    private mutating func dispatch() -> StreamEvent? {
        defer {
            data = ""
            hasData = false
            type = ""
            retry = nil
        }
        guard hasData else { return nil }
        var text = data
        if text.hasSuffix("\n") { text.removeLast() }
        return StreamEvent(data: text, type: type.isEmpty ? "message" : type, id: lastID, retry: retry)
    }
}
