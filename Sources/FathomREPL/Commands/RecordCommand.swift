/// `record [on|off]`: keep responses so that `save` writes them as a recording.
struct RecordCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "record", synopsis: "record [on|off]",
        summary: "record responses for `save`, so `fathom replay --compare` can check them",
        completion: .words(["on", "off"]), group: .files)

    /// `nil` shows the setting.
    var on: Bool?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        RecordCommand(on: try arguments.optionalSwitch())
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let on else {
            return .shows(.value(name: "record", value: "record \(executor.session.recording ? "on" : "off")"))
        }
        executor.session.recording = on
        guard on else { return .done }
        return .shows(.notice(.aside("recording: responses from now on are written beside the file by `save FILE`")))
    }
}
