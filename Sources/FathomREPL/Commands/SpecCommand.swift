import FathomOpenAPI

/// `spec [FILE|URL | coverage | off]`: loads an OpenAPI description (3.0 or 3.1, JSON or YAML)
/// that `ls`, `describe`, `op`, completion and the checks of every request and response read.
struct SpecCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "spec", synopsis: "spec [[--lenient] FILE|URL | coverage | off]",
        summary: "load an OpenAPI description; bare says what is loaded, `coverage` what was called",
        details: """
            OpenAPI 3.0 and 3.1, JSON or YAML. The base URL comes from its servers when none is set. Every \
            request is then checked before it goes (`validate`), every response against its operation's schema \
            (`schema ✓` or `schema ✗ N` on the status line), and `ls`, `describe`, `op` and Tab know the API. \
            `spec coverage` lists the operations called and not yet, with the statuses seen and declared. \
            `--lenient` skips OpenAPIKit's structure check, for a description it rejects that Fathom can read.
            """,
        completion: .wordsOrFiles(["coverage", "off"]), group: .api)

    enum Action: Equatable {
        case show
        case load(String, lenient: Bool)
        case coverage
        case unload
    }

    var action: Action

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard var word = try arguments.optionalWord() else { return SpecCommand(action: .show) }
        var lenient = false
        if word.text == "--lenient", !word.quoted {
            lenient = true
            word = try arguments.word("a description's file or URL")
        }
        try arguments.end()
        switch (word.text, lenient) {
        case ("coverage", false): return SpecCommand(action: .coverage)
        case ("off", false): return SpecCommand(action: .unload)
        default: return SpecCommand(action: .load(word.text, lenient: lenient))
        }
    }

    var logKind: SessionLog.Kind? {
        switch action {
        case .load, .unload: .setting
        case .show, .coverage: nil
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch action {
        case .show:
            guard let loaded = executor.session.spec else {
                return .shows(.notice(.aside("no description loaded — `spec FILE|URL`")))
            }
            return .shows(.notice(Notice(text: Self.summary(loaded.description, source: loaded.source))))
        case .load(let given, let lenient):
            let source = try executor.session.variables.expand(given)
            let (loaded, notes) = try await executor.loadSpec(source, lenient: lenient)
            executor.session.spec = loaded
            return CommandResult(
                .succeeded,
                [.notice(Notice(text: "loaded " + Self.summary(loaded.description, source: source)))]
                    + notes.map { .notice(.aside($0)) })
        case .unload:
            executor.session.spec = nil
            return .done
        case .coverage:
            return .shows(.listing(Self.coverage(try executor.requireSpec())))
        }
    }

    /// `Swagger Petstore 1.0.0 (OpenAPI 3.0.0, petstore.yaml): 3 operations on 2 paths`; a
    /// description split over files says how many more it read (`openapi.yaml and 4 documents it names`).
    static func summary(_ description: APIDescription, source: String) -> String {
        let operations = description.operations.count
        let paths = description.paths.count
        let others = description.documents.count
        let files = others == 0 ? source : "\(source) and \(others) document\(others == 1 ? "" : "s") it names"
        return "\(description.title) \(description.version) (OpenAPI \(description.openAPIVersion), \(files)): "
            + "\(operations) operation\(operations == 1 ? "" : "s") on \(paths) path\(paths == 1 ? "" : "s")"
    }

    /// Every operation, called or not, with the statuses seen beside those declared.
    static func coverage(_ loaded: LoadedSpec) -> Listing {
        let operations = loaded.description.operations
        let called = operations.filter { loaded.coverage[$0.title] != nil }.count
        let items = operations.map { operation in
            let seen = (loaded.coverage[operation.title] ?? []).sorted().map(String.init)
            let declared = operation.responses.map(\.status)
            return Listing.Item(
                name: operation.title, value: seen.isEmpty ? nil : seen.joined(separator: ", "),
                detail: "declared " + (declared.isEmpty ? "none" : declared.joined(separator: ", ")),
                marked: !seen.isEmpty)
        }
        return Listing(
            kind: .coverage, items: items, empty: "the description has no operations",
            footer: "\(called) of \(operations.count) operations called")
    }
}
