import FathomHTTP
import FathomJSON
import Foundation

extension Executor {
    // MARK: - Building the draft

    func setBase(_ url: String?) throws {
        guard let url else {
            say(session.base ?? "no base URL — set one with `base URL`")
            return
        }
        let expanded = try session.variables.expand(url)
        _ = try RequestURL(parsing: expanded)
        session.base = url
    }

    func setMethod(_ method: String?) throws {
        guard let method else {
            say(session.draft.method.rawValue)
            return
        }
        session.draft.method = HTTPMethod(rawValue: method)
    }

    func editQuery(_ edits: [QueryEdit]) throws {
        guard !edits.isEmpty else {
            let lines = session.draft.query.map { pair in pair.value.map { "\(pair.name)=\($0)" } ?? pair.name }
            say(lines.isEmpty ? "no query items" : lines.joined(separator: "\n"))
            return
        }
        for edit in edits {
            if case .remove(let name) = edit, !session.draft.query.contains(where: { $0.name == name }) {
                throw CommandError("no query item '\(name)' to remove")
            }
        }
        for edit in edits { session.draft.apply(edit) }
    }

    func editHeaders(_ edits: [HeaderEdit]) {
        guard !edits.isEmpty else {
            let lines = session.draft.headers.map { "\($0.name): \(shownHeaderValue($0))" }
            say(lines.isEmpty ? "no draft headers" : lines.joined(separator: "\n"))
            return
        }
        for edit in edits {
            if case .set(let name, let value) = edit { registerIfSecret(header: name, value: value) }
            session.draft.apply(edit)
        }
    }

    /// A credential written straight into a secret header (`header Authorization: Bearer abc`)
    /// becomes a secret like any other: masked in output and in the history file.
    func registerIfSecret(header name: String, value: String) {
        guard redactor.isSecretHeader(NetworkHeaders.Name(name)), let expanded = try? session.variables.expand(value)
        else { return }
        // Short values would mask ordinary text everywhere: such a credential is no secret anyway.
        var parts = [expanded]
        if let space = expanded.firstIndex(of: " ") { parts.append(String(expanded[expanded.index(after: space)...])) }
        for part in parts where part.count >= 6 { redactor.addSecret(part) }
    }

    /// A header's value as listings show it: a secret header's masked.
    func shownHeaderValue(_ header: Draft.Header) -> String {
        redactor.redactHeaderValue(header.value, name: NetworkHeaders.Name(header.name))
    }

    func setBody(_ spec: BodySpec?) throws {
        guard let spec else {
            say(describe(session.draft.body))
            return
        }
        if case .text(let text) = spec, text.first == "{" || text.first == "[", !text.contains("{{") {
            do {
                _ = try JSON(parsing: text)
            } catch {
                throw CommandError("the body is not valid JSON: \(error.summary)", hint: "fix it or quote it as text")
            }
        }
        if case .json(let items) = spec { _ = try jsonObject(items) }
        session.draft.body = spec
    }

    func describe(_ body: BodySpec) -> String {
        switch body {
        case .none: "no body"
        case .text(let text): text
        case .file(let path): "@\(path)"
        case .form(let fields): "form " + fields.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        case .json(let items): "json " + items.map(Self.itemText).joined(separator: " ")
        case .multipart(let items): "multipart " + items.map(Self.itemText).joined(separator: " ")
        }
    }

    static func itemText(_ item: RequestItem) -> String {
        switch item {
        case .header(let name, let value): "\(name):\(value)"
        case .removeHeader(let name): "\(name):"
        case .query(let name, let value): "\(name)==\(value)"
        case .field(let name, let value): "\(name)=\(value)"
        case .rawJSON(let name, let json): "\(name):=\(json)"
        case .file(let name, let path): "\(name)@\(path)"
        }
    }

    // MARK: - Sending

    func oneLiner(_ method: HTTPMethod, _ target: String?, _ items: [RequestItem]) async throws -> Outcome {
        var draft = session.draft
        draft.method = method
        if let target {
            draft.target = target
            draft.query = []
        }
        if target != nil || items.contains(where: { [.field, .rawJSON, .file].contains($0.kind) }) {
            draft.body = .none
        }
        draft.apply(items)
        // Validated whole before the draft changes: a bad one-liner leaves the session as it was.
        let prepared = try prepare(draft)
        session.draft = draft
        return try await send(prepared)
    }

