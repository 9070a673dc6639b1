/// Splits a pasted command line into words as bash reads it — single quotes, double quotes,
/// `$'…'` with its escapes, backslashes, `\` line continuations — or as Windows `cmd` does for
/// Chrome's "Copy as cURL (cmd)" (`^` escapes and continuations). Whatever bash would expand or
/// run is refused with the column where it starts, except a `$VAR`, which is kept as written
/// (curl would have sent it that way) and named in ``Result/variables``.
///
/// Read by Unicode scalars, not Characters: a combining mark after a quote or a backslash is text,
/// and never hides the quote from the reader (bash reads bytes the same way).
enum ShellWords {
    struct Result: Equatable {
        var words: [String]
        /// `$NAME` references left as written.
        var variables: [String]
    }

    /// The rest of a command's line as shell words (`curl …`, `grpcurl …`), an error's column
    /// counted from the start of the line.
    static func split(_ arguments: Arguments) throws(CommandError) -> Result {
        let column = arguments.column
        do {
            return try split(String(arguments.raw))
        } catch {
            var error = error
            error.column = error.column.map { $0 + column - 1 }
            throw error
        }
    }

    static func split(_ text: String) throws(CommandError) -> Result {
        var source = Array(text.unicodeScalars)
        if isWindowsForm(source) { source = unescapeWindows(source) }
        var words: [String] = []
        var variables: [String] = []
        var word = ""
        var inWord = false
        var index = 0
        func column() -> Int { index + 1 }
        func finish() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        while index < source.count {
            let character = source[index]
            switch character {
            case " ", "\t", "\n", "\r":
                finish()
                index += 1
            case "\\":
                if index + 1 < source.count, source[index + 1] == "\n" {
                    index += 2  // a line continuation
                    continue
                }
                if index + 1 < source.count {
                    word.unicodeScalars.append(source[index + 1])
                    inWord = true
                }
                index += 2
            case "'":
                guard let end = source[(index + 1)...].firstIndex(of: "'") else {
                    throw CommandError(.parse, .unterminatedQuote(kind: "single"), column: column())
                }
                word += string(source[(index + 1)..<end])
                inWord = true
                index = end + 1
            case "\"":
                index += 1
                inWord = true
                var closed = false
                while index < source.count {
                    let inner = source[index]
                    if inner == "\"" {
                        closed = true
                        index += 1
                        break
                    }
                    if inner == "\\", index + 1 < source.count, "$`\"\\\n".unicodeScalars.contains(source[index + 1]) {
                        if source[index + 1] != "\n" { word.unicodeScalars.append(source[index + 1]) }
                        index += 2
                        continue
                    }
                    if inner == "$" {
                        if index + 1 < source.count, source[index + 1] == "(" {
                            throw CommandError(
                                .parse, "command substitution is not taken", column: column(),
                                hint: "paste its output instead")
                        }
                        if let name = variableName(source, at: index) { variables.append(name) }
                    }
                    if inner == "`" {
                        throw CommandError(
                            .parse, "command substitution is not taken", column: column(),
                            hint: "paste its output instead")
                    }
                    word.unicodeScalars.append(inner)
                    index += 1
                }
                guard closed else { throw CommandError(.parse, .unterminatedQuote(kind: "double"), column: column()) }
            case "$" where index + 1 < source.count && source[index + 1] == "'":
                index += 2
                inWord = true
                var closed = false
                while index < source.count {
                    let inner = source[index]
                    if inner == "'" {
                        closed = true
                        index += 1
                        break
                    }
                    if inner == "\\", index + 1 < source.count {
                        let (decoded, length) = ansiEscape(source, at: index + 1)
                        word += decoded
                        index += 1 + length
                        continue
                    }
                    word.unicodeScalars.append(inner)
                    index += 1
                }
                guard closed else { throw CommandError(.parse, .unterminatedQuote(kind: "$'…'"), column: column()) }
            case "$" where index + 1 < source.count && source[index + 1] == "(":
                throw CommandError(
                    .parse, "command substitution is not taken", column: column(), hint: "paste its output instead")
            case "`":
                throw CommandError(
                    .parse, "command substitution is not taken", column: column(), hint: "paste its output instead")
            case "|":
                throw CommandError(
                    .parse, "a pipe is not taken: Fathom runs one curl command", column: column(),
                    hint: "remove the part after '|'")
            case ";", "&":
                throw CommandError(
                    .parse, "a second command is not taken: Fathom runs one curl command", column: column(),
                    hint: "paste one command at a time")
            case "<", ">":
                throw CommandError(
                    .parse, "a redirection is not taken", column: column(), hint: "use -d @FILE for a body from a file")
            case "#" where !inWord:
                // A comment to the end of the line.
                while index < source.count, source[index] != "\n" { index += 1 }
            default:
                if character == "$", let name = variableName(source, at: index) { variables.append(name) }
                word.unicodeScalars.append(character)
                inWord = true
                index += 1
            }
        }
        finish()
        return Result(words: words, variables: variables)
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    /// `NAME` of `$NAME` or `${NAME}` at `index`.
    private static func variableName(_ source: [Unicode.Scalar], at index: Int) -> String? {
        var position = index + 1
        if position < source.count, source[position] == "{" { position += 1 }
        var name = ""
        while position < source.count,
            source[position].properties.isAlphabetic || ("0"..."9").contains(source[position])
                || source[position] == "_"
        {
            name.unicodeScalars.append(source[position])
            position += 1
        }
        return name.isEmpty ? nil : name
    }

    /// A `$'…'` escape after its backslash: the text and how many characters it took.
    static func ansiEscape(_ source: [Unicode.Scalar], at index: Int) -> (String, Int) {
        let character = source[index]
        switch character {
        case "n": return ("\n", 1)
        case "t": return ("\t", 1)
        case "r": return ("\r", 1)
        case "a": return ("\u{07}", 1)
        case "b": return ("\u{08}", 1)
        case "e", "E": return ("\u{1B}", 1)
        case "f": return ("\u{0C}", 1)
        case "v": return ("\u{0B}", 1)
        case "x", "u", "U":
            let most = character == "x" ? 2 : character == "u" ? 4 : 8
            var digits = ""
            var position = index + 1
            while digits.count < most, position < source.count, source[position].isASCII,
                Character(source[position]).isHexDigit
            {
                digits.unicodeScalars.append(source[position])
                position += 1
            }
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
                return ("\\" + String(character), 1)
            }
            return (String(scalar), 1 + digits.count)
        case "0"..."7":
            var digits = ""
            var position = index
            while digits.count < 3, position < source.count, ("0"..."7").contains(source[position]) {
                digits.unicodeScalars.append(source[position])
                position += 1
            }
            let value = UInt32(digits, radix: 8) ?? 0
            return (Unicode.Scalar(value).map { String($0) } ?? "", digits.count)
        default: return (String(character), 1)
        }
    }

    /// Chrome's "Copy as cURL (cmd)": `^"` quotes and `^` line continuations.
    private static func isWindowsForm(_ source: [Unicode.Scalar]) -> Bool {
        for (index, character) in source.enumerated() where character == "^" {
            guard index + 1 < source.count else { return true }
            if source[index + 1] == "\"" || source[index + 1] == "\n" || source[index + 1] == "\r" { return true }
        }
        return false
    }

    /// `cmd`'s escapes undone (`^X` is X, `^` and a line break continue the line), and its
    /// quoting made bash's: `"` quotes, `\"` inside is a quote.
    private static func unescapeWindows(_ source: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        var index = 0
        while index < source.count {
            let character = source[index]
            if character == "^", index + 1 < source.count {
                let next = source[index + 1]
                if next == "\r" || next == "\n" {
                    index += next == "\r" && index + 2 < source.count && source[index + 2] == "\n" ? 3 : 2
                    continue
                }
                // `^\^"` is `\"`, a quote inside quotes for curl's own argument parser: bash reads it so too.
                result.append(next)
                if next == "$" || next == "`" { result.insert("\\", at: result.count - 1) }
                index += 2
                continue
            }
            result.append(character)
            index += 1
        }
        return result
    }
}
