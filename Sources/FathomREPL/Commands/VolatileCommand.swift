/// `volatile [EXPR]`: a JSONPath left out when responses are compared.
struct VolatileCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "volatile", synopsis: "volatile [EXPR]",
        summary: "a JSONPath left out when responses are compared (timestamps, ids); bare lists them",
        completion: .none, group: .responses)

    /// `nil` lists them.
    var expression: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        if arguments.isEmpty { return VolatileCommand(expression: nil) }
        let word = try arguments.single("a JSONPath")
        try CommandParser.checkPath(word)
        return VolatileCommand(expression: word.text)
    }

    var logKind: SessionLog.Kind? { expression == nil ? nil : .setting }

    var line: String { "volatile" + (expression.map { " " + Quoting.word($0, literal: true) } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let expression else {
            let items = executor.session.volatile.map { Listing.Item(name: $0) }
            return .shows(.listing(Listing(kind: .volatile, items: items)))
        }
        if !executor.session.volatile.contains(expression) { executor.session.volatile.append(expression) }
        return .done
    }
}