    func send() async throws -> Outcome {
        try await send(try prepare(session.draft))
    }

    private func send(_ prepared: PreparedRequest) async throws -> Outcome {
        let client = try await client()
        let response: NetworkResponse<Data>
        do {
            response = try await client.send(prepared)
        } catch {
            // Ctrl-C: the library says how long the request had run.
            guard case .cancelled(let after) = error else { throw error }
            fail("cancelled after \((after ?? .zero).shortDescription)")
            return .failed
        }
        let number = session.responses.append(response)
        let path = shownPath(response.url)
        lastSent = (
            "\(response.request.method) \(path) → \(response.status)",
            session.recording ? RecordedResponse(response) : nil
        )
        events.append(
            .response(
                number: number, method: response.request.method.rawValue, path: path, status: response.status,
                time: response.timing.total))
        if console.isInteractive {
            // Only a person at a terminal completes paths: scripts skip parsing the body again.
            snapshot.remember(paths: PathHarvester.paths(in: response, base: baseURL()), redactor: redactor)
        }
        if options.rendersResponses { show(long: renderer.render(response, number: number)) }
        return .succeeded
    }

    var renderer: ResponseRenderer {
        ResponseRenderer(
            palette: palette, decoder: session.settings.decoder, showHeaders: session.settings.showHeaders,
            redactor: redactor)
    }

    // MARK: - From draft to request

    /// The expanded base URL, if one is set.
    func baseURL() -> String? {
        session.base.flatMap { try? session.variables.expand($0) }
    }

    /// The draft as a library request: variables expanded, defaults and credentials added.
    func request(for draft: Draft) throws -> NetworkRequest {
        let variables = session.variables
        var request = NetworkRequest(try variables.expand(draft.target), method: draft.method)
        for pair in session.defaultQuery + draft.query {
            request.queryItems.append(
                QueryItem(try variables.expand(pair.name), try pair.value.map { try variables.expand($0) }))
        }
        for header in session.defaultHeaders
        where !draft.headers.contains(where: { NetworkHeaders.Name($0.name) == NetworkHeaders.Name(header.name) }) {
            request.headers.add(NetworkHeaders.Name(header.name), try variables.expand(header.value))
        }
        for header in draft.headers {
            registerIfSecret(header: header.name, value: header.value)
            request.headers.add(NetworkHeaders.Name(header.name), try variables.expand(header.value))
        }
        if !request.headers.contains(.userAgent) { request.headers.add(.userAgent, Executor.userAgent) }
        try applyCredentials(to: &request)
        if let timeout = session.settings.timeout { request.timeout = timeout }
        request.body = try body(draft.body)
        return request
    }

    /// The draft resolved against the base URL and validated.
    func prepare(_ draft: Draft) throws -> PreparedRequest {
        let request = try request(for: draft)
        let base = try session.base.map { try session.variables.expand($0) }
        if base == nil, !request.target.contains("://") {
            throw CommandError(
                "no base URL for '\(request.target)'", hint: "set one with `base http://…` or give a full URL")
        }
        let prepared = try request.prepared(baseURL: base)
        if console.isInteractive { snapshot.remember(paths: [prepared.url.path], redactor: redactor) }
        return prepared
    }

    func body(_ spec: BodySpec) throws -> RequestBody? {
        let variables = session.variables
        switch spec {
        case .none:
            return nil
        case .text(let template):
            let text = try variables.expand(template)
            if text.first == "{" || text.first == "[" {
                do {
                    _ = try JSON(parsing: text)
                } catch {
                    throw CommandError("the body is not valid JSON: \(error.summary)")
                }
                return .json(Data(text.utf8))
            }
            return .data(Data(text.utf8), contentType: MediaType.plainText)
        case .file(let template):
            let path = Self.expandTilde(try variables.expand(template))
            return .file(path: path, contentType: MediaType.guess(forPath: path))
        case .form(let fields):
            return .form(try fields.map { QueryItem(try variables.expand($0.name), try variables.expand($0.value)) })
        case .json(let items):
            var text = try jsonObject(items).formatted(.compactText)
            if text.hasSuffix("\n") { text.removeLast() }
            return .json(Data(text.utf8))
        case .multipart(let items):
            var form = MultipartForm()
            for item in items {
                switch item {
                case .field(let name, let value):
                    form = form.field(try variables.expand(name), try variables.expand(value))
                case .file(let name, let path):
                    form = form.file(try variables.expand(name), path: Self.expandTilde(try variables.expand(path)))
                default: throw CommandError("a multipart body takes name=value fields and name@file files")
                }
            }
            return .multipart(form)
        }
    }

