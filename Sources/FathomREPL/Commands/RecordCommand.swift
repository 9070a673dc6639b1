/// `record [on|off]`: keep responses so that `save` writes them as a recording.
struct RecordCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "record", synopsis: "record [on|off]",
        summary: "record responses for `save`, so `fathom replay --compare` can check them",
        completion: .words(["on", "off"]), group: .files)

    /// `nil` shows the setting.
    var on: Bool?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        RecordCommand(on: try arguments.optionalSwitch())
    }

    /// What `save` writes beside the file, not what a replay does: not saved.
    var logKind: SessionLog.Kind? { nil }

    var line: String { "record" + (on.map { $0 ? " on" : " off" } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let on else {
            return .shows(.setting(SettingShown(name: "record", value: .toggle(executor.session.recording))))
        }
        executor.session.recording = on
        guard on else { return .done }
        return .shows(.event(.recordingOn))
    }
}
