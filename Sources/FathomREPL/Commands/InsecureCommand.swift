/// `insecure [on|off]`: whether untrusted TLS certificates are accepted.
struct InsecureCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "insecure", synopsis: "insecure [on|off]", summary: "accept untrusted TLS certificates",
        completion: .words(["on", "off"]), group: .client)

    /// `nil` shows the setting.
    var on: Bool?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        InsecureCommand(on: try arguments.optionalSwitch())
    }

    var logKind: SessionLog.Kind? { on == nil ? nil : .setting }

    var line: String { "insecure" + (on.map { $0 ? " on" : " off" } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let on else {
            return .shows(.setting(SettingShown(name: "insecure", value: .toggle(executor.session.settings.insecure))))
        }
        executor.session.settings.insecure = on
        return .done
    }
}
