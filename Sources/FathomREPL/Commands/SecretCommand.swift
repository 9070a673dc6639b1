/// `secret NAME [= VALUE]`: a variable whose value is masked everywhere and never written to disk.
struct SecretCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "secret", synopsis: "secret NAME [= VALUE]",
        summary: "a variable whose value is masked everywhere and never written to disk",
        details: "The value comes from FATHOM_SECRET_<NAME>, a `.env` file, or a prompt without echo.",
        completion: .variables, group: .session)

    var name: String
    /// As written; `nil` looks the value up (or asks for it).
    var value: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let name = try arguments.word("a secret's name")
        try CommandParser.checkVariableName(name)
        if arguments.isEmpty { return SecretCommand(name: name.text, value: nil) }
        return SecretCommand(name: name.text, value: try arguments.afterEquals())
    }

    var logKind: SessionLog.Kind? { .setting }

    var secretAskedFor: String? { value == nil ? name : nil }

    var line: String { "secret \(name)" + (value.map { " = " + SetCommand.value($0) } ?? "") }

    /// The value stays in memory; a saved session asks for it by name.
    func logged(in executor: isolated Executor) -> any Command { SecretCommand(name: name, value: nil) }

    func credentialName(for value: String) -> String? { name }

    var declaredSecrets: [String] { value.map { Variables.hasReference($0) ? [] : [$0] } ?? [] }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let resolved: String
        if let value {
            resolved = try executor.session.variables.expand(value)
        } else if let existing = executor.session.variables[name] {
            // Already given (`set`, `replay --var`): from now on it is a secret.
            resolved = existing
        } else {
            resolved = try await executor.secretValue(name)
        }
        executor.redactor.addSecret(resolved)
        executor.session.variables.set(name, resolved, secret: true)
        return .done
    }
}
