/// `exit`: leaves the session (Ctrl-D does too).
struct ExitCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "exit", aliases: ["quit"], synopsis: "exit", summary: "leave (Ctrl-D too)", completion: .none,
        group: .other)

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        try arguments.end()
        return ExitCommand()
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String { "exit" }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        CommandResult(.exit)
    }
}
