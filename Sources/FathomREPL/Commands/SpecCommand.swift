import FathomOpenAPI

/// `spec [FILE|URL | coverage | off]`: loads an OpenAPI description (3.0 or 3.1, JSON or YAML)
/// that `ls`, `describe`, `op`, completion and the checks of every request and response read.
struct SpecCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "spec", synopsis: "spec [--remote] [--max-documents N] [FILE|URL | coverage | problems | off]",
        summary: "load an OpenAPI description; bare says what is loaded, `coverage` what was called",
        details: """
            OpenAPI 3.0 and 3.1, JSON or YAML. The base URL comes from its servers when none is set. Every \
            request is then checked before it goes (`validate`), every response against its operation's schema \
            (`schema ✓` or `schema ✗ N` on the status line), and `ls`, `describe`, `op` and Tab know the API. \
            `spec coverage` lists the operations called and not yet, with the statuses seen and declared. \
            The description belongs to the base's API: requests to another origin are not checked by it. \
            A description loads as soon as it can be read; OpenAPIKit's structure check runs after, and what \
            it finds is one notice — `spec problems` lists every problem in the document's order, and \
            `validate strict` refuses the operations they touch. (`--lenient` is still taken, and changes nothing.) \
            A description read from a file causes no network traffic: a `$ref` in it to an http(s) URL is an \
            error unless `spec --remote FILE` allows remote documents (only where a schema, parameter or \
            other part of the API is expected; example data is never fetched). A description from a URL may \
            name others on the web; the session's credentials go only to its own server. A split description may \
            bring in 10,000 documents (small ones, as DigitalOcean's are, take about 8 KB of memory each); \
            `--max-documents N` \
            sets another bound.
            """,
        completion: .wordsOrFiles(["coverage", "problems", "off", "--remote", "--max-documents"]), group: .api)

    enum Action: Equatable {
        case show
        case load(String, LoadOptions = LoadOptions())
        case coverage
        case problems
        case unload
    }

    /// How a description is read: `--lenient` (taken, changes nothing), `--remote` (a file's
    /// `$ref`s may name URLs), `--max-documents N`.
    struct LoadOptions: Equatable, Sendable {
        var lenient = false
        var remote = false
        var maxDocuments: Int?
    }

    var action: Action

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard var word = try arguments.optionalWord() else { return SpecCommand(action: .show) }
        var options = LoadOptions()
        while !word.quoted, word.text.hasPrefix("--") {
            switch word.text {
            case "--lenient": options.lenient = true
            case "--remote": options.remote = true
            case "--max-documents":
                let count = try arguments.word("a number of documents")
                guard let limit = Int(count.text), limit > 0 else {
                    throw CommandError(.session, "--max-documents takes a positive number, not '\(count.text)'")
                }
                options.maxDocuments = limit
            default:
                throw CommandError(
                    .parse, .unknown(kind: "spec option", word: word.text, suggestion: nil), column: word.column,
                    hint: "spec [--remote] [--max-documents N] FILE|URL")
            }
            word = try arguments.word("a description's file or URL")
        }
        try arguments.end()
        switch (word.quoted ? "" : word.text, options == LoadOptions()) {
        case ("coverage", true): return SpecCommand(action: .coverage)
        case ("problems", true): return SpecCommand(action: .problems)
        case ("off", true): return SpecCommand(action: .unload)
        default: return SpecCommand(action: .load(word.text, options))
        }
    }

    var filesRead: [String] {
        guard case .load(let source, _) = action, !source.contains("://") else { return [] }
        return [source]
    }

    var logKind: SessionLog.Kind? {
        switch action {
        case .load, .unload: .setting
        case .show, .coverage, .problems: nil
        }
    }

    var line: String {
        switch action {
        case .show: "spec"
        case .coverage: "spec coverage"
        case .problems: "spec problems"
        case .unload: "spec off"
        case .load(let source, let options):
            "spec " + (options.lenient ? "--lenient " : "") + (options.remote ? "--remote " : "")
                + (options.maxDocuments.map { "--max-documents \($0) " } ?? "")
                + (["coverage", "problems", "off"].contains(source)
                    ? "'\(source)'" : Quoting.word(source, literal: true))
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch action {
        case .show:
            return .shows(.event(.specShown((try? executor.requireSpec()).map(SpecSummary.init))))
        case .load(let given, let options):
            let source = try executor.session.variables.expand(given)
            let (loaded, server) = try await executor.loadSpec(source, options: options)
            var baseFromServers: String?
            if executor.session.current == nil, let server {
                // No base yet: the description's first server names the API it belongs to, until
                // the person sets a base of their own (a mock, a dev server), which moves it.
                try executor.useBase(server)
                executor.session.currentAPI?.baseFromDescription = true
                baseFromServers = server
            }
            if executor.session.current == nil {
                executor.session.givenSpec = loaded
            } else {
                executor.session.currentAPI?.spec = loaded
            }
            return .shows(.event(.specLoaded(SpecSummary(loaded), baseFromServers: baseFromServers)))
        case .unload:
            executor.session.currentAPI?.spec = nil
            executor.session.givenSpec = nil
            return .done
        case .coverage:
            let loaded = try executor.requireSpec()
            return .shows(.listing(Self.coverage(loaded, calls: executor.record.coverage[loaded.id] ?? [:])))
        case .problems:
            // The check may still run: its answer, not a guess.
            await executor.finishStructureChecks()
            // Listed here whole: the notice would only say it again.
            _ = executor.takeNotices()
            let loaded = try executor.requireSpec()
            let items = (executor.record.findings[loaded.id]?.problems ?? []).map {
                Listing.Item(name: $0.place.isEmpty ? "(document)" : $0.place, value: $0.message)
            }
            return .shows(.listing(Listing(kind: .problems, items: items, source: loaded.source)))
        }
    }

    /// Every operation, called or not, with the statuses seen beside those declared.
    static func coverage(_ loaded: LoadedSpec, calls: [String: Set<Int>]) -> Listing {
        let items = loaded.description.operations.map { operation in
            let seen = (calls[operation.title] ?? []).sorted().map { String($0) }
            let declared = operation.responses.map(\.status)
            return Listing.Item(
                name: operation.title, value: seen.isEmpty ? nil : seen.joined(separator: ", "),
                detail: declared.joined(separator: ", "), marked: !seen.isEmpty)
        }
        return Listing(kind: .coverage, items: items)
    }
}

extension SpecSummary {
    init(_ loaded: LoadedSpec) {
        let description = loaded.description
        self.init(
            title: description.title, version: description.version, openAPIVersion: description.openAPIVersion,
            source: loaded.source, documents: description.documents.count, operations: description.operations.count,
            paths: description.paths.count)
    }
}
