/// `validate [--default] [warn|strict|off]`: how requests to the base's API are checked against
/// its description, or (`--default`) the mode every API the session names afterwards starts with.
struct ValidateCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "validate", synopsis: "validate [--default] [warn|strict|off]",
        summary: "check requests against the description: warn (the default), strict refuses to send, off",
        details: """
            Missing required parameters or body fields, an unknown query parameter, a value outside its enum or \
            of the wrong type, a body its schema rejects. `off` also stops checking responses. The mode belongs \
            to the base's API, as its description does: requests to another origin are not checked. \
            `validate --default strict` sets the mode each API the session names from then on starts with (a \
            `validate` line in the config file sets that).
            """,
        completion: .words(["--default"] + ValidationMode.allCases.map(\.rawValue)), group: .api)

    /// `nil` shows the mode.
    var mode: ValidationMode?
    /// Whether the mode is the one new APIs start with, not the current API's.
    var asDefault = false

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var copy = arguments
        let asDefault = (try? copy.optionalWord()).flatMap { $0.map { !$0.quoted && $0.text == "--default" } } ?? false
        if asDefault {
            arguments = copy
            guard let mode = try arguments.optionalChoice(ValidationMode.self) else {
                throw CommandError(
                    .session, "validate --default needs a mode", hint: "validate --default warn|strict|off")
            }
            return ValidateCommand(mode: mode, asDefault: true)
        }
        return ValidateCommand(mode: try arguments.optionalChoice(ValidationMode.self))
    }

    var logKind: SessionLog.Kind? { mode == nil ? nil : .setting }

    var line: String { "validate" + (asDefault ? " --default" : "") + (mode.map { " " + $0.rawValue } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let mode else {
            let shown = executor.session.currentAPI?.validation ?? executor.session.settings.defaultValidation
            return .shows(.setting(SettingShown(name: "validate", value: .text(shown.rawValue))))
        }
        if asDefault {
            executor.session.settings.defaultValidation = mode
            return .done
        }
        let index = try executor.currentAPIIndex(for: "validate")
        executor.session.apis[index].validation = mode
        return .done
    }
}
