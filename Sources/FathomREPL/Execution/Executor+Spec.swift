import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

/// A loaded API description and what the session learnt against it.
struct LoadedSpec: Sendable {
    var description: APIDescription
    /// The file or URL as given (`spec FILE|URL`).
    var source: String
    /// Per operation (`GET /pets/{petId}`), the statuses its responses came back with.
    var coverage: [String: Set<Int>] = [:]
}

/// How requests are checked against the description before they go.
enum ValidationMode: String, Sendable, CaseIterable {
    /// Problems are warnings; the request is sent.
    case warn
    /// A request with a problem is not sent.
    case strict
    /// Requests and responses are not checked.
    case off
}

/// A response checked against its operation.
struct SchemaCheck: Sendable {
    /// `GET /pets/{petId}`, or `nil` when the description has no operation for the request.
    var operation: String?
    var violations: [SchemaViolation]

    var passed: Bool { operation != nil && violations.isEmpty }
}

extension Executor {
    /// Loads a description from a file or an http(s) URL; the base URL comes from its first
    /// absolute server when none is set.
    ///
    /// - Parameter lenient: Leaves out OpenAPIKit's structure check, for a description it rejects
    ///   that Fathom can still read (a server variable with no `default`, for one).
    func loadSpec(_ source: String, lenient: Bool = false) async throws -> (LoadedSpec, [String]) {
        let data: Data
        let location: URL
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            // A key in the URL is masked in what follows (notices, errors) and saved by name.
            registerSecrets(inQueryOf: source)
            data = try await Self.fetchDescription(source, with: try await client())
            guard let url = URL(string: source) else { throw CommandError("invalid URL '\(source)'") }
            location = url
        } else {
            let path = Self.expandTilde(source)
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw CommandError("cannot read \(path)", hint: "give a description's file or http(s) URL")
            }
            data = contents
            location = URL(fileURLWithPath: path)
        }
        let fetch = try await documentReader(from: location)
        let description: APIDescription
        do {
            description = try await APIDescription(
                data: data, name: (source as NSString).lastPathComponent, location: location,
                checkStructure: !lenient, fetch: fetch)
        } catch {
            throw CommandError(
                error.message,
                hint: error.isStructural ? "`spec --lenient \(source)` loads it without this check" : nil)
        }
        var notes: [String] = []
        if session.base == nil, let server = description.servers.first {
            let absolute =
                server.contains("://")
                ? server
                : (source.contains("://") ? (try? RequestURL(parsing: source).resolving(server).description) : nil)
            if let absolute {
                session.base = absolute
                notes.append("base \(absolute) (from the description's servers)")
            }
        }
        return (LoadedSpec(description: description, source: source), notes)
    }

    /// How the documents a description's `$ref`s name are read: as the description was, from
    /// files or over HTTP with the session's client settings. The session's credentials go only
    /// to the server the description came from, never to another one its author names, and a
    /// description from a server reads no local file.
    private func documentReader(from location: URL) async throws -> @Sendable (URL) async throws -> Data {
        let client = try await client()
        let configuration = client.configuration
        let anonymous = NetworkClient(
            configuration: .init(
                logger: configuration.logger, logDetail: configuration.logDetail, redactor: configuration.redactor),
            transport: client.transport)
        let origin = Self.origin(of: location)
        return { url in
            if url.isFileURL {
                guard origin == nil else { throw DescriptionError("a description read over HTTP reads no local file") }
                guard let contents = FileManager.default.contents(atPath: url.path) else {
                    throw DescriptionError("no such file")
                }
                return contents
            }
            do {
                return try await Self.fetchDescription(
                    url.absoluteString, with: Self.origin(of: url) == origin ? client : anonymous)
            } catch let error as CommandError {
                throw DescriptionError(error.message)
            }
        }
    }

    /// `scheme://host:port` of an http(s) URL; `nil` for a file.
    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host else {
            return nil
        }
        return "\(scheme)://\(host.lowercased()):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    private static func fetchDescription(_ url: String, with client: NetworkClient) async throws -> Data {
        let response = try await client.send(try NetworkRequest.get(url).prepared())
        guard response.status.code < 300 else {
            throw CommandError("\(url) answered \(response.status.code) \(response.status.reasonPhrase)")
        }
        return response.body
    }

    /// Uses a description loaded elsewhere (`fathom replay --spec` loads it once for every file).
    func adopt(_ spec: LoadedSpec) {
        session.spec = spec
    }

    /// The loaded description, or the error a command that needs one gives.
    func requireSpec() throws(CommandError) -> LoadedSpec {
        guard let spec = session.spec else { throw Self.noSpec }
        return spec
    }

    static let noSpec = CommandError("no description loaded", hint: "`spec FILE|URL` first")

    /// A request path as the description writes it (the base's path or a server's taken off), and
    /// the operation there; `nil` when no description is loaded.
    func route(method: String, path: String) -> (relative: String, operation: APIOperation?)? {
        guard let description = session.spec?.description else { return nil }
        let relative = description.relativePath(path, basePath: session.basePath)
        return (relative, description.operation(method: method, path: relative))
    }

    /// The operation a request goes to, when a description is loaded and declares one.
    func specOperation(method: String, path: String) -> APIOperation? {
        route(method: method, path: path)?.operation
    }

    /// The operation the draft goes to (its path expanded), or an error saying there is none.
    func draftOperation(hint: String) throws -> APIOperation {
        _ = try requireSpec()
        let draft = session.draft
        let path = Draft.splitTarget((try? session.variables.expand(draft.target)) ?? draft.target).path
        guard let operation = specOperation(method: draft.method.rawValue, path: path) else {
            throw CommandError("the description has no operation for the draft (\(draft.method) \(path))", hint: hint)
        }
        return operation
    }

    /// What is wrong with a request by the description: empty when nothing is, or when no
    /// description is loaded or checks are off.
    func requestProblems(_ request: PreparedRequest) -> [String] {
        guard session.validation != .off, let spec = session.spec,
            let (relative, found) = route(method: request.method.rawValue, path: request.url.path)
        else { return [] }
        guard let operation = found else {
            return ["the description has no operation for \(request.method) \(relative)"]
        }
        let query = Self.queryPairs(request.url.query ?? "")
        var body: Data?
        if case .bytes(let data)? = request.body { body = data }
        // Credentials the session adds on the way out count as sent.
        let headers = request.headers.map(\.name.rawName) + credentialHeaderNames()
        return spec.description.checkRequest(
            operation, path: relative, query: query, headers: headers, contentType: request.headers[.contentType],
            body: body)
    }

    /// The headers the session's credentials add (they are added after this check runs).
    private func credentialHeaderNames() -> [String] {
        switch session.auth {
        case .none: return []
        case .apiKey(let placement, let name, _): return placement == .query ? [] : [name]
        default: return ["Authorization"]
        }
    }

    /// A response checked against its operation's schema for its status and media type, when a
    /// description is loaded and checks are on. The body is parsed through the executor's cache,
    /// so `expect` and `let` after it do not parse it again.
    func schemaCheck(for entry: ResponseHistory.Entry, evenWhenOff: Bool = false) -> SchemaCheck? {
        let response = entry.response
        guard session.validation != .off || evenWhenOff, let spec = session.spec,
            let (relative, found) = route(method: response.request.method.rawValue, path: response.request.url.path)
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
            status: response.status.code, contentType: response.contentType, body: response.body, for: operation
        ) { _ in try? self.json(of: entry) }
        return SchemaCheck(operation: operation.title, violations: violations)
    }

    /// Notes a response against the coverage of the operation called (the first URL, when
    /// redirects were followed: the schema check reads the last, whose body it is).
    func recordCoverage(_ response: NetworkResponse<Data>) {
        let path = response.redirects.first?.path ?? response.request.url.path
        guard let operation = specOperation(method: response.request.method.rawValue, path: path) else { return }
        session.spec?.coverage[operation.title, default: []].insert(response.status.code)
    }
}
