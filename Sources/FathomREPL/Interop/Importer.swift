import FathomHTTP
import FathomJSON
import Foundation

/// Requests from another tool — a curl line, a HAR 1.2 log, a Postman v2.0/v2.1 collection — as
/// command values: settings and secrets first, then each request as the commands that build and
/// send it. `fathom import` writes their lines; the prompt runs them; `fathom replay FILE.har`
/// replays them. A credential found in the input never reaches a command: it becomes a
/// `{{name}}` reference, and its value is handed back apart (``Imported/secrets``) for a session
/// that runs the import at once.
public enum Importer {
    public enum Format: String, CaseIterable, Sendable {
        case curl, har, postman
    }

    /// A part of the input that could not come in.
    public enum Note: Sendable, Equatable {
        /// A Postman script (`prerequest`, `test`) of the collection, a folder or a request.
        case script(kind: String, scope: String)
        /// A Postman auth type Fathom does not speak.
        case auth(type: String, scope: String)
        /// A header whose name no request can carry (not an HTTP token), left out.
        case header(name: String, scope: String)
        /// A request whose method no request can carry, left out.
        case method(name: String, scope: String)
    }

    /// One line of an imported session file.
    enum Line: Sendable {
        case comment(String)
        case blank
        case command(any Command)
    }

    /// What an import came to.
    public struct Imported: Sendable {
        /// What the input was, for the file's first comment (`api.har`, `standard input`).
        var source: String
        var format: Format
        var lines: [Line]
        public var requests: Int
        /// Credentials found in the input, by the name the file asks for them with.
        public var secrets: [(name: String, value: String)]
        /// What was not imported and why (scripts, auth kinds Fathom does not speak).
        public var notes: [Note]

        /// The commands, in order.
        var commands: [any Command] {
            lines.compactMap { if case .command(let command) = $0 { command } else { nil } }
        }

        /// The session file's text: a comment naming the source and how to replay it, the
        /// `secret NAME` lines, what was not imported, then every line.
        public var text: String {
            var out = Self.header(source: source, format: format, secrets: secrets.map(\.name), notes: notes)
            for line in lines {
                switch line {
                case .comment(let text): out.append("# " + text)
                case .blank: out.append("")
                case .command(let command): out.append(command.line)
                }
            }
            return out.joined(separator: "\n") + "\n"
        }

        /// The commands as the entries of a session file at `path`, each on the line ``text``
        /// writes it on: what the prompt and a replay run.
        func sessionFile(path: String) -> SessionFile {
            var number = Self.header(source: source, format: format, secrets: secrets.map(\.name), notes: notes)
                .count
            var entries: [SessionFile.Entry] = []
            for line in lines {
                number += 1
                guard case .command(let command) = line else { continue }
                let text = command.line
                entries.append(SessionFile.Entry(line: number, text: text, command: command))
                number += text.filter { $0 == "\n" }.count
            }
            return SessionFile(path: path, entries: entries)
        }

