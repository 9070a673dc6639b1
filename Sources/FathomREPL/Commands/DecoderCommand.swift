/// `decoder [auto|json|text|hex|raw]`: how response bodies are shown.
struct DecoderCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "decoder", synopsis: "decoder [auto|json|text|hex|raw]", summary: "how response bodies are shown",
        completion: .words(DecoderMode.allCases.map(\.rawValue)), group: .client)

    /// `nil` shows the mode.
    var mode: DecoderMode?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        DecoderCommand(mode: try arguments.optionalChoice(DecoderMode.self))
    }

    /// How this session shows bodies, not what it sends: not saved.
    var logKind: SessionLog.Kind? { nil }

    var line: String { "decoder" + (mode.map { " " + $0.rawValue } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let mode else {
            return .shows(
                .setting(SettingShown(name: "decoder", value: .text(executor.session.settings.decoder.rawValue))))
        }
        executor.session.settings.decoder = mode
        return .done
    }
}
