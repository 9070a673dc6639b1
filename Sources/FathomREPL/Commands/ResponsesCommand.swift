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
        let history = executor.record.responses
        // Responses and the other exchanges (batches, WebSocket conversations), in number order.
        let responses = history.entries.map { entry in
            (
                entry.number,
                Listing.Item(name: "#\(entry.number)", value: executor.shownPath(entry.response.url), response: entry)
            )
        }
        let exchanges = history.exchanges.map { entry in
            (
                entry.number,
                Listing.Item(name: "#\(entry.number)", value: executor.redactor.redact(entry.exchange.listed))
            )
        }
        let items = (responses + exchanges).sorted { $0.0 < $1.0 }.map(\.1)
        return .shows(.listing(Listing(kind: .responses, items: items)))
    }
}