        private static func header(source: String, format: Format, secrets: [String], notes: [Note]) -> [String] {
            let stem = source == "standard input" ? "FILE" : (source as NSString).deletingPathExtension
            var out = [
                "# Fathom session imported from \(source) (\(format.rawValue)). Replay it with: fathom replay \(stem).fathom"
            ]
            if !secrets.isEmpty {
                let keys = secrets.map { DotEnv.secretKey(for: $0) }.joined(separator: ", ")
                out.append("# Credentials are read by name, never written: \(keys) (or .env, or a prompt).")
                out += secrets.map { SecretCommand(name: $0, value: nil).line }
            }
            out += notes.map { "# not imported: \($0)" }
            return out
        }
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
            throw Failure(description: error.message + (error.advice.map { " — \($0)" } ?? ""))
        }
    }

    /// Reads `path` in `format`, or the format its content shows.
    ///
    /// - Parameter taken: Variables the importing session has (name and value): a credential
    ///   that would take one of those names with another value gets a name of its own.
    /// - Throws: ``CommandError`` naming the file and, for JSON, the line and column.
    static func read(
        _ path: String, format: Format? = nil, taken: [String: String] = [:]
    ) throws(CommandError)
        -> Imported
    {
        let (data, name) = try contents(path)
        return try read(data, name: name, place: path, format: format, taken: taken)
    }

    /// Reads text given whole (a paste at the prompt): `name` for the session file's header,
    /// `place` for errors; `readFile` reads what a curl line names into itself (`-H @file`).
    static func read(
        _ data: Data, name: String, place: String, format: Format? = nil, taken: [String: String] = [:],
        readFile: (String) throws -> Data = { try CurlInvocation.readFile(Executor.expandTilde($0)) }
    ) throws(CommandError) -> Imported {
        let data = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        let text = String(decoding: data, as: UTF8.self)
        var builder = Builder(taken: taken)
        let chosen = format ?? guess(text)
        switch chosen {
        case .curl: try curl(text, file: name, into: &builder, readFile: readFile)
        case .har: try har(try json(data, path: place), file: name, into: &builder)
        case .postman: try postman(try json(data, path: place), file: name, into: &builder)
        }
        return builder.finish(source: name, format: chosen)
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
        guard var data = read else {
            throw CommandError(.file, .cannotRead(path: path, reason: nil), hint: "nothing was imported")
        }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        return (data, path == "-" ? "standard input" : (path as NSString).lastPathComponent)
    }

    private static func json(_ data: Data, path: String) throws(CommandError) -> JSON {
        do {
            return try JSON(parsing: data)
        } catch {
            throw CommandError(.file, "\(path):\(error.line):\(error.column): not valid JSON: \(error.reason)")
        }
    }

    // MARK: - curl

    private static func curl(
        _ text: String, file: String, into builder: inout Builder, readFile: (String) throws -> Data
    ) throws(CommandError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }
        let split = try ShellWords.split(lines.joined(separator: "\n"))
        guard split.words.first == "curl" else {
            throw CommandError(.file, "\(file) does not hold a curl command", hint: "it should start with `curl`")
        }
        let invocation = try CurlInvocation.parse(Array(split.words.dropFirst()), read: readFile)
        builder.curl(invocation)
    }

    // MARK: - HAR

    private static func har(_ document: JSON, file: String, into builder: inout Builder) throws(CommandError) {
        guard case .array(let entries)? = document["log"]?["entries"] else {
            throw CommandError(.file, "\(file) is not a HAR log: it has no log.entries")
        }
        for (index, entry) in entries.enumerated() {
            guard let request = entry["request"], let method = request["method"]?.string,
                let url = request["url"]?.string
            else {
                throw CommandError(.file, "\(file): entry \(index + 1) has no request with a method and a URL")
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
            if case .number(let text)? = entry["response"]?["status"], let status = Int(text), status > 0 {
                imported.status = status
            }
            builder.add(imported)
        }
    }

    // MARK: - Postman

    private static func postman(_ document: JSON, file: String, into builder: inout Builder) throws(CommandError) {
        guard let info = document["info"], case .array(let items)? = document["item"] else {
            throw CommandError(.file, "\(file) is not a Postman collection: it has no info and item")
        }
        let schema = info["schema"]?.string ?? info["_postman_schema"]?.string ?? ""
        // `…/collection/v2.1.0/…`, `…/collection/v2/…`, `…#2.0.0`: version 2.
        guard schema.isEmpty || schema.range(of: #"v2([./]|$)|#2\."#, options: .regularExpression) != nil else {
            throw CommandError(
                .file, "\(file) is a Postman collection of another version (\(schema))",
                hint: "export it as Collection v2.1 from Postman")
        }
        builder.variables(document["variable"])
        builder.scripts(document["event"], scope: "the collection")
        // Auth as Postman resolves it: the request's own, else the nearest folder's, else the
        // collection's; `noauth` on the way is a choice of none.
        let collectionAuth = builder.auth(postman: document["auth"], scope: "the collection")
        func walk(_ items: [JSON], folder: [String], inherited: PostmanAuth) {
            for item in items {
                let name = item["name"]?.string ?? "unnamed"
                if case .array(let children)? = item["item"] {
                    builder.comment("folder: \((folder + [name]).joined(separator: " / "))")
                    builder.variables(item["variable"])
                    builder.scripts(item["event"], scope: "folder \(name)")
                    let own = builder.auth(postman: item["auth"], scope: "folder \(name)")
                    walk(children, folder: folder + [name], inherited: own == .inherit ? inherited : own)
                    continue
                }
                guard let request = item["request"] else { continue }
                builder.variables(item["variable"])
                builder.scripts(item["event"], scope: "request \(name)")
                let own = builder.auth(postman: request["auth"], scope: "request \(name)")
                var imported = postmanRequest(request, title: (folder + [name]).joined(separator: " / "))
                imported.auth = own == .inherit ? inherited : own
                if case .number(let text)? = item["response"]?.array?.first?["code"], let code = Int(text) {
                    imported.status = code
                }
                builder.add(imported)
            }
        }
        walk(items, folder: [], inherited: collectionAuth)
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
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var array: [JSON]? {
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
        var builder = Builder(taken: [:])
        try har(document, file: name, into: &builder)
        let imported = builder.finish(source: name, format: .har)
        guard case .array(let entries)? = document["log"]?["entries"] else {
            throw CommandError(.file, .cannotRead(path: path, reason: nil))
        }
        for (_, value) in imported.secrets { redactor.addSecret(value) }
        var recording = Recording(session: name)
        var identities = RequestIdentities()
        for (index, entry) in entries.enumerated() {
            let url = entry["request"]?["url"]?.string.flatMap { try? RequestURL(parsing: $0) }
            let method = entry["request"]?["method"]?.string ?? "GET"
            // Counted whether or not it was answered: the replay sends it all the same.
            let identity = identities.next(method: method, target: url?.path ?? "/")
            guard let response = entry["response"], case .number(let statusText)? = response["status"],
                let status = Int(statusText), status > 0
            else { continue }  // a request that got no response has nothing to compare
            let content = response["content"]
            let contentType = content?["mimeType"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            var body = Data((content?["text"]?.string ?? "").utf8)
            if content?["encoding"]?.string == "base64", let text = content?["text"]?.string {
                body = Data(base64Encoded: text) ?? body
            }
            let recorded = RecordedResponse(
                method: method, target: url?.path ?? "/", path: url?.path ?? "/", status: status,
                contentType: contentType, body: body)
            recording.entries.append(
                recording.entry(recorded, identity: identity, position: index + 1, line: nil, redactor: redactor))
        }
        return (imported.sessionFile(path: path), recording, imported.secrets)
    }
}
