/// `responses`: the numbered response history.
struct ResponsesCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "responses", synopsis: "responses", summary: "the numbered response history: #1, #2, …",
        completion: .none, group: .responses)

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        try arguments.end()
        return ResponsesCommand()
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String { "responses" }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let items = executor.record.responses.entries.map { entry in
            Listing.Item(name: "#\(entry.number)", value: executor.shownPath(entry.response.url), response: entry)
        }
        return .shows(.listing(Listing(kind: .responses, items: items)))
    }
}
