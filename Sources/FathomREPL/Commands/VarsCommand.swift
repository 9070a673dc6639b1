/// `vars`: the variables, secrets masked.
struct VarsCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "vars", synopsis: "vars", summary: "list variables (secrets masked)", completion: .none, group: .session)

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        try arguments.end()
        return VarsCommand()
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String { "vars" }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let variables = executor.session.variables
        let items = variables.names.map { name in
            Listing.Item(name: name, value: executor.shown.value(of: name), marked: variables.isSecret(name))
        }
        return .shows(.listing(Listing(kind: .variables, items: items)))
    }
}
