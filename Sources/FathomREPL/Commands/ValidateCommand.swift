/// `validate [warn|strict|off]`: how requests to the base's API are checked against its description.
struct ValidateCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "validate", synopsis: "validate [warn|strict|off]",
        summary: "check requests against the description: warn (the default), strict refuses to send, off",
        details: """
            Missing required parameters or body fields, an unknown query parameter, a value outside its enum or \
            of the wrong type, a body its schema rejects. `off` also stops checking responses. The mode belongs \
            to the base's API, as its description does: requests to another origin are not checked.
            """,
        completion: .words(ValidationMode.allCases.map(\.rawValue)), group: .api)

    /// `nil` shows the mode.
    var mode: ValidationMode?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        ValidateCommand(mode: try arguments.optionalChoice(ValidationMode.self))
    }

    var logKind: SessionLog.Kind? { mode == nil ? nil : .setting }

    var line: String { "validate" + (mode.map { " " + $0.rawValue } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let mode else {
            let shown = executor.session.currentAPI?.validation ?? .warn
            return .shows(.setting(SettingShown(name: "validate", value: .text(shown.rawValue))))
        }
        let index = try executor.currentAPIIndex(for: "validate")
        executor.session.apis[index].validation = mode
        return .done
    }
}
