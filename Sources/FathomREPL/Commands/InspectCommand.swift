/// `inspect [#N] EXPR [--paths]`: RFC 9535 JSONPath over a response body.
struct InspectCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "inspect", synopsis: "inspect [#N] EXPR [--paths]",
        summary: "RFC 9535 JSONPath (or `.a.b[0]` shorthand) over a response body, the last by default",
        details: "`--paths` prints each match's normalized path too. Quote an expression that has blanks.",
        completion: .none, group: .responses)

    var response: Int?
    var expression: String
    var paths: Bool

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var number: Int?
        var paths = false
        var expression: Word?
        for word in try arguments.words() {
            if word.text == "--paths", !word.quoted, !paths {
                paths = true
            } else if let n = try CommandParser.responseNumber(word) {
                number = n
            } else if expression == nil {
                expression = word
            } else {
                throw CommandError(
                    .parse, .unexpected(word: word.text), column: word.column,
                    hint: "quote an expression that has blanks: inspect '$[?@.age > 30]'")
            }
        }
        guard let expression else {
            throw CommandError(.parse, .missing("a JSONPath"), column: arguments.column, hint: arguments.usage)
        }
        try CommandParser.checkPath(expression)
        return InspectCommand(response: number, expression: expression.text, paths: paths)
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String {
        var writer = LineWriter("inspect")
        if let response { writer.raw("#\(response)") }
        writer.word(expression, literal: true)
        if paths { writer.raw("--paths") }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let (number, nodes) = try executor.query(expression, number: response)
        return .shows(.inspection(Inspection(number: number, expression: expression, nodes: nodes, showPaths: paths)))
    }
}
