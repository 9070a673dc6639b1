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
///
/// Read by Unicode scalars, not Characters: a combining mark after a quote, a backslash or a
/// blank is text, and never hides the quote or the blank from the reader.
enum Tokenizer {
    static func words(_ line: Substring, firstColumn: Int = 1) throws(CommandError) -> [Word] {
        try scan(line, firstColumn: firstColumn).map(\.word)
    }

    /// The words with where each ends in `line` (a scalar boundary) and the column after it; with
    /// `limit`, the first `limit` words only, and nothing after them is read.
    static func scan(
        _ line: Substring, firstColumn: Int = 1, limit: Int? = nil
    ) throws(CommandError) -> [(
        word: Word, end: Substring.Index, endColumn: Int
    )] {
        let scalars = line.unicodeScalars
        var words: [(word: Word, end: Substring.Index, endColumn: Int)] = []
        var current = ""
        var start: Int?
        var quoted = false
        var quote: Unicode.Scalar?
        var quoteColumn = 0
        var column = firstColumn - 1
        var escaping = false
        /// Inside `$'…'`.
        var ansi = false
        /// Inside an unquoted `{{…}}`.
        var template = false

        var index = scalars.startIndex
        func finish() {
            if let start { words.append((Word(current, column: start, quoted: quoted), index, column)) }
            current = ""
            start = nil
            quoted = false
        }
        func enough() -> Bool { limit.map { words.count >= $0 } ?? false }
        func next(after index: Substring.UnicodeScalarView.Index) -> Unicode.Scalar? {
            let following = scalars.index(after: index)
            return following < scalars.endIndex ? scalars[following] : nil
        }

        while index < scalars.endIndex {
            let scalar = scalars[index]
            defer { index = scalars.index(after: index) }
            column += 1
            if escaping {
                current.unicodeScalars.append(scalar)
                escaping = false
                continue
            }
            if ansi {
                if scalar == "'" {
                    ansi = false
                    quote = nil
                } else if scalar == "\\" {
                    // The escape and what it takes, decoded as bash decodes it.
                    let rest = Array(scalars[scalars.index(after: index)...])
                    guard !rest.isEmpty else { break }
                    let (decoded, length) = ShellWords.ansiEscape(rest, at: 0)
                    current += decoded
                    for _ in 0..<length {
                        index = scalars.index(after: index)
                        column += 1
                    }
                } else {
                    current.unicodeScalars.append(scalar)
                }
                continue
            }
            if let open = quote {
                if scalar == open {
                    quote = nil
                } else if scalar == "\\", open == "\"" {
                    escaping = true
                } else {
                    current.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case " " where template, "\t" where template:
                // `{{$random.int 1 6}}` is one word: a template's blanks never split it.
                current.unicodeScalars.append(scalar)
            case " ", "\t", "\n":
                finish()
                template = false
                if enough() { return words }
            case "'", "\"":
                if start == nil {
                    start = column
                    quoted = true
                }
                quote = scalar
                quoteColumn = column
            case "\\":
                if start == nil {
                    start = column
                    quoted = true
                }
                escaping = true
            // `#` followed by a blank or the end of the line.
            case "#" where start == nil && [nil, " ", "\t"].contains(next(after: index)):
                return words
            case "$" where next(after: index) == "'":
                if start == nil {
                    start = column
                    quoted = true
                }
                quote = "'"
                quoteColumn = column
                ansi = true
                index = scalars.index(after: index)
                column += 1
            default:
                if start == nil { start = column }
                current.unicodeScalars.append(scalar)
                if scalar == "{", !template, current.unicodeScalars.dropLast().last == "{" {
                    template = true
                } else if scalar == "}", template, current.unicodeScalars.dropLast().last == "}" {
                    template = false
                }
            }
        }
        if let quote {
            throw CommandError(
                .parse, .unterminatedQuote(kind: nil), column: quoteColumn, hint: "close it with \(quote)")
        }
        if escaping { current.append("\\") }
        column += 1
        finish()
        return words
    }
}
