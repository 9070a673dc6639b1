import FathomHTTP
import FathomJSON
import Foundation

/// Requests from another tool — a curl line, a HAR 1.2 log, a Postman v2.0/v2.1 collection — as a
/// `.fathom` session file: settings and variables first, then each request as the lines that
/// build and send it. A credential found in the input never reaches the text: it becomes a
/// `{{name}}` reference with a `secret name` line, and the values are handed back apart
/// (``Imported/secrets``) for a session that runs the import at once.
public enum Importer {
    public enum Format: String, CaseIterable, Sendable {
        case curl, har, postman
    }

    /// What an import came to.
    public struct Imported: Sendable {
        /// The session file's text.
        public var text: String
        public var requests: Int
        /// Credentials found in the input, by the name the file asks for them with.
        public var secrets: [(name: String, value: String)]
        /// What was not imported and why (scripts, auth kinds Fathom does not speak).
        public var notes: [String]
    }

    /// A request read from the input.
    struct Request {
        var title: String?
        var method: String
        var url: String
        var headers: [(name: String, value: String)] = []
        var body: Body = .none
    }

    enum Body {
        case none
        case text(String)
        case form([(name: String, value: String)])
        case multipart([RequestItem])
    }

    /// Why a file could not be imported, as one line (`fathom import` prints it).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `path` as a session file, for `fathom import`.
    ///
    /// - Throws: ``Failure`` naming the file and, for JSON, the line and column.
    public static func sessionFile(from path: String, format: Format? = nil) throws -> Imported {
        do {
            return try read(path, format: format)
        } catch {
            throw Failure(description: error.message + (error.hint.map { " — \($0)" } ?? ""))
        }
    }

    /// Reads `path` in `format`, or the format its content shows.
    ///
    /// - Throws: ``CommandError`` naming the file and, for JSON, the line and column.
    static func read(_ path: String, format: Format? = nil) throws(CommandError) -> Imported {
        let (data, name) = try contents(path)
        return try read(data, name: name, place: path, format: format)
    }

    /// Reads text given whole (a paste at the prompt): `name` for the session file's header,
    /// `place` for errors.
    static func read(
        _ data: Data, name: String, place: String, format: Format? = nil
    ) throws(CommandError)
        -> Imported
    {
        let data = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        let text = String(decoding: data, as: UTF8.self)
        switch format ?? guess(text) {
        case .curl: return try curl(text, file: name)
        case .har: return try har(try json(data, path: place), file: name)
        case .postman: return try postman(try json(data, path: place), file: name)
        }
    }

    static func guess(_ text: String) -> Format {
        let start = text.drop { $0.isWhitespace || $0 == "#" }
        if !start.hasPrefix("{") { return .curl }
        return text.contains("\"log\"") && text.contains("\"entries\"") ? .har : .postman
    }

    /// The file's bytes (a UTF-8 byte order mark, as some tools write one, left out) and name;
    /// `-` is standard input.
    private static func contents(_ path: String) throws(CommandError) -> (Data, String) {
        let read =
            path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
        guard var data = read else { throw CommandError("cannot read \(path)", hint: "nothing was imported") }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        return (data, path == "-" ? "standard input" : (path as NSString).lastPathComponent)
    }

    private static func json(_ data: Data, path: String) throws(CommandError) -> JSON {
        do {
            return try JSON(parsing: data)
        } catch {
            throw CommandError("\(path):\(error.line):\(error.column): not valid JSON: \(error.reason)")
        }
    }

    // MARK: - curl

