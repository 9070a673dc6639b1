@_spi(Fathom) import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

/// From the draft to a request on the wire, and the response back as an output.
extension Executor {
    // MARK: - Sending

    /// Sends a request through the client of the API it goes to; the response is kept and numbered.
    ///
    /// With a description loaded for that API, the request is checked first: problems are
    /// warnings, or (with `validate strict`) the reason it is not sent; the response is checked
    /// against its schema. The first request to an origin no API claims says what stayed behind.
    func send(_ outgoing: Outgoing) async throws -> CommandResult {
        let problems = try await checkBeforeSending(outgoing)
        let client = try await client(for: outgoing.scope)
        let stream = StreamReader(
            all: session.settings.streamAll, limit: session.settings.streamLimit,
            showHeaders: session.settings.showHeaders,
            live: feeds.live, itemCheck: itemCheck(outgoing))
        var request = outgoing.request
        request.watch = stream.watch
        let response = try await client.send(request)
        let number = record.responses.append(response, graphQL: outgoing.graphQL)
        recordCoverage(response, sent: outgoing.scope)
        var outputs = problems.map { Output.event(.requestWarning($0)) }
        if outgoing.scope.api == nil, let notice = noticeOtherOrigin(outgoing.scope.origin) {
            outputs.append(.event(notice))
        }
        let entry = try record.responses.entry(number)
        var output = responseOutput(entry, sent: outgoing.scope)
        output.target = outgoing.target
        output.stream = stream.finish()
        outputs.append(.response(output))
        return CommandResult(.succeeded, outputs)
    }

    /// How each event of a stream the request gets is checked as it arrives: against its
    /// operation's `itemSchema` in the loaded description, unless validation is off.
    private func itemCheck(_ outgoing: Outgoing) -> StreamReader.ItemCheck? {
        if let operation = outgoing.graphQL { return graphQLItemCheck(operation, in: outgoing.scope) }
        let scope = outgoing.scope
        guard scope.validation != .off, let description = scope.description?.description,
            let operation = scope.operation(
                method: outgoing.request.method.rawValue, path: outgoing.request.url.path)
        else { return nil }
        return { status, contentType in
            guard let schema = description.itemSchema(status: status.code, contentType: contentType, for: operation)
            else { return nil }
            return { item in description.validateItem(item, against: schema) }
        }
    }

    /// The request's problems by the loaded description: warnings to show, or (with `validate
    /// strict`) the reason it is not sent.
    func checkBeforeSending(_ outgoing: Outgoing) async throws -> [String] {
        if let operation = outgoing.graphQL { return try graphQLProblems(operation, in: outgoing.scope) }
        var problems = requestProblems(outgoing)
        let scope = outgoing.scope
        if scope.validation == .strict {
            // Strict: an operation the description's structure problems touch is not trusted
            // to check a request; the structure check is waited for when it still runs.
            if let spec = scope.description, record.findings[spec.id] == nil { await finishStructureChecks() }
            if let spec = scope.description,
                let operation = scope.operation(
                    method: outgoing.request.method.rawValue, path: outgoing.request.url.path),
                record.findings[spec.id]?.touched.contains(operation.title) == true
            {
                problems.append(
                    "the description's structure has problems at \(operation.title) (`spec problems` lists them)")
            }
            if !problems.isEmpty { throw CommandError.notSent(problems) }
        }
        return problems
    }

    /// A kept response as an output, shown with the session's display settings, and checked
    /// against the description when one is loaded and the output shows the check (`diff` does not).
    func responseOutput(_ entry: ResponseHistory.Entry, checked: Bool = true, sent: Scope? = nil) -> ResponseOutput {
        ResponseOutput(
            number: entry.number, archived: entry.archived, response: entry.response,
            shownPath: shownPath(entry.response.url),
            decoder: session.settings.decoder, showHeaders: session.settings.showHeaders,
            schema: checked ? schemaCheck(for: entry, sent: sent) : nil, parsedStream: entry.stream,
            graphQLErrors: graphQLErrors(of: entry), grpc: entry.grpc)
    }

