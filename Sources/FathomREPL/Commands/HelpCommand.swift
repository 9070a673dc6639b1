@_spi(Fathom) import FathomJSON

/// `help [COMMAND]`: the commands by group, or one explained.
struct HelpCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "help", aliases: ["?"], synopsis: "help [COMMAND]", summary: "list commands, or explain one",
        completion: .commands, group: .other)

    /// The command's name; `nil` lists them all.
    var topic: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let topic = try arguments.optionalWord()
        try arguments.end()
        guard let topic else { return HelpCommand(topic: nil) }
        guard let spec = CommandRegistry.spec(named: topic.text) else {
            throw CommandError(
                .parse,
                .notFound(
                    kind: "command", name: topic.text,
                    suggestion: Spelling.closest(to: topic.text, among: CommandRegistry.names)),
                column: topic.column, hint: "type `help` for the list")
        }
        return HelpCommand(topic: spec.name)
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String { "help" + (topic.map { " " + Quoting.word($0, literal: true) } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        .shows(.help(topic.flatMap(CommandRegistry.spec(named:))))
    }
}
