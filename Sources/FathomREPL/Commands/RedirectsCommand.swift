/// `redirects [N|off]`: how many redirects to follow.
struct RedirectsCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "redirects", synopsis: "redirects [N|off]", summary: "how many redirects to follow (5 by default)",
        completion: .words(["off"]), group: .client)

    var setting: Setting<Int>

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        RedirectsCommand(
            setting: try arguments.setting { word throws(CommandError) in
                guard let count = Int(word.text), count >= 0 else {
                    throw CommandError(
                        .parse, .invalid(kind: "redirect count", value: word.text), column: word.column,
                        hint: "write a number or off")
                }
                return count
            })
    }

    var logKind: SessionLog.Kind? { setting == .show ? nil : .setting }

    var line: String {
        switch setting {
        case .show: "redirects"
        case .off: "redirects off"
        case .set(let count): "redirects \(count)"
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch setting {
        case .show:
            return .shows(
                .setting(SettingShown(name: "redirects", value: .count(executor.session.settings.redirectLimit))))
        case .set(let limit): executor.session.settings.redirectLimit = limit
        case .off: executor.session.settings.redirectLimit = nil
        }
        return .done
    }
}
