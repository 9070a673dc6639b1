@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// Builds the library request a draft stands for, from what the session holds when it is
/// built: variables expanded, the scope's defaults added, file names resolved under the
/// session file's folder, the body encoded. Credentials are not its business: the client's
/// authenticator adds them on the way out.
struct RequestBuilder {
    let variables: Variables
    let settings: ClientSettings
    /// `--timeout` for every request, over the session's `timeout`.
    let requestTimeout: Duration?
    /// The folder relative file names resolve against, else the current directory.
    let directory: String?
    /// Told of a credential typed straight into a secret header.
    let redactor: Redactor

    /// The draft as a library request: variables expanded, the defaults of `api` added.
    /// Credentials are the authenticator's, added on the way out.
    func request(for draft: Draft, in scope: Scope) throws -> NetworkRequest {
        var request = NetworkRequest(try variables.expand(draft.target), method: draft.method)
        for pair in scope.defaultQuery + draft.query {
            request.queryItems.append(
                QueryItem(try variables.expand(pair.name), try pair.value.map { try variables.expand($0) }))
        }
        for header in scope.defaultHeaders
        where !draft.headers.contains(where: { NetworkHeaders.Name($0.name) == NetworkHeaders.Name(header.name) }) {
            request.headers.add(NetworkHeaders.Name(header.name), try variables.expand(header.value))
        }
        for header in draft.headers {
            registerIfSecret(header: header.name, value: header.value)
            request.headers.add(NetworkHeaders.Name(header.name), try variables.expand(header.value))
        }
        if !request.headers.contains(.userAgent) { request.headers.add(.userAgent, Executor.userAgent) }
        if !request.headers.contains(.accept), let accept = streamAccept(for: request, in: scope) {
            request.headers.add(.accept, accept)
        }
        if let timeout = requestTimeout ?? settings.timeout { request.timeout = timeout }
        request.body = try body(draft.body)
        return request
    }

    /// What a request that expects a stream accepts, when the draft says nothing: the stream
    /// media types its operation in the description answers with (`text/event-stream`), or with
    /// `stream on`, the stream types Fathom reads and anything after them. `nil` otherwise.
    private func streamAccept(for request: NetworkRequest, in scope: Scope) -> String? {
        let target = request.target
        var base = target.contains("://") ? "" : scope.basePath ?? ""
        if base.hasSuffix("/") { base.removeLast() }
        let relative = Draft.splitTarget(target).path
        let path = base + (relative.split(separator: "?", maxSplits: 1).first.map(String.init) ?? relative)
        if let operation = scope.operation(method: request.method.rawValue, path: path) {
            var types: [String] = []
            for response in operation.responses where response.status.hasPrefix("2") {
                for media in response.content
                where StreamFormat(contentType: media.name) != nil && !types.contains(media.essence) {
                    types.append(media.essence)
                }
            }
            if !types.isEmpty { return types.joined(separator: ", ") }
        }
        guard settings.streamAll else { return nil }
        return "text/event-stream, application/x-ndjson, application/json-seq, */*;q=0.5"
    }

    /// The body a draft's spec stands for: variables expanded, files resolved (read when sent).
    func body(_ spec: BodySpec) throws -> RequestBody? {
        switch spec {
        case .none:
            return nil
        case .text(let template):
            let text = try variables.expand(template)
            if text.first == "{" || text.first == "[" {
                do {
                    _ = try JSON(parsing: text)
                } catch {
                    throw CommandError(.session, "the body is not valid JSON: \(error.summary)")
                }
                return .json(Data(text.utf8))
            }
            return .data(Data(text.utf8), contentType: MediaType.plainText)
        case .raw(let text):
            return .data(Data(text.utf8), contentType: nil)
        case .file(let template):
            let path = resolvePath(try variables.expand(template))
            return .file(path: path, contentType: MediaType.guess(forPath: path))
        case .upload(let template):
            // Streamed from disk like any file, with no Content-Type: curl's `-T` sends none.
            let path = resolvePath(try variables.expand(template))
            return .sequence([.file(path: path, dropsLineBreaks: false)], contentType: nil)
        case .form(let fields):
            return .form(try fields.map { QueryItem(try variables.expand($0.name), try variables.expand($0.value)) })
        case .json(let items):
            var text = try jsonObject(items).formatted(.compactText)
            if text.hasSuffix("\n") { text.removeLast() }
            return .json(Data(text.utf8))
        case .multipart(let items):
            // The parts gathered first: building the form part by part would copy it each time.
            var parts: [MultipartForm.Part] = []
            parts.reserveCapacity(items.count)
            for item in items {
                switch item {
                case .field(let name, let value):
                    parts.append(.field(name: try variables.expand(name), value: try variables.expand(value)))
                case .file(let name, let written):
                    let file = RequestItem.fileSpec(try variables.expand(written))
                    parts.append(
                        .file(
                            name: try variables.expand(name), path: resolvePath(file.path), filename: file.filename,
                            contentType: file.type))
                default: throw CommandError(.session, "a multipart body takes name=value fields and name@file files")
                }
            }
            return .multipart(MultipartForm(parts: parts))
        case .data(let pieces):
            var sources: [BodySource] = []
            for (index, piece) in pieces.enumerated() {
                if index > 0 { sources.append(.bytes(Data("&".utf8))) }
                switch piece {
                case .text(let text): sources.append(.bytes(Data(try variables.expand(text).utf8)))
                case .file(let template, let binary):
                    sources.append(.file(path: resolvePath(try variables.expand(template)), dropsLineBreaks: !binary))
                }
            }
            return .sequence(sources, contentType: MediaType.form)
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
                        key: try variables.expand(name), value: .string(try variables.expand(value))))
            case .rawJSON(let name, let json):
                let text = try variables.expand(json)
                do {
                    members.append(JSON.Member(key: name, value: try JSON(parsing: text)))
                } catch {
                    throw CommandError(
                        .session, "'\(name):=\(json)' is not valid JSON: \(error.summary)",
                        hint: "quote strings: name:='\"text\"'")
                }
            case .file(let name, _):
                throw CommandError(.session, "'\(name)@…' sends a file: use a multipart body")
            default:
                continue
            }
        }
        return .object(members)
    }

    /// A file name as written, `~/` expanded, under ``directory`` when it is relative.
    func resolvePath(_ written: String) -> String {
        let path = Executor.expandTilde(written)
        guard !path.hasPrefix("/"), let directory else { return path }
        return (directory as NSString).appendingPathComponent(path)
    }

    /// A credential written straight into a secret header (`header Authorization: Bearer abc`)
    /// becomes a secret like any other: masked in output and in the history file.
    func registerIfSecret(header name: String, value: String) {
        guard redactor.isSecretHeader(NetworkHeaders.Name(name)), let expanded = try? variables.expand(value)
        else { return }
        // Short values would mask ordinary text everywhere: such a credential is no secret anyway.
        var parts = [expanded]
        if let space = expanded.firstIndex(of: " ") { parts.append(String(expanded[expanded.index(after: space)...])) }
        for part in parts where part.count >= 6 { redactor.addSecret(part) }
    }
}
