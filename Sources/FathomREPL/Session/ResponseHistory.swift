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

    let maxCount: Int
    let maxBytes: Int
    private(set) var entries: [Entry] = []
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

    var last: Entry? { entries.last }

    /// Histories are the same when they hold the same numbers (a number is never given twice).
    static func == (a: ResponseHistory, b: ResponseHistory) -> Bool {
        a.lastNumber == b.lastNumber && a.entries.map(\.number) == b.entries.map(\.number)
    }

    /// The response numbered `number`, or the last when `nil`.
    func entry(_ number: Int?) throws(CommandError) -> Entry {
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
