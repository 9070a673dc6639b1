@_spi(Fathom) import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

extension Executor {
    /// Loads a description from a file or an http(s) URL, and says which absolute URL its first
    /// server gives (the base for a session that has none).
    ///
    /// The description loads as soon as Fathom's own index is built; OpenAPIKit's structure check
    /// (most of a large description's load) runs after, off the line (``startStructureCheck(_:)``),
    /// and its findings come as a notice and in `spec problems`. `lenient` is accepted as it was
    /// (`spec --lenient`), and changes nothing now: no description is refused for its structure.
    /// - Parameters:
    ///   - options: `remote` lets a description read from a file read the http(s) documents its
    ///     `$ref`s name (`spec --remote`; without it, a file causes no network traffic);
    ///     `maxDocuments` bounds how many documents it brings in.
    ///   - checked: Starts the structure check in this session (a replay checks the description
    ///     it gives every file once, itself).
    func loadSpec(
        _ source: String, options: SpecCommand.LoadOptions = .init(), checked: Bool = true
    ) async throws -> (
        LoadedSpec, server: String?
    ) {
        let fromServer = source.hasPrefix("http://") || source.hasPrefix("https://")
        // A key in the URL is masked in what follows (notices, errors) and saved by name.
        if fromServer { registerSecrets(inQueryOf: source) }
        // A description on an API's origin is read with that API's client (behind its own
        // credentials); the documents its `$ref`s name get them only on that origin.
        let loader = DescriptionLoader(
            client: try await client(for: fromServer ? scope(ofURL: source) : nil),
            anonymous: try await client(for: nil))
        let (loaded, server) = try await loader.load(
            source, at: fromServer ? source : resolvePath(source), options: options)
        if checked { startStructureCheck(loaded) }
        return (loaded, server)
    }

    // MARK: - The structure check, off the line

    /// Runs OpenAPIKit's structure check of `loaded` on another thread; its findings reach the
    /// session (and a notice) when they are ready, whatever the session does meanwhile.
    func startStructureCheck(_ loaded: LoadedSpec) {
        let description = loaded.description
        structureChecks[loaded.id] = Task.detached(priority: .utility) {
            let problems = description.structureProblems()
            return (problems, description.operations(touchedBy: problems))
        }
        Task { await self.finishStructureCheck(loaded.id) }
    }

    /// Waits for the check of `id`, then files what it found, once.
    func finishStructureCheck(_ id: UUID) async {
        guard let task = structureChecks[id] else { return }
        let (problems, touched) = await task.value
        // Another caller may have filed it while this one waited.
        guard structureChecks.removeValue(forKey: id) != nil else { return }
        // Kept in the record, whatever becomes of the line that loaded it: a line that fails
        // meanwhile puts the session back, not what the check found.
        record.findings[id] = StructureFindings(problems: problems, touched: touched)
        let filed = (session.specs + [session.givenSpec].compactMap { $0 }).first { $0.id == id }
        // A description the session no longer has (a line that failed, `spec off`) says nothing.
        guard let filed, let first = problems.first else { return }
        feeds.notice(
            .event(.structureProblems(title: filed.description.title, count: problems.count, first: first)))
    }

    /// Waits for every structure check still running: before `spec problems` answers, before a
    /// strict request to a description still checked, before a replay's summary.
    func finishStructureChecks() async {
        for id in structureChecks.keys { await finishStructureCheck(id) }
    }

    /// What arrived while lines ran (a structure check's findings), once.
    func takeNotices() -> [Output] {
        feeds.takeNotices()
    }

    /// Uses a description loaded elsewhere (`fathom replay --spec` loads it once for every
    /// file): it belongs to the current API, or to the first one a `base` line names.
    func adopt(_ spec: LoadedSpec, findings: StructureFindings? = nil) {
        if let findings { record.findings[spec.id] = findings }
        if session.current != nil {
            session.currentAPI?.spec = spec
        } else {
            session.givenSpec = spec
        }
    }

    /// The API whose description `ls`, `describe`, `op` and `body example` read: the draft's
    /// API when it has one, else the current API's (``ScopeRules/describingAPI(for:)``).
    func specAPIIndex() -> Int? {
        session.scopeRules.describingAPI(for: session.draft)
    }

    /// The description commands read, or the error a command that needs one gives.
    func requireSpec() throws(CommandError) -> LoadedSpec {
        if let index = specAPIIndex(), let spec = session.apis[index].spec { return spec }
        if let given = session.givenSpec { return given }
        throw Self.noSpec
    }

    static let noSpec = CommandError(.session, "no description loaded", hint: "`spec FILE|URL` first")

