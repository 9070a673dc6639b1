import FathomHTTP
@_spi(Fathom) import FathomJSON

/// Turns one (possibly multi-line) entry into a ``Command`` value: it finds the command by its
/// name in the ``CommandRegistry`` and lets the command's own type parse the rest. The readers
/// below are shared by the commands' parsers.
///
/// Errors carry the column where the line went wrong and, where one helps, a hint.
enum CommandParser {
    /// The entry's command; `nil` for a blank line or a comment.
    static func parse(_ line: String) throws(CommandError) -> (any Command)? {
        // By scalars, as the tokenizer reads: a combining mark never joins a blank to a word.
        let scalars = line.unicodeScalars
        let trimmed = scalars.drop { $0 == " " || $0 == "\t" }
        guard let first = trimmed.first, first != "#" else { return nil }
        let nameEnd = trimmed.firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" } ?? trimmed.endIndex
        let name = String(String.UnicodeScalarView(trimmed[..<nameEnd]))
        let nameColumn = scalars.distance(from: scalars.startIndex, to: trimmed.startIndex) + 1
        let afterName = trimmed[nameEnd...]
        let rest = afterName.drop { $0 == " " || $0 == "\t" }
        let restColumn =
            nameColumn + name.unicodeScalars.count + afterName.distance(from: afterName.startIndex, to: rest.startIndex)
        var arguments = Arguments(raw: Substring(rest), column: restColumn, command: name.lowercased())

        // A GraphQL operation (`{ … }`, `query Q { … }`, `mutation …`) is read whole, by its own rules.
        let entry = String(String.UnicodeScalarView(trimmed))
        if GraphQLText.startsOperation(entry) {
            return try GraphQLOperationCommand.parse(line: entry, column: nameColumn)
        }
        // Only the registry's names are commands: an unknown word is an error, never a request.
        guard let command = CommandRegistry.command(named: name) else {
            throw CommandError(
                .parse,
                .unknown(
                    kind: "command", word: name,
                    suggestion: Spelling.closest(to: name, among: CommandRegistry.names)),
                column: nameColumn, hint: "type `help` for the list")
        }
        return try command.type.parse(&arguments)
    }

    // MARK: - Pieces

    /// A method word: a well-known method in any case is that method (`post` is POST); any other
    /// token, or a quoted one, is sent as written, as methods are case-sensitive (`'POsT'` is
    /// what `curl -X POsT` sends).
    static func method(_ word: Word) throws(CommandError) -> HTTPMethod {
        let text = word.text
        guard isMethod(text) else {
            throw CommandError(
                .parse, .invalid(kind: "method", value: text), column: word.column, hint: "e.g. GET, POST, PUT")
        }
        let upper = text.uppercased()
        return HTTPMethod(rawValue: knownMethods.contains(upper) && !word.quoted ? upper : text)
    }

    /// A method as a line writes it: quoted when it is a well-known one in another case, which
    /// unquoted would read as the well-known one.
    static func methodWord(_ method: HTTPMethod) -> String {
        let text = method.rawValue
        let known = knownMethods.contains(text.uppercased()) && text != text.uppercased()
        return known ? "'\(text)'" : Quoting.word(text)
    }

    /// Whether `text` is a method a line can carry: letters and `-`.
    static func isMethod(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isLetter || $0 == "-" }
    }

    static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
    ]

    static func queryEdit(_ word: Word) throws(CommandError) -> QueryEdit {
        if word.text.hasPrefix("-"), !word.quoted {
            let name = String(word.text.dropFirst())
            guard !name.isEmpty else {
                throw CommandError(.parse, .missing("query name after '-'"), column: word.column)
            }
            return .remove(name)
        }
        guard let equals = word.text.firstIndex(of: "=") else { return .add(name: word.text, value: nil) }
        let name = String(word.text[..<equals])
        guard !name.isEmpty else {
            throw CommandError(.parse, .missing("query name before '='"), column: word.column, hint: "write name=value")
        }
        return .add(name: name, value: String(word.text[word.text.index(after: equals)...]))
    }

    static func headerSet(_ raw: Substring, column: Int) throws(CommandError) -> HeaderEdit {
        guard let colon = raw.firstIndex(of: ":") else {
            throw CommandError(
                .parse, "expected 'Name: value'", column: column, hint: "e.g. header Accept: application/json")
        }
        let name = raw[..<colon].trimmingBlanks
        try checkHeaderName(name, column: column)
        let value = raw[raw.index(after: colon)...].trimmingBlanks
        return .set(name: name, value: value)
    }

    static func checkHeaderName(_ name: String, column: Int) throws(CommandError) {
        guard !name.isEmpty else { throw CommandError(.parse, .missing("header name"), column: column) }
        let token = "!#$%&'*+-.^_`|~"
        if let bad = name.firstIndex(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || token.contains($0))) }) {
            throw CommandError(
                .parse, .stated("invalid character '\(name[bad])' in header name '\(name)'"),
                column: column + name.distance(from: name.startIndex, to: bad))
        }
    }

    static func checkVariableName(_ word: Word) throws(CommandError) {
        guard let first = word.text.first, first.isLetter || first == "_",
            word.text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." })
        else {
            throw CommandError(
                .parse, .invalid(kind: "variable name", value: word.text), column: word.column,
                hint: "use letters, digits, '_', '-' and '.', starting with a letter")
        }
    }

    /// `#3` as 3.
    static func responseNumber(_ word: Word) throws(CommandError) -> Int? {
        guard word.text.hasPrefix("#"), !word.quoted else { return nil }
        guard let number = Int(word.text.dropFirst()), number > 0 else {
            throw CommandError(
                .parse, .invalid(kind: "response number", value: word.text), column: word.column,
                hint: "write #1, #2, …")
        }
        return number
    }

    /// Compiles a JSONPath so that a bad one is reported where it is written, before anything runs.
    static func checkPath(_ word: Word) throws(CommandError) {
        do {
            _ = try JSONPath(word.text)
        } catch {
            throw CommandError(
                .parse, "invalid JSONPath: \(error.reason)", column: word.column + max(0, error.column - 1),
                hint: "e.g. $.items[0].name or .items[0].name")
        }
    }

    static func item(_ word: Word, allowed: [RequestItem.Kind]) throws(CommandError) -> RequestItem {
        guard let item = RequestItem(parsing: word.text), allowed.contains(item.kind) else {
            let forms = allowed.map(\.form).joined(separator: ", ")
            throw CommandError(
                .parse, .invalid(kind: "item", value: word.text), column: word.column, hint: "expected \(forms)")
        }
        if case .header(let name, _) = item { try checkHeaderName(name, column: word.column) }
        return item
    }

    static func unquote(_ text: String) -> String {
        if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
            return String(text.dropFirst().dropLast())
        }
        return text
    }
}

extension Substring {
    var trimmingBlanks: String {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(self[first...last])
    }
}
