/// `cd SEGMENT | cd .. | cd /`: moves the draft's path like a directory.
struct CdCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "cd", synopsis: "cd SEGMENT | cd .. | cd /", summary: "move the draft's path like a directory",
        completion: .paths, group: .draft)

    var argument: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        CdCommand(argument: try arguments.optionalWord()?.text ?? "/")
    }

    var logKind: SessionLog.Kind? { .draft }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        executor.session.draft.cd(argument)
        return .done
    }
}
