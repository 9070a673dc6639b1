/// `cd SEGMENT | cd .. | cd /`: moves the draft's path like a directory.
struct CdCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "cd", synopsis: "cd SEGMENT | cd .. | cd /", summary: "move the draft's path like a directory",
        completion: .paths, group: .draft)

    var argument: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let argument = try arguments.optionalWord()?.text ?? "/"
        try arguments.end()
        return CdCommand(argument: argument)
    }

    var logKind: SessionLog.Kind? { .draft }

    var line: String {
        var writer = LineWriter("cd")
        writer.word(argument)
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        executor.session.draft.cd(argument)
        return .done
    }
}
