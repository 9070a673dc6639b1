/// `pager [auto|on|off]`: whether long output goes through `$PAGER`.
struct PagerCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "pager", synopsis: "pager [auto|on|off]", summary: "page bodies taller than the terminal through $PAGER",
        completion: .words(PagerMode.allCases.map(\.rawValue)), group: .client)

    /// `nil` shows the mode.
    var mode: PagerMode?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        PagerCommand(mode: try arguments.optionalChoice(PagerMode.self))
    }

    /// How this terminal pages, not what the session sends: not saved.
    var logKind: SessionLog.Kind? { nil }

    var line: String { "pager" + (mode.map { " " + $0.rawValue } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let mode else {
            return .shows(.setting(SettingShown(name: "pager", value: .text(executor.session.settings.pager.rawValue))))
        }
        executor.session.settings.pager = mode
        return .done
    }
}
