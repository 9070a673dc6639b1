@_spi(Fathom) import FathomHTTP

/// `timeout [10s|500ms|off]`: the longest a whole request may take.
struct TimeoutCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "timeout", synopsis: "timeout [10s|500ms|off]", summary: "the longest a whole request may take",
        completion: .words(["off"]), group: .client)

    var setting: Setting<Duration>

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        TimeoutCommand(
            setting: try arguments.setting { word throws(CommandError) in
                let duration = try DurationText.parse(word, hint: "write 10s, 500ms or 2m")
                guard duration > .zero else {
                    throw CommandError(
                        .parse, .invalid(kind: "duration", value: word.text), column: word.column,
                        hint: "write 10s, 500ms or 2m")
                }
                return duration
            })
    }

    var logKind: SessionLog.Kind? { setting == .show ? nil : .setting }

    var line: String {
        switch setting {
        case .show: "timeout"
        case .off: "timeout off"
        case .set(let duration): "timeout " + DurationText.word(duration)
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch setting {
        case .show:
            return .shows(.setting(SettingShown(name: "timeout", value: .duration(executor.session.settings.timeout))))
        case .set(let duration): executor.session.settings.timeout = duration
        case .off: executor.session.settings.timeout = nil
        }
        return .done
    }
}
