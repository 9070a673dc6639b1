/// One shell-like word of a command line and the column it starts at.
struct Word: Equatable, Sendable {
    /// The text with quotes removed and escapes resolved.
    var text: String
    /// The 1-based column of the word's first character in the line.
    var column: Int
    /// Whether the word starts with a quoted or escaped character: a quoted `#`, `-` or keyword
    /// is literal (`'-x'` is a query item named `-x`; `-'a b'` removes the item `a b`).
    var quoted: Bool

    init(_ text: String, column: Int, quoted: Bool = false) {
        self.text = text
        self.column = column
        self.quoted = quoted
    }
}

/// Splits a line into words as a shell does: blanks separate, `'…'` is literal, `"…"` allows
/// `\"` and `\\`, `$'…'` takes bash's ANSI-C escapes (`\n`, `\t`, `\e`, `\xHH`, `\'`), a backslash
/// outside quotes escapes the next character, and an unquoted `#` followed by a blank (or ending
/// the line) begins a comment: `#3` is a word, naming a response. ``Quoting`` writes words back.
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
        /// Inside `$'…'`.
        var ansi = false

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
            if ansi {
                if character == "'" {
                    ansi = false
                    quote = nil
                } else if character == "\\" {
                    // The escape and what it takes, decoded as bash decodes it.
                    let rest = Array(line[line.index(after: index)...])
                    guard !rest.isEmpty else { break }
                    let (decoded, length) = ShellWords.ansiEscape(rest, at: 0)
                    current += decoded
                    for _ in 0..<length {
                        index = line.index(after: index)
                        column += 1
                    }
                } else {
                    current.append(character)
                }
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
                if start == nil {
                    start = column
                    quoted = true
                }
                quote = character
                quoteColumn = column
            case "\\":
                if start == nil {
                    start = column
                    quoted = true
                }
                escaping = true
            case "#" where start == nil && isCommentStart(line, index):
                return words
            case "$" where line.index(after: index) < line.endIndex && line[line.index(after: index)] == "'":
                if start == nil {
                    start = column
                    quoted = true
                }
                quote = "'"
                quoteColumn = column
                ansi = true
                index = line.index(after: index)
                column += 1
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
