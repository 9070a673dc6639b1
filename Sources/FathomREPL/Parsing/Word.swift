/// One shell-like word of a command line and the column it starts at.
struct Word: Equatable, Sendable {
    /// The text with quotes removed and escapes resolved.
    var text: String
    /// The 1-based column of the word's first character in the line.
    var column: Int
    /// Whether any part of the word was quoted (a quoted `#` or `-` is literal).
    var quoted: Bool

    init(_ text: String, column: Int, quoted: Bool = false) {
        self.text = text
        self.column = column
        self.quoted = quoted
    }
}

/// Splits a line into words as a shell does: blanks separate, `'…'` is literal, `"…"` allows
/// `\"` and `\\`, a backslash outside quotes escapes the next character, and an unquoted `#` followed
/// by a blank (or ending the line) begins a comment: `#3` is a word, naming a response.
enum Tokenizer {
    /// `#` followed by a blank or the end of the line.
    private static func isCommentStart(_ line: Substring, _ index: Substring.Index) -> Bool {
        let next = line.index(after: index)
        return next == line.endIndex || line[next] == " " || line[next] == "\t"
    }

    static func words(_ line: Substring, firstColumn: Int = 1) throws(CommandError) -> [Word] {
        try scan(line, firstColumn: firstColumn).map(\.word)
    }

    /// The words with where each ends in `line` and the column after it.
    static func scan(
        _ line: Substring, firstColumn: Int = 1
    ) throws(CommandError) -> [(
        word: Word, end: Substring.Index, endColumn: Int
    )] {
        var words: [(word: Word, end: Substring.Index, endColumn: Int)] = []
        var current = ""
        var start: Int?
        var quoted = false
        var quote: Character?
        var quoteColumn = 0
        var column = firstColumn - 1
        var escaping = false

        var index = line.startIndex
        func finish() {
            if let start { words.append((Word(current, column: start, quoted: quoted), index, column)) }
            current = ""
            start = nil
            quoted = false
        }

        while index < line.endIndex {
            let character = line[index]
            defer { index = line.index(after: index) }
            column += 1
            if escaping {
                current.append(character)
                escaping = false
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\", open == "\"" {
                    escaping = true
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case " ", "\t", "\n":
                finish()
            case "'", "\"":
                if start == nil { start = column }
                quote = character
                quoteColumn = column
                quoted = true
            case "\\":
                if start == nil { start = column }
                escaping = true
                quoted = true
            case "#" where start == nil && isCommentStart(line, index):
                return words
            default:
                if start == nil { start = column }
                current.append(character)
            }
        }
        if quote != nil {
            throw CommandError("unterminated quote", column: quoteColumn, hint: "close it with \(quote!)")
        }
        if escaping { current.append("\\") }
        column += 1
        finish()
        return words
    }
}
