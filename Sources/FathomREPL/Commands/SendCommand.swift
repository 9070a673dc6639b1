/// `send`: sends the draft.
struct SendCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "send", synopsis: "send", summary: "send the draft and show the response", completion: .none,
        group: .draft)

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        try arguments.end()
        return SendCommand()
    }

    var logKind: SessionLog.Kind? { .request }

    var line: String { "send" }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        try await executor.send(try executor.prepare(executor.session.draft))
    }
}
