@_spi(Fathom) import FathomJSON

/// `reveal NAME`: one secret's value, unmasked, because it was asked for by name.
struct RevealCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "reveal", synopsis: "reveal NAME", summary: "print one secret's value, unmasked, when asked by name",
        completion: .variables, group: .session)

    var name: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        RevealCommand(name: try arguments.single("a secret's name").text)
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String { "reveal " + Quoting.word(name) }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let value = executor.session.variables[name] else {
            throw CommandError(
                .session,
                .notFound(
                    kind: "variable", name: name,
                    suggestion: Spelling.closest(to: name, among: executor.session.variables.names)))
        }
        return .shows(.revealed(name: name, value: value))
    }
}
