/// `validate [warn|strict|off]`: how requests are checked against the loaded description.
struct ValidateCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "validate", synopsis: "validate [warn|strict|off]",
        summary: "check requests against the description: warn (the default), strict refuses to send, off",
        details: """
            Missing required parameters or body fields, an unknown query parameter, a value outside its enum or \
            of the wrong type, a body its schema rejects. `off` also stops checking responses.
            """,
        completion: .words(ValidationMode.allCases.map(\.rawValue)), group: .api)

    /// `nil` shows the mode.
    var mode: ValidationMode?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        ValidateCommand(mode: try arguments.optionalChoice(ValidationMode.self))
    }

    var logKind: SessionLog.Kind? { mode == nil ? nil : .setting }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let mode else { return .shows(.value(name: "validate", value: executor.session.validation.rawValue)) }
        executor.session.validation = mode
        return .done
    }
}
