@_spi(Fathom) import FathomJSON

/// `unset NAME`: removes a variable.
struct UnsetCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "unset", synopsis: "unset NAME", summary: "remove a variable", completion: .variables, group: .session)

    var name: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        UnsetCommand(name: try arguments.single("a variable name").text)
    }

    var logKind: SessionLog.Kind? { .setting }

    var line: String { "unset " + Quoting.word(name) }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard executor.session.variables.remove(name) != nil else {
            throw CommandError(
                .session,
                .notFound(
                    kind: "variable", name: name,
                    suggestion: Spelling.closest(to: name, among: executor.session.variables.names)))
        }
        return .done
    }
}
