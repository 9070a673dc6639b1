/// `header [Name: value | -Name]`: the draft's headers.
struct HeaderCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "header", synopsis: "header [Name: value | -Name]",
        summary: "set a draft header; `-Name` removes; bare `header` lists", completion: .headers, group: .draft)

    /// Empty lists the headers.
    var edits: [HeaderEdit]

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        if arguments.isEmpty { return HeaderCommand(edits: []) }
        if arguments.raw.hasPrefix("-") {
            return HeaderCommand(edits: try arguments.words().map { .remove(String($0.text.dropFirst())) })
        }
        return HeaderCommand(edits: [try CommandParser.headerSet(arguments.raw, column: arguments.column)])
    }

    var logKind: SessionLog.Kind? { edits.isEmpty ? nil : .draft }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard !edits.isEmpty else {
            let items = executor.session.draft.headers.map {
                Listing.Item(name: $0.name, value: executor.shownHeaderValue($0))
            }
            return .shows(.listing(Listing(kind: .headers, items: items, empty: "no draft headers")))
        }
        for edit in edits {
            if case .set(let name, let value) = edit { executor.registerIfSecret(header: name, value: value) }
            executor.session.draft.apply(edit)
        }
        return .done
    }
}
