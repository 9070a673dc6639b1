/// `header [Name: value | -Name]`: the draft's headers.
struct HeaderCommand: SingleCommand {
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

    var line: String {
        var writer = LineWriter("header")
        for edit in edits { writer.raw(edit.text) }
        return writer.text
    }

    func credentialName(for value: String) -> String? { edits.credentialName(for: value) }

    /// Every edit applies: nothing to undo.
    var changesOnlyWhenItSucceeds: Bool { true }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard !edits.isEmpty else {
            let items = executor.session.draft.headers.map {
                Listing.Item(name: $0.name, value: executor.shown.headerValue($0))
            }
            return .shows(.listing(Listing(kind: .headers, items: items)))
        }
        for edit in edits {
            if case .set(let name, let value) = edit { executor.registerIfSecret(header: name, value: value) }
            executor.session.draft.apply(edit)
        }
        return .done
    }
}

extension HeaderEdit {
    /// The edit as `header` and `default header` write it: `Name: value` (read raw) or `-Name`.
    var text: String {
        switch self {
        case .set(let name, let value): "\(name): \(value)"
        case .remove(let name): "-" + Quoting.word(name)
        }
    }
}

extension [HeaderEdit] {
    /// A header that holds `value` names the credential: `Authorization` → `authorization`.
    func credentialName(for value: String) -> String? {
        lazy.compactMap { edit -> String? in
            guard case .set(let name, let given) = edit, given.contains(value) else { return nil }
            return SecretNames.variableName(name)
        }.first
    }
}
