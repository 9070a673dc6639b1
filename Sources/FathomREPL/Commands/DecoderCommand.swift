/// `decoder [auto|json|text|hex|raw]`: how response bodies are shown.
struct DecoderCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "decoder", synopsis: "decoder [auto|json|text|hex|raw]", summary: "how response bodies are shown",
        completion: .words(DecoderMode.allCases.map(\.rawValue)), group: .client)

    /// `nil` shows the mode.
    var mode: DecoderMode?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        DecoderCommand(mode: try arguments.optionalChoice(DecoderMode.self))
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let mode else {
            return .shows(.value(name: "decoder", value: executor.session.settings.decoder.rawValue))
        }
        executor.session.settings.decoder = mode
        return .done
    }
}
