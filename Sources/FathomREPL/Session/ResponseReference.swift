/// A response named on a line: `#3`, the third of this session's history, or `@12`, the twelfth
/// exchange the response archive kept (from any session, this one included).
enum ResponseReference: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// `#N`: this session's history.
    case number(Int)
    /// `@ID`: the archive, across sessions.
    case archived(Int)

    /// As it is written: `#3`, `@12`.
    var description: String {
        switch self {
        case .number(let number): "#\(number)"
        case .archived(let id): "@\(id)"
        }
    }

    /// The number in this session's history, when it names one there.
    var number: Int? {
        if case .number(let number) = self { return number }
        return nil
    }
}

extension CommandParser {
    /// `#3` or `@12` as the response it names; `nil` for any other word (a quoted one included).
    static func responseReference(_ word: Word) throws(CommandError) -> ResponseReference? {
        guard !word.quoted, let first = word.text.first, first == "#" || first == "@" else { return nil }
        guard let value = Int(word.text.dropFirst()), value > 0 else {
            throw CommandError(
                .parse, .invalid(kind: first == "#" ? "response number" : "archive ID", value: word.text),
                column: word.column,
                hint: first == "#" ? "write #1, #2, …" : "write @1, @2, …: `responses --all` lists them")
        }
        return first == "#" ? .number(value) : .archived(value)
    }
}