    /// The operation the draft goes to (its path expanded), or an error saying there is none.
    func draftOperation(hint: String) throws -> APIOperation {
        let spec = try requireSpec()
        let draft = session.draft
        let rules = session.scopeRules
        let target = (try? session.variables.expand(draft.target)) ?? draft.target
        let path = Draft.splitTarget(target).path
        let found = rules.origin(ofTarget: draft.target).flatMap {
            rules.scope(for: $0).operation(method: draft.method.rawValue, path: path)
        }
        guard
            let operation = found
                ?? spec.description.operation(
                    method: draft.method.rawValue, path: spec.description.relativePath(path, basePath: session.basePath)
                )
        else {
            throw CommandError(
                .session, "the description has no operation for the draft (\(draft.method) \(path))", hint: hint)
        }
        return operation
    }

    /// What is wrong with a request by its API's description: empty when nothing is, or when no
    /// description checks requests in its scope, or checks are off.
    func requestProblems(_ outgoing: Outgoing) -> [String] {
        let request = outgoing.request
        let scope = outgoing.scope
        guard scope.validation != .off, let spec = scope.description,
            let (relative, found) = scope.route(method: request.method.rawValue, path: request.url.path)
        else { return [] }
        guard let operation = found else {
            return ["the description has no operation for \(request.method) \(relative)"]
        }
        let query = Self.queryPairs(request.url.query ?? "")
        var body: Data?
        if case .bytes(let data)? = request.body { body = data }
        // Credentials the session adds on the way out count as sent.
        let headers = request.headers.map(\.name.rawName) + Self.credentialHeaderNames(scope.auth)
        return spec.description.checkRequest(
            operation, path: relative, query: query, headers: headers, contentType: request.headers[.contentType],
            body: body)
    }

    /// The headers credentials add (they are added after this check runs).
    private static func credentialHeaderNames(_ auth: AuthSpec) -> [String] {
        switch auth {
        case .none: return []
        case .apiKey(let placement, let name, _): return placement == .query ? [] : [name]
        default: return ["Authorization"]
        }
    }

    /// A response checked against its operation's schema for its status and media type, when a
    /// description checks requests to its origin and checks are on. The body is parsed through
    /// the executor's cache, so `expect` and `let` after it do not parse it again.
    ///
    /// `sent` is the scope the request was sent in: read as it is when the response came from its
    /// origin (no redirect elsewhere), so a send decides its scope once.
    func schemaCheck(for entry: ResponseHistory.Entry, evenWhenOff: Bool = false, sent: Scope? = nil) -> SchemaCheck? {
        if let operation = entry.graphQL {
            return graphQLCheck(for: entry, operation, evenWhenOff: evenWhenOff, sent: sent)
        }
        let response = entry.response
        let scope = scope(of: response.request.url, sent: sent)
        guard let spec = scope.description, scope.validation != .off || evenWhenOff,
            let (relative, found) = scope.route(
                method: response.request.method.rawValue, path: response.request.url.path)
        else { return nil }
        guard let operation = found else {
            return SchemaCheck(
                operation: nil,
                violations: [
                    SchemaViolation(
                        path: "$",
                        message: "the description has no operation for \(response.request.method) \(relative)")
                ])
        }
        let violations = spec.description.validateResponse(
            status: response.status.code, contentType: response.contentType, body: response.body, for: operation,
            items: { entry.stream?.items }, parse: { _ in try? self.json(of: entry) })
        return SchemaCheck(operation: operation.title, violations: violations)
    }

    /// Notes a response against the coverage of the operation called (the first URL, when
    /// redirects were followed: the schema check reads the last, whose body it is).
    func recordCoverage(_ response: NetworkResponse<Data>, sent: Scope? = nil) {
        recordCoverage(
            method: response.request.method, url: response.redirects.first ?? response.request.url,
            status: response.status.code, sent: sent)
    }

    /// Counts a call of the operation `method` `url` routes to (a WebSocket's upgrade: 101).
    func recordCoverage(method: HTTPMethod, url: RequestURL, status: Int, sent: Scope? = nil) {
        let scope = scope(of: url, sent: sent)
        guard let index = scope.api, let operation = scope.operation(method: method.rawValue, path: url.path)
        else { return }
        guard let id = session.apis[index].spec?.id else { return }
        record.coverage[id, default: [:]][operation.title, default: []].insert(status)
    }

    /// The scope of `url`: the one a request was sent in when `url` is on its origin, else decided
    /// now (a redirect to another origin, a response read later).
    func scope(of url: RequestURL, sent: Scope?) -> Scope {
        let origin = Origin(url)
        if let sent, sent.covers(origin) { return sent }
        return session.scopeRules.scope(for: origin)
    }

    /// Each description the session has, with the operations called and the statuses seen.
    func specCoverage() -> [(spec: LoadedSpec, calls: [String: Set<Int>])] {
        session.specs.map { ($0, record.coverage[$0.id] ?? [:]) }
    }
}
