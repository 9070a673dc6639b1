/// `query [name=value | name | -name]…`: the draft's query items.
struct QueryCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "query", synopsis: "query [name=value | name | -name]…",
        summary: "add query items; `-name` removes; bare `query` lists", completion: .variables, group: .draft)

    /// Empty lists the items.
    var edits: [QueryEdit]

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        QueryCommand(edits: try arguments.words().map(CommandParser.queryEdit))
    }

    var logKind: SessionLog.Kind? { edits.isEmpty ? nil : .draft }

    var line: String {
        var writer = LineWriter("query")
        for edit in edits { writer.raw(edit.word) }
        return writer.text
    }

    func credentialName(for value: String) -> String? {
        edits.lazy.compactMap { edit -> String? in
            guard case .add(let name, let given?) = edit, given.contains(value) else { return nil }
            return name
        }.first
    }

    /// A removal of an item that is not there is refused before any edit applies.
    var changesOnlyWhenItSucceeds: Bool { true }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard !edits.isEmpty else {
            let items = executor.session.draft.query.map { Listing.Item(name: $0.name, value: $0.value) }
            return .shows(.listing(Listing(kind: .query, items: items)))
        }
        for case .remove(let name) in edits where !executor.session.draft.query.contains(where: { $0.name == name }) {
            throw CommandError(.session, "no query item '\(name)' to remove")
        }
        for edit in edits { executor.session.draft.apply(edit) }
        return .done
    }
}

extension QueryEdit {
    /// The edit as one word of `query` or `default query`: `name=value`, `name`, `-name`.
    var word: String {
        switch self {
        case .remove(let name): "-" + Quoting.word(name)
        case .add(let name, nil): Quoting.word(name, literal: true)
        case .add(let name, let value?): Quoting.word("\(name)=\(value)", literal: true)
        }
    }
}
