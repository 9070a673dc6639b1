/// Why a document is not valid JSON, and where.
///
/// ``description`` reads `invalid JSON at line 3, column 7 (byte 42): expected ',' or '}'` followed by
/// the line and a caret under the spot.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let reason: String
    /// The byte offset from the start of the input (0-based).
    public let offset: Int
    /// The line (1-based).
    public let line: Int
    /// The column in characters (1-based).
    public let column: Int
    /// The line of input around the spot (at most about 60 characters).
    public let context: String
    /// How many characters into ``context`` the spot is (0-based).
    public let caret: Int

    init(reason: String, offset: Int, in input: UnsafeBufferPointer<UInt8>) {
        self.reason = reason
        self.offset = offset
        let end = min(offset, input.count)
        var lineStart = 0
        var line = 1
        for index in 0..<end where input[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        var lineEnd = end
        while lineEnd < input.count, input[lineEnd] != UInt8(ascii: "\n"), input[lineEnd] != UInt8(ascii: "\r") {
            lineEnd += 1
        }
        let before = String(decoding: UnsafeBufferPointer(rebasing: input[lineStart..<end]), as: UTF8.self)
        let after = String(decoding: UnsafeBufferPointer(rebasing: input[end..<lineEnd]), as: UTF8.self)
        self.line = line
        self.column = before.count + 1
        // Keep the context short around the spot; tabs become spaces so the caret lines up.
        let shownBefore = String(before.suffix(40)).replacingTabs()
        let shownAfter = String(after.prefix(30)).replacingTabs()
        self.context = shownBefore + shownAfter
        self.caret = shownBefore.count
    }

    public var description: String {
        "invalid JSON at line \(line), column \(column) (byte \(offset)): \(reason)\n  \(context)\n  "
            + String(repeating: " ", count: caret) + "^"
    }

    /// The first line of ``description``, for one-line error reports.
    public var summary: String {
        "invalid JSON at line \(line), column \(column) (byte \(offset)): \(reason)"
    }
}

extension String {
    fileprivate func replacingTabs() -> String {
        String(map { $0 == "\t" || $0 == "\r" ? " " : $0 })
    }
}