    /// `name=value` as a string, `name:=json` as raw JSON, in one object.
    func jsonObject(_ items: [RequestItem]) throws -> JSON {
        var members: [JSON.Member] = []
        for item in items {
            switch item {
            case .field(let name, let value):
                members.append(
                    JSON.Member(
                        key: try session.variables.expand(name), value: .string(try session.variables.expand(value))))
            case .rawJSON(let name, let json):
                let text = try session.variables.expand(json)
                do {
                    members.append(JSON.Member(key: name, value: try JSON(parsing: text)))
                } catch {
                    throw CommandError(
                        "'\(name):=\(json)' is not valid JSON: \(error.summary)",
                        hint: "quote strings: name:='\"text\"'")
                }
            case .file(let name, _):
                throw CommandError("'\(name)@…' sends a file: use a multipart body")
            default:
                continue
            }
        }
        return .object(members)
    }

    static func expandTilde(_ path: String) -> String {
        guard path.hasPrefix("~/") else { return path }
        return NSHomeDirectory() + path.dropFirst()
    }

    // MARK: - Showing

    func show(_ target: ShowTarget) throws {
        switch target {
        case .request: try showRequest()
        case .response(let number):
            let entry = try session.responses.entry(number)
            show(long: renderer.render(entry.response, number: entry.number))
        case .session: showSession()
        case .headers(let on): session.settings.showHeaders = on
        }
    }

    /// The request as it would be sent, credentials masked.
    func showRequest() throws {
        let prepared = try prepare(session.draft)
        var text = palette.bold("\(prepared.method) \(prepared.url)") + "\n"
        for field in redactor.redact(prepared.headers) {
            text += "\(field.name.rawName): \(field.value)\n"
        }
        if case .oauth2ClientCredentials = session.auth {
            text += palette.dim("Authorization: Bearer (OAuth2 token, fetched when sent)") + "\n"
        }
        if let body = prepared.body {
            switch body {
            case .bytes(let data):
                let contentType = prepared.headers[.contentType]
                text +=
                    "\n"
                    + ResponseRenderer(palette: palette, decoder: .auto, showHeaders: false, redactor: redactor)
                    .renderBody(data, contentType: contentType)
            case .file(let path, let length):
                text += "\n" + palette.dim("<\(path), \(ByteCount.format(length))>") + "\n"
            }
        }
        show(long: text)
    }

    func showSession() {
        var lines: [String] = []
        lines.append("base      \(session.base ?? "(none)")")
        if let environment = session.currentEnvironment { lines.append("env       \(environment)") }
        lines.append("auth      \(describe(session.auth))")
        for header in session.defaultHeaders {
            lines.append("default   header \(header.name): \(shownHeaderValue(header))")
        }
        for pair in session.defaultQuery {
            lines.append("default   query \(pair.name)\(pair.value.map { "=\($0)" } ?? "")")
        }
        for name in session.variables.names {
            lines.append("var       \(name) = \(displayValue(of: name))")
        }
        let settings = session.settings
        lines.append("decoder   \(settings.decoder.rawValue)")
        lines.append("log       \(settings.logDetail.rawValue)\(settings.logFile.map { " \($0)" } ?? "")")
        lines.append("timeout   \(settings.timeout?.shortDescription ?? "60 s (default)")")
        lines.append("redirects \(settings.redirectLimit.map(String.init) ?? "off")")
        lines.append("insecure  \(settings.insecure ? "on" : "off")")
        lines.append("proxy     \(settings.proxy ?? "from the environment")")
        lines.append("cookies   \(settings.cookies ? "on (\(cookieJar.cookies.count))" : "off")")
        lines.append("pager     \(settings.pager.rawValue)")
        lines.append("responses \(session.responses.entries.count) kept, last #\(session.responses.lastNumber)")
        say(lines.joined(separator: "\n"))
    }
}
