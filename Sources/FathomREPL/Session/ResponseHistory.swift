import FathomGraphQL
@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// An entry of the history that is not one HTTP response: a batch, a WebSocket conversation —
/// and what a new protocol adds (see ARCHITECTURE.md, "Adding a protocol"). Numbered as
/// responses are; `inspect`, `let` and `show #N` read its ``document()``, and `expect` and
/// `let … status` say what it is instead of reading it as a response.
protocol Exchange: Sendable {
    /// The entry as JSON: what `inspect #N EXPR` and `let NAME = EXPR #N` query.
    func document() -> JSON
    /// The error for a line that reads the entry as a response (`expect status`, `let … header`,
    /// `show #N > FILE`): what it is, and what reads it instead. `last`: it was asked for as the
    /// last entry, not by number.
    func notAResponse(last: Bool) -> CommandError
    /// The entry in one line, as `responses` lists it after its number (`WS ws://…/ws · 3
    /// received, 1 sent`).
    var listed: String { get }
    /// What a recording keeps of it for `replay --compare` to check, or `nil` for an exchange
    /// that is not recorded (a batch: its summary is its own check).
    func recorded() -> RecordedResponse?
}

extension Exchange {
    func recorded() -> RecordedResponse? { nil }
}

/// The numbered responses of a session, `#1`, `#2`, …, kept up to a count and a byte bound,
/// and the other exchanges (``Exchange``: batches, WebSocket conversations) numbered with them.
///
/// Numbers never repeat: when the bound drops the oldest responses, their numbers are gone and
/// asking for one says so.
struct ResponseHistory: Equatable, Sendable {
    struct Entry: Sendable {
        let number: Int
        let response: NetworkResponse<Data>
        /// A stream's events, parsed once when the response is kept: every read of them (`inspect`,
        /// `expect events`, the `itemSchema` check, `diff`, `show`) reads these.
        let stream: ParsedStream?
        /// The GraphQL operation the request carried: its response is checked against the
        /// operation's selection, whenever it is read.
        let graphQL: GraphQLOperation?
        /// The gRPC call the response is, when it is one: its status, trailers and details.
        let grpc: GRPCCallRecord?
        /// Its ID in the response archive when it was read from there (`show @12`): ``number``
        /// is then its number in the session that made it.
        let archived: Int?

        init(
            number: Int, response: NetworkResponse<Data>, graphQL: GraphQLOperation? = nil,
            grpc: GRPCCallRecord? = nil, archived: Int? = nil
        ) {
            self.number = number
            self.archived = archived
            self.response = response
            stream = ParsedStream(response)
            self.graphQL = graphQL
            self.grpc = grpc
        }

        /// How lines name it: `#3`, or `@12` when it came from the archive.
        var reference: ResponseReference { archived.map { .archived($0) } ?? .number(number) }
    }

    /// An exchange of another kind, with its number.
    struct ExchangeEntry: Sendable {
        let number: Int
        let exchange: any Exchange
    }

    /// Exchanges kept: a batch keeps its summary (its responses are not kept at all), a
    /// conversation at most twice ``MessageLog/keptLimit`` messages.
    static let maxExchanges = 20

    let maxCount: Int
    let maxBytes: Int
    private(set) var entries: [Entry] = []
    private(set) var exchanges: [ExchangeEntry] = []
    private(set) var lastNumber = 0
    private var bytes = 0

    init(maxCount: Int = 100, maxBytes: Int = 64 << 20) {
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// Keeps `response` and returns its number.
    @discardableResult
    mutating func append(
        _ response: NetworkResponse<Data>, graphQL: GraphQLOperation? = nil, grpc: GRPCCallRecord? = nil
    ) -> Int {
        lastNumber += 1
        entries.append(Entry(number: lastNumber, response: response, graphQL: graphQL, grpc: grpc))
        bytes += response.body.count
        while entries.count > maxCount || (bytes > maxBytes && entries.count > 1) {
            bytes -= entries.removeFirst().response.body.count
        }
        return lastNumber
    }

    /// Keeps an exchange, made with the number it gets, and returns it.
    @discardableResult
    mutating func append<Kind: Exchange>(_ make: (Int) -> Kind) -> Kind {
        lastNumber += 1
        let exchange = make(lastNumber)
        exchanges.append(ExchangeEntry(number: lastNumber, exchange: exchange))
        if exchanges.count > Self.maxExchanges { exchanges.removeFirst() }
        return exchange
    }

    /// The exchange numbered `number`, or the last entry when `nil` if it is one; `nil` when
    /// that number is a response (or nothing).
    func exchange(_ number: Int?) -> ExchangeEntry? {
        guard let last = exchanges.last else { return nil }
        guard let number else { return last.number == lastNumber ? last : nil }
        return exchanges.first { $0.number == number }
    }

    /// The exchange of kind `Kind` numbered `number` (the last entry when `nil`).
    func exchange<Kind: Exchange>(_ number: Int?, as kind: Kind.Type) -> (number: Int, exchange: Kind)? {
        guard let entry = exchange(number), let exchange = entry.exchange as? Kind else { return nil }
        return (entry.number, exchange)
    }

    /// The last exchange of kind `Kind`, wherever it is in the history.
    func last<Kind: Exchange>(_ kind: Kind.Type) -> Kind? {
        exchanges.last { $0.exchange is Kind }?.exchange as? Kind
    }

    var last: Entry? { entries.last }

    /// Histories are the same when they hold the same numbers (a number is never given twice).
    static func == (a: ResponseHistory, b: ResponseHistory) -> Bool {
        a.lastNumber == b.lastNumber && a.entries.map(\.number) == b.entries.map(\.number)
            && a.exchanges.map(\.number) == b.exchanges.map(\.number)
    }

    /// The response numbered `number`, or the last when `nil`.
    func entry(_ number: Int?) throws(CommandError) -> Entry {
        if let entry = exchange(number) { throw entry.exchange.notAResponse(last: number == nil) }
        guard let number else {
            guard let last = entries.last else {
                throw CommandError(.session, .noResponse)
            }
            return last
        }
        if let entry = entries.first(where: { $0.number == number }) { return entry }
        if number <= lastNumber {
            throw CommandError(
                .session, "response #\(number) is no longer kept",
                hint: "the session keeps the last \(maxCount) responses up to \(ByteCount.format(maxBytes))")
        }
        throw CommandError(
            .session, "no response #\(number)",
            hint: lastNumber == 0 ? "none has come yet: send a request first" : "the last is #\(lastNumber)"
        )
    }
}
