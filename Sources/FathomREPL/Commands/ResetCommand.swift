/// `reset`: a fresh draft.
struct ResetCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "reset", synopsis: "reset", summary: "clear the draft (method, path, query, headers, body, auth)",
        completion: .none, group: .draft)

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        try arguments.end()
        return ResetCommand()
    }

    var logKind: SessionLog.Kind? { .draft }

    var line: String { "reset" }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        executor.session.draft = Draft()
        return .done
    }
}
