/// `history`: the lines entered at the prompt, secrets masked.
struct HistoryCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "history", synopsis: "history", summary: "the lines entered (secrets masked)", completion: .none,
        group: .other)

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        try arguments.end()
        return HistoryCommand()
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String { "history" }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let items = executor.options.history.all.enumerated().map {
            Listing.Item(name: "\($0.offset + 1)", value: $0.element)
        }
        return .shows(.listing(Listing(kind: .history, items: items)))
    }
}