    private static func curl(_ text: String, file: String) throws(CommandError) -> Imported {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }
        let split = try ShellWords.split(lines.joined(separator: "\n"))
        guard split.words.first == "curl" else {
            throw CommandError("\(file) does not hold a curl command", hint: "it should start with `curl`")
        }
        let invocation = try CurlInvocation.parse(Array(split.words.dropFirst())) { path in
            try Data(contentsOf: URL(fileURLWithPath: path))
        }
        var writer = Writer(file: file, format: .curl)
        if let user = invocation.user {
            writer.setting("auth basic \(user.name):\(writer.reference(user.password ?? "", named: "password"))")
        }
        if let bearer = invocation.bearer { writer.setting("auth bearer \(writer.reference(bearer, named: "token"))") }
        // The client settings the line asks for, as a `curl` line at the prompt sets them.
        if invocation.insecure { writer.setting("insecure on") }
        if let limit = invocation.redirects { writer.setting("redirects \(limit)") }
        if let timeout = invocation.timeout {
            let (seconds, attoseconds) = timeout.components
            writer.setting("timeout \(seconds * 1000 + attoseconds / 1_000_000_000_000_000)ms")
        }
        if let proxy = invocation.proxy {
            writer.setting("proxy \(Writer.word(writer.proxyURL(proxy)))")
        }
        // One request per URL, as curl sends them.
        for url in invocation.urls {
            var request = Request(title: nil, method: invocation.method.rawValue, url: url)
            request.headers = invocation.headers(for: url)
            switch invocation.body {
            case .none: break
            case .text(let text): request.body = .text(text)
            case .file(let path): request.body = .text((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
            case .multipart(let items): request.body = .multipart(items)
            }
            writer.add(request)
        }
        return writer.finish()
    }

    // MARK: - HAR

    private static func har(_ document: JSON, file: String) throws(CommandError) -> Imported {
        guard case .array(let entries)? = document["log"]?["entries"] else {
            throw CommandError("\(file) is not a HAR log: it has no log.entries")
        }
        var writer = Writer(file: file, format: .har)
        for (index, entry) in entries.enumerated() {
            guard let request = entry["request"], let method = request["method"]?.string,
                let url = request["url"]?.string
            else {
                throw CommandError("\(file): entry \(index + 1) has no request with a method and a URL")
            }
            var imported = Request(title: nil, method: method, url: url)
            for header in request["headers"]?.array ?? [] {
                guard let name = header["name"]?.string, let value = header["value"]?.string else { continue }
                imported.headers.append((name, value))
            }
            if let post = request["postData"] {
                if let text = post["text"]?.string {
                    imported.body = .text(text)
                } else if let params = post["params"]?.array {
                    imported.body = .form(
                        params.compactMap { param in
                            param["name"]?.string.map { ($0, param["value"]?.string ?? "") }
                        })
                }
            }
            writer.add(imported)
        }
        return writer.finish()
    }

    // MARK: - Postman

    private static func postman(_ document: JSON, file: String) throws(CommandError) -> Imported {
        guard let info = document["info"], case .array(let items)? = document["item"] else {
            throw CommandError("\(file) is not a Postman collection: it has no info and item")
        }
        let schema = info["schema"]?.string ?? info["_postman_schema"]?.string ?? ""
        // `…/collection/v2.1.0/…`, `…/collection/v2/…`, `…#2.0.0`: version 2.
        guard schema.isEmpty || schema.range(of: #"v2([./]|$)|#2\."#, options: .regularExpression) != nil else {
            throw CommandError(
                "\(file) is a Postman collection of another version (\(schema))",
                hint: "export it as Collection v2.1 from Postman")
        }
        var writer = Writer(file: file, format: .postman)
        writer.variables(document["variable"])
        writer.auth(postmanAuth: document["auth"], scope: "the collection")
        writer.scripts(document["event"], scope: "the collection")
        func walk(_ items: [JSON], folder: [String]) {
            for item in items {
                let name = item["name"]?.string ?? "unnamed"
                if case .array(let children)? = item["item"] {
                    writer.note("# folder: \((folder + [name]).joined(separator: " / "))")
                    writer.variables(item["variable"])
                    writer.auth(postmanAuth: item["auth"], scope: "folder \(name)")
                    writer.scripts(item["event"], scope: "folder \(name)")
                    walk(children, folder: folder + [name])
                    continue
                }
                guard let request = item["request"] else { continue }
                writer.variables(item["variable"])
                writer.auth(postmanAuth: request["auth"], scope: "request \(name)")
                writer.scripts(item["event"], scope: "request \(name)")
                writer.add(postmanRequest(request, title: (folder + [name]).joined(separator: " / ")))
            }
        }
        walk(items, folder: [])
        return writer.finish()
    }

    private static func postmanRequest(_ request: JSON, title: String) -> Request {
        // A request may be only its URL.
        if let url = request.string { return Request(title: title, method: "GET", url: url) }
        var imported = Request(
            title: title, method: request["method"]?.string ?? "GET", url: postmanURL(request["url"]))
        for header in request["header"]?.array ?? [] where header["disabled"] != .bool(true) {
            guard let key = header["key"]?.string else { continue }
            imported.headers.append((key, header["value"]?.string ?? ""))
        }
        if let body = request["body"], body["disabled"] != .bool(true) {
            switch body["mode"]?.string {
            case "raw": imported.body = .text(body["raw"]?.string ?? "")
            case "urlencoded":
                imported.body = .form(
                    (body["urlencoded"]?.array ?? []).compactMap { field in
                        guard field["disabled"] != .bool(true), let key = field["key"]?.string else { return nil }
                        return (key, field["value"]?.string ?? "")
                    })
            case "formdata":
                imported.body = .multipart(
                    (body["formdata"]?.array ?? []).compactMap { field in
                        guard field["disabled"] != .bool(true), let key = field["key"]?.string else { return nil }
                        if field["type"]?.string == "file" { return .file(name: key, path: field["src"]?.string ?? "") }
                        return .field(name: key, value: field["value"]?.string ?? "")
                    })
            default: break
            }
        }
        return imported
    }

    /// A URL as a string, or as an object (`raw`, else host, path and enabled query items).
    private static func postmanURL(_ url: JSON?) -> String {
        guard let url else { return "" }
        if let text = url.string { return text }
        let host = (url["host"]?.array?.compactMap(\.string)).map { $0.joined(separator: ".") } ?? url["host"]?.string
        let path = (url["path"]?.array?.compactMap(\.string)).map { $0.joined(separator: "/") } ?? url["path"]?.string
        let query = (url["query"]?.array ?? []).compactMap { item -> String? in
            guard item["disabled"] != .bool(true), let key = item["key"]?.string else { return nil }
            return item["value"]?.string.map { "\(key)=\($0)" } ?? key
        }
        if let host {
            let scheme = url["protocol"]?.string.map { "\($0)://" } ?? ""
            let port = url["port"]?.string.map { ":\($0)" } ?? ""
            return scheme + host + port + (path.map { "/" + $0 } ?? "")
                + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        }
        return url["raw"]?.string ?? ""
    }
}

extension JSON {
    fileprivate var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    fileprivate var array: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

extension Importer {
    /// A HAR log as a replay takes it: the session file its requests make, the responses it
    /// holds as the recording (`fathom replay FILE.har --compare`), and its credentials as the
    /// values of the secrets the file asks for.
    static func harReplay(
        _ path: String, redactor: Redactor
    ) throws(CommandError) -> (file: SessionFile, recording: Recording, secrets: [(name: String, value: String)]) {
        // Read and parsed once: the requests and the recording come from the same document.
        let (data, name) = try contents(path)
        let document = try json(data, path: path)
        let imported = try har(document, file: name)
        let file: SessionFile
        do {
            file = try SessionFile.parse(imported.text, path: path)
        } catch {
            throw CommandError(error.description)
        }
        guard case .array(let entries)? = document["log"]?["entries"] else { throw CommandError("cannot read \(path)") }
        for (_, value) in imported.secrets { redactor.addSecret(value) }
        var recorded: [Recording.Entry] = []
        for (index, entry) in entries.enumerated() {
            guard let response = entry["response"], case .number(let statusText)? = response["status"],
                let status = Int(statusText), status > 0
            else { continue }  // a request that got no response has nothing to compare
            let url = entry["request"]?["url"]?.string.flatMap { try? RequestURL(parsing: $0) }
            let content = response["content"]
            let contentType = content?["mimeType"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            var body = Data((content?["text"]?.string ?? "").utf8)
            if content?["encoding"]?.string == "base64", let text = content?["text"]?.string {
                body = Data(base64Encoded: text) ?? body
            }
            recorded.append(
                Recording.Entry(
                    request: index + 1, line: nil, method: entry["request"]?["method"]?.string ?? "GET",
                    path: redactor.redact(url?.path ?? "/"), status: status, contentType: contentType,
                    body: Recording.body(body, contentType: contentType, redactor: redactor)))
        }
        return (file, Recording(session: name, entries: recorded), imported.secrets)
    }
}
