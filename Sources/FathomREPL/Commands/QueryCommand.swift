/// `query [name=value | name | -name]…`: the draft's query items.
struct QueryCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "query", synopsis: "query [name=value | name | -name]…",
        summary: "add query items; `-name` removes; bare `query` lists", completion: .variables, group: .draft)

    /// Empty lists the items.
    var edits: [QueryEdit]

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        QueryCommand(edits: try arguments.words().map(CommandParser.queryEdit))
    }

    var logKind: SessionLog.Kind? { edits.isEmpty ? nil : .draft }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard !edits.isEmpty else {
            let items = executor.session.draft.query.map { Listing.Item(name: $0.name, value: $0.value) }
            return .shows(.listing(Listing(kind: .query, items: items, empty: "no query items")))
        }
        for case .remove(let name) in edits where !executor.session.draft.query.contains(where: { $0.name == name }) {
            throw CommandError("no query item '\(name)' to remove")
        }
        for edit in edits { executor.session.draft.apply(edit) }
        return .done
    }
}