    /// A URL as lists show it: path and query (secrets masked), or the whole URL on another origin.
    func shownPath(_ url: RequestURL) -> String {
        let masked = redactor.redact(url)
        let origin = "\(url.scheme)://\(url.authority)"
        if let base = baseURL(), base.hasPrefix(origin), masked.hasPrefix(origin),
            base.count == origin.count || base.dropFirst(origin.count).first == "/"
        {
            return String(masked.dropFirst(origin.count))
        }
        return masked
    }

    // MARK: - From draft to request

    /// Builds requests from what the session holds now.
    var builder: RequestBuilder {
        RequestBuilder(
            variables: session.variables, settings: session.settings, requestTimeout: options.requestTimeout,
            directory: directory, redactor: redactor)
    }

    /// The expanded base URL, if one is set.
    func baseURL() -> String? {
        session.base.flatMap { try? session.variables.expand($0) }
    }

    /// The draft resolved against the base URL and validated, with the API it goes to: that
    /// API's defaults are on it, and its credentials go with it when it is sent (or the draft's
    /// own, `auth draft …`). A request to an origin no API claims gets neither.
    func prepare(_ draft: Draft) throws -> Outgoing {
        if options.readOnly, ![.get, .head, .options, .trace].contains(draft.method), !Self.writeAllowed {
            Self.writeRefused?.refused(draft.method.rawValue + " " + redactor.redact(draft.target))
            throw CommandError(
                .session, "\(draft.method) may change the server, and this session is read-only: nothing was sent",
                hint: "start `fathom mcp` with --allow-writes to allow it")
        }
        registerTypedSecrets(in: draft)
        let target = try session.variables.expand(draft.target)
        let base = try session.base.map { try session.variables.expand($0) }
        if base == nil, !target.contains("://") {
            throw CommandError(
                .session, "no base URL for '\(target)'", hint: "set one with `base http://…` or give a full URL")
        }
        switch draft.auth {
        case .oauth2ClientCredentials?, .oauth2?:
            throw CommandError(
                .session, "OAuth2 credentials belong to an API, not to one request",
                hint: "`auth oauth2 …` sets them for the base's API")
        default: break
        }
        // The one place a request's scope is decided; every later step reads it from `Outgoing`.
        let origin = Origin(try RequestURL(parsing: target.contains("://") ? target : base ?? ""))
        let scope = session.scopeRules.scope(for: origin, draftAuth: draft.auth)
        var prepared = try builder.request(for: draft, in: scope).prepared(baseURL: base)
        // The API's TLS identity and trust, as its credentials: for its origin only.
        prepared.clientIdentity = draft.clientIdentity ?? scope.state?.clientIdentity
        prepared.trustRootsFile = draft.trustRootsFile ?? scope.state?.trustRootsFile
        // Defaults belong to the API's origin: a redirect elsewhere drops them, as it drops credentials.
        for header in scope.defaultHeaders {
            prepared.credentialHeaders.insert(NetworkHeaders.Name(header.name))
        }
        return Outgoing(request: prepared, scope: scope, target: draft.target)
    }

    /// The draft as `show request` shows it: the request as it will go, the credentials that
    /// need no network added (masked when shown), the cookies the jar will send, and where each
    /// header comes from.
    /// - Parameter shownOnly: The preview is only shown (`show request`, an import's): a file a
    ///   curl `-d @FILE` sends without its line breaks is not read to count them (its size
    ///   stands for its length), however large.
    func preview(_ draft: Draft, shownOnly: Bool = false) async throws -> RequestPreview {
        let outgoing = try FileBody.$sizesOnly.withValue(shownOnly) { try prepare(draft) }
        var request = outgoing.request
        let auth = outgoing.scope.auth
        let before = Set(request.headers.map(\.name))
        // Fixed credentials need no network: the preview shows them (masked) as they will go.
        try await authorizeWithoutNetwork(&request, outgoing)
        let added = Set(request.headers.map(\.name)).subtracting(before)
        addCookies(to: &request)
        let draftNames = Set(draft.headers.map { NetworkHeaders.Name($0.name) })
        let defaultNames = Set(outgoing.scope.defaultHeaders.map { NetworkHeaders.Name($0.name) })
        let sources: [RequestPreview.Source] = request.headers.map { field in
            if draftNames.contains(field.name) { return .draft }
            if added.contains(field.name) { return outgoing.scope.draftAuth != nil ? .draftAuth : .auth }
            if defaultNames.contains(field.name) { return .defaults }
            if field.name == .cookie { return .cookies }
            return .fathom
        }
        var tokenFetchedOnSend = false
        switch auth {
        case .oauth2ClientCredentials, .oauth2: tokenFetchedOnSend = true
        default: break
        }
        return RequestPreview(
            request: request, tokenFetchedOnSend: tokenFetchedOnSend, sources: sources,
            api: outgoing.scope.state?.origin.description, origin: outgoing.scope.origin.description)
    }

