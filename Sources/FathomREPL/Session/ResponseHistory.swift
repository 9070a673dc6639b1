@_spi(Fathom) import FathomHTTP
import Foundation

/// The numbered responses of a session, `#1`, `#2`, …, kept up to a count and a byte bound.
///
/// Numbers never repeat: when the bound drops the oldest responses, their numbers are gone and
/// asking for one says so.
struct ResponseHistory: Equatable, Sendable {
    struct Entry: Sendable {
        let number: Int
        let response: NetworkResponse<Data>
    }

    /// A batch (`send --repeat`): numbered as responses are, kept as its summary.
    struct BatchEntry: Sendable {
        let number: Int
        let summary: BatchSummary
    }

    /// A WebSocket conversation (`ws`): numbered as responses are; its messages are read from
    /// the connection's transcript, live while it is open.
    struct ConversationEntry: Sendable {
        let number: Int
        let conversation: OpenWebSocket
    }

    /// Batches kept: their summaries are small, their responses are not kept at all.
    static let maxBatches = 20
    /// Conversations kept (each keeps at most twice ``OpenWebSocket/keptLimit`` messages).
    static let maxConversations = 10

    let maxCount: Int
    let maxBytes: Int
    private(set) var entries: [Entry] = []
    private(set) var batches: [BatchEntry] = []
    private(set) var conversations: [ConversationEntry] = []
    private(set) var lastNumber = 0
    private var bytes = 0

    init(maxCount: Int = 100, maxBytes: Int = 64 << 20) {
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// Keeps `response` and returns its number.
    @discardableResult
    mutating func append(_ response: NetworkResponse<Data>) -> Int {
        lastNumber += 1
        entries.append(Entry(number: lastNumber, response: response))
        bytes += response.body.count
        while entries.count > maxCount || (bytes > maxBytes && entries.count > 1) {
            bytes -= entries.removeFirst().response.body.count
        }
        return lastNumber
    }

    /// Keeps a batch's summary, made with the number it gets, and returns it.
    @discardableResult
    mutating func appendBatch(_ make: (Int) -> BatchSummary) -> BatchSummary {
        lastNumber += 1
        let summary = make(lastNumber)
        batches.append(BatchEntry(number: lastNumber, summary: summary))
        if batches.count > Self.maxBatches { batches.removeFirst() }
        return summary
    }

    /// Keeps a WebSocket conversation and returns its number.
    mutating func appendConversation(_ conversation: OpenWebSocket) -> Int {
        lastNumber += 1
        conversations.append(ConversationEntry(number: lastNumber, conversation: conversation))
        if conversations.count > Self.maxConversations { conversations.removeFirst() }
        return lastNumber
    }

    /// The conversation numbered `number`, or the last entry when `nil` if it is one.
    func conversation(_ number: Int?) -> ConversationEntry? {
        guard let last = conversations.last else { return nil }
        guard let number else { return last.number == lastNumber ? last : nil }
        return conversations.first { $0.number == number }
    }

    var last: Entry? { entries.last }

    /// Histories are the same when they hold the same numbers (a number is never given twice).
    static func == (a: ResponseHistory, b: ResponseHistory) -> Bool {
        a.lastNumber == b.lastNumber && a.entries.map(\.number) == b.entries.map(\.number)
            && a.batches.map(\.number) == b.batches.map(\.number)
            && a.conversations.map(\.number) == b.conversations.map(\.number)
    }

    /// The batch numbered `number`, or the last entry when `nil` if it is a batch; `nil` when
    /// that number is a response (or nothing).
    func batch(_ number: Int?) -> BatchEntry? {
        guard let last = batches.last else { return nil }
        guard let number else { return last.number == lastNumber ? last : nil }
        return batches.first { $0.number == number }
    }

    /// The response numbered `number`, or the last when `nil`.
    func entry(_ number: Int?) throws(CommandError) -> Entry {
        if let batch = batch(number) {
            let requests = "\(batch.summary.completed) request\(batch.summary.completed == 1 ? "" : "s")"
            throw CommandError(
                number == nil
                    ? "the last entry is batch #\(batch.number) (\(requests)), not one response"
                    : "#\(batch.number) is a batch of \(requests), not one response",
                hint: "`expect batch p99 < 200ms` checks it; `inspect #\(batch.number) $.latency` reads its summary")
        }
        if let conversation = conversation(number) {
            let what = number == nil ? "the last entry is" : "#\(conversation.number) is"
            throw CommandError(
                "\(what) the WebSocket conversation #\(conversation.number), not a response",
                hint:
                    "`expect message …` waits for a message; `inspect #\(conversation.number) $.messages` reads them")
        }
        guard let number else {
            guard let last = entries.last else {
                throw CommandError("no response yet", hint: "send a request first")
            }
            return last
        }
        if let entry = entries.first(where: { $0.number == number }) { return entry }
        if number <= lastNumber {
            throw CommandError(
                "response #\(number) is no longer kept",
                hint: "the session keeps the last \(maxCount) responses up to \(ByteCount.format(maxBytes))")
        }
        throw CommandError(
            "no response #\(number)", hint: lastNumber == 0 ? "no response yet" : "the last is #\(lastNumber)")
    }
}
