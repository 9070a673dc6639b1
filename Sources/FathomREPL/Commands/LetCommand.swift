@_spi(Fathom) import FathomHTTP
import FathomJSON

/// `let NAME = EXPR | header NAME | status [#N]`: a value from a response into a variable.
struct LetCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "let", synopsis: "let NAME = EXPR | header NAME | status [#N]",
        summary: "capture a value from a response (the last by default) into a variable",
        details: """
            A value from Authorization or Set-Cookie, or from a field named like token, password, \
            secret or key, is a secret: masked everywhere and never saved.
            """,
        completion: .variables, group: .responses)

    /// Where the value comes from.
    enum Source: Equatable, Sendable {
        /// A JSONPath (or `.a.b` shorthand) over the body.
        case value(String)
        case header(String)
        case status
    }

    var name: String
    var source: Source
    /// `nil` for the last response.
    var response: Int?

    var logKind: SessionLog.Kind? { .followUp }

    var readsLastResponse: Bool { true }

    var line: String {
        var writer = LineWriter("let")
        writer.word(name)
        writer.raw("=")
        switch source {
        case .status: writer.raw("status")
        case .header(let header):
            writer.raw("header")
            writer.word(header)
        case .value(let expression): writer.word(expression, literal: true)
        }
        if let response { writer.raw("#\(response)") }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if response == nil { try executor.checkLastRequestAnswered() }
        var secret = SecretNames.looksSecret(name)
        let value: String
        switch source {
        case .status:
            value = String(try executor.record.responses.entry(response).response.status.code)
        case .header(let header):
            let entry = try executor.record.responses.entry(response)
            let headerName = NetworkHeaders.Name(header)
            guard let found = entry.response.headers[headerName] else {
                throw CommandError(.session, "response #\(entry.number) has no \(header) header")
            }
            value = found
            secret = secret || executor.redactor.isSecretHeader(headerName)
        case .value(let expression):
            let (number, nodes) = try executor.query(expression, number: response)
            guard nodes.count == 1 else {
                throw CommandError(
                    .session,
                    nodes.isEmpty
                        ? "\(expression) matches nothing in #\(number)"
                        : "\(expression) matches \(nodes.count) values in #\(number)",
                    hint: nodes.isEmpty ? "look with `inspect \(expression)`" : "narrow it to one, e.g. with [0]")
            }
            let node = nodes[0]
            if case .name(let field)? = node.path.components.last, SecretNames.looksSecret(field) { secret = true }
            if case .string(let string) = node.value {
                value = string
            } else {
                value = String(node.value.formatted(.compactText).dropLast())
            }
        }
        secret = secret || executor.session.variables.isSecret(name)
        if secret { executor.redactor.addSecret(value) }
        executor.session.variables.set(name, value, secret: secret)
        return .shows(.capture(Capture(name: name, value: value, secret: secret)))
    }

    static func parse(_ a: inout Arguments) throws(CommandError) -> Self {
        var name = try a.word("a variable name")
        var words = try a.words()
        if let equals = name.text.firstIndex(of: "="), !name.quoted {
            // `let id=$.id`
            let after = String(name.text[name.text.index(after: equals)...])
            if !after.isEmpty {
                words.insert(
                    Word(after, column: name.column + name.text.distance(from: name.text.startIndex, to: equals) + 1),
                    at: 0)
            }
            name = Word(String(name.text[..<equals]), column: name.column)
        } else {
            guard let first = words.first, first.text == "=" || first.text.hasPrefix("=") else {
                throw CommandError(
                    .parse, "expected '=' after '\(name.text)'", column: words.first?.column ?? a.column,
                    hint: "let NAME = $.path")
            }
            if first.text == "=" {
                words.removeFirst()
            } else {
                words[0] = Word(String(first.text.dropFirst()), column: first.column + 1)
            }
        }
        try CommandParser.checkVariableName(name)
        var number: Int?
        if let last = words.last, let n = try CommandParser.responseNumber(last) {
            number = n
            words.removeLast()
        }
        guard let first = words.first else {
            throw CommandError(
                .parse, .missing("what to capture"), column: a.column, hint: "let NAME = $.path | header NAME | status")
        }
        let source: Source
        switch (first.text.lowercased(), first.quoted) {
        case ("status", false):
            guard words.count == 1 else {
                throw CommandError(.parse, .unexpected(word: words[1].text), column: words[1].column)
            }
            source = .status
        case ("header", false):
            guard words.count == 2 else {
                throw CommandError(
                    .parse, words.count < 2 ? "missing a header name" : "unexpected '\(words[2].text)'",
                    column: words.count < 2 ? first.column + first.text.count + 1 : words[2].column,
                    hint: "let NAME = header Location")
            }
            try CommandParser.checkHeaderName(words[1].text, column: words[1].column)
            source = .header(words[1].text)
        default:
            guard words.count == 1 else {
                throw CommandError(
                    .parse, .unexpected(word: words[1].text), column: words[1].column,
                    hint: "quote an expression that has blanks")
            }
            try CommandParser.checkPath(first)
            source = .value(first.text)
        }
        return LetCommand(name: name.text, source: source, response: number)
    }
}