    /// Adds the credentials `outgoing` goes with — the draft's own, else its API's — that need no
    /// network, as the client's authenticator will (`show request`); an OAuth2 token is fetched
    /// only when the request is sent.
    func authorizeWithoutNetwork(_ request: inout PreparedRequest, _ outgoing: Outgoing) async throws {
        let auth = outgoing.scope.auth
        guard auth != .none else { return }
        let credentials = try Clients.expandedCredentials(
            auth, base: outgoing.scope.state?.base, origin: outgoing.scope.origin, variables: session.variables)
        try await Clients.fixedAuthenticator(auth, credentials)?.authorize(&request)
    }

    /// Adds the cookie jar's cookies for the request's URL, unless the jar is off or the request
    /// has its own `Cookie`.
    func addCookies(to request: inout PreparedRequest) {
        guard session.settings.cookies, !request.headers.contains(.cookie),
            let cookies = cookieJar.header(for: request.url)
        else { return }
        request.headers.add(.cookie, cookies)
    }

    static func expandTilde(_ path: String) -> String {
        guard path.hasPrefix("~/") else { return path }
        return NSHomeDirectory() + path.dropFirst()
    }

    // MARK: - Secrets in what is typed

    /// A credential written straight into a secret header (`header Authorization: Bearer abc`)
    /// becomes a secret like any other: masked in output and in the history file.
    func registerIfSecret(header name: String, value: String) {
        builder.registerIfSecret(header: name, value: value)
    }

    /// A credential typed straight into a request (`password=hunter2`, `?api_key=…`, a JSON body's
    /// `"token": "…"`) is a secret like a captured one: masked in output and history, and saved as
    /// a `{{name}}` reference. Values that are `{{templates}}` are the variables' business. A body
    /// `body example` made is no one's credential: its `"password": "string"` is a placeholder,
    /// and masking `string` would mask that word everywhere after.
    func registerTypedSecrets(in draft: Draft) {
        let consider = registerIfSecret(item:_:)
        for pair in draft.query { consider(pair.name, pair.value) }
        switch draft.bodyIsExample ? .none : draft.body {
        case .form(let fields):
            for field in fields { consider(field.name, field.value) }
        case .json(let items), .multipart(let items):
            for case .field(let name, let value) in items { consider(name, value) }
        case .text(let text) where text.first == "{" || text.first == "[":
            guard let json = try? JSON(parsing: text) else { break }
            func walk(_ value: JSON) {
                switch value {
                case .object(let members):
                    for member in members {
                        if case .string(let string) = member.value { consider(member.key, string) }
                        walk(member.value)
                    }
                case .array(let elements): elements.forEach(walk)
                default: break
                }
            }
            walk(json)
        default: break
        }
    }

    /// An item, field or query parameter typed into a line whose name says it is a credential.
    func registerIfSecret(item name: String, _ value: String?) {
        guard SecretNames.looksSecret(name), let value, value.count >= 4, !value.contains("{{") else { return }
        redactor.addSecret(value)
    }

