/// `inspect [#N|@ID] EXPR [--paths]`: RFC 9535 JSONPath over a response body.
struct InspectCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "inspect", synopsis: "inspect [#N|@ID] EXPR [--paths]",
        summary: "RFC 9535 JSONPath (or `.a.b[0]` shorthand) over a response body, the last by default",
        details: """
            `--paths` prints each match's normalized path too. Quote an expression that has blanks. `@ID` \
            reads a response the archive kept, from this session or an earlier one (`responses --all`).
            """,
        completion: .none, group: .responses)

    var response: ResponseReference?
    var expression: String
    var paths: Bool

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var number: ResponseReference?
        var paths = false
        var expression: Word?
        for word in try arguments.words() {
            if word.text == "--paths", !word.quoted, !paths {
                paths = true
            } else if let n = try CommandParser.responseReference(word) {
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
        if let response { writer.raw(response.description) }
        writer.word(expression, literal: true)
        if paths { writer.raw("--paths") }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let (read, nodes) = try executor.query(expression, reference: response)
        return .shows(
            .inspection(
                Inspection(
                    number: read.number, archived: read.archived, expression: expression, nodes: nodes,
                    showPaths: paths)))
    }
}