    /// Credentials in the query of a URL typed into a line (`spec https://…/openapi.json?api_key=…`).
    func registerSecrets(inQueryOf url: String) {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return }
        for (name, value) in Self.queryPairs(String(query)) { registerIfSecret(item: name, value) }
    }

    /// `a=1&b&c=%20` as decoded names and values (`nil` for a name without `=`).
    static func queryPairs(_ query: String) -> [(name: String, value: String?)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            return (name, parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : nil)
        }
    }

    // MARK: - Reading responses

    /// The nodes `expression` (variables expanded) selects in a response's body.
    /// What `expression` selects in response #`number` (the last when `nil`), or in a batch's
    /// summary (``BatchSummary/json``); with the number it read.
    func query(_ expression: String, number: Int?) throws -> (number: Int, nodes: [JSONPath.Node]) {
        let (read, nodes) = try query(expression, reference: number.map { .number($0) })
        return (read.number, nodes)
    }

    /// What `expression` selects in the entry `reference` names (`#3`, `@12`; the last when
    /// `nil`): a response's body, or another exchange's document.
    func query(
        _ expression: String, reference: ResponseReference?
    ) throws -> (read: (number: Int, archived: Int?), nodes: [JSONPath.Node]) {
        switch try read(reference) {
        case .document(let number, let archived, _, let document):
            return ((number, archived), try JSONPath(try session.variables.expand(expression)).query(document))
        case .response(let entry):
            return ((entry.number, entry.archived), try query(expression, in: entry))
        }
    }

    func query(_ expression: String, in entry: ResponseHistory.Entry) throws -> [JSONPath.Node] {
        try JSONPath(try session.variables.expand(expression)).query(try json(of: entry))
    }

    /// A response's body as JSON, parsed once however many lines read it (numbers never repeat).
    func json(of entry: ResponseHistory.Entry) throws -> JSON {
        if entry.archived == nil, let parsed = record.parsedBody, parsed.number == entry.number { return parsed.json }
        // A stream is read as the array of its events.
        let json =
            try entry.stream?.json ?? ExpectationEvaluator.json(entry.response, label: entry.reference.description)
        if entry.archived == nil { record.parsedBody = (entry.number, json) }
        return json
    }

    /// `expect` and `let` read the last response: after a request that got none, that would be
    /// an older request's.
    func checkLastRequestAnswered() throws {
        // A WebSocket's conversation is the last exchange: what reads it says what it can read.
        guard !record.lastRequestAnswered, !record.lastRequestOpenedWebSocket else { return }
        throw CommandError(
            .session, "the last request got no response",
            hint: "send it again, or name an earlier response: let NAME = EXPR #N")
    }
}

extension BodySpec: CustomStringConvertible {
    /// The body as `body` without arguments shows it.
    var description: String {
        switch self {
        case .none: "no body"
        case .raw(let text): text
        case .text(let text): text
        case .file(let path): "@\(path)"
        case .upload(let path): "upload @\(path)"
        case .form(let fields): "form " + fields.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        case .json(let items): "json " + items.map(\.text).joined(separator: " ")
        case .multipart(let items): "multipart " + items.map(\.text).joined(separator: " ")
        case .data(let pieces): "data " + BodySpec.words(pieces).joined(separator: " ")
        }
    }

    /// A `data` body's pieces as `body data` writes them: text (quoted when it would read as
    /// something else), `@FILE`, `--binary @FILE`.
    static func words(_ pieces: [DataPiece]) -> [String] {
        pieces.flatMap { piece -> [String] in
            switch piece {
            case .text(let text):
                // Quoted when it would read as a file (`@…`) or the flag (`-…`).
                let word = Quoting.word(text, literal: true)
                return [word == text && text.hasPrefix("@") ? "'\(text)'" : word]
            case .file(let path, let binary): return (binary ? ["--binary"] : []) + ["@" + Quoting.word(path)]
            }
        }
    }
}

extension RequestItem {
    /// The item as HTTPie writes it.
    var text: String {
        switch self {
        case .header(let name, let value): "\(RequestItem.escaped(name)):\(value)"
        case .removeHeader(let name): "\(RequestItem.escaped(name)):"
        case .query(let name, let value): "\(RequestItem.escaped(name))==\(value)"
        case .field(let name, let value): "\(RequestItem.escaped(name))=\(value)"
        case .rawJSON(let name, let json): "\(RequestItem.escaped(name)):=\(json)"
        case .file(let name, let path): "\(RequestItem.escaped(name))@\(path)"
        }
    }
}

extension String {
    var trimmingBlanksAround: String { Substring(self).trimmingBlanks }
}
