import FathomJSON
import Foundation

extension Importer {
    /// Writes imported requests as the lines of a session file.
    struct Writer {
        let file: String
        let format: Format
        private var settings: [String] = []
        private var lines: [String] = []
        private var secrets: [(name: String, value: String)] = []
        private var notes: [String] = []
        private var requests = 0

        init(file: String, format: Format) {
            self.file = file
            self.format = format
        }

        /// Headers a client sets for itself (or HTTP/2 pseudo-headers a HAR records).
        private static let skipped: Set<String> = ["host", "content-length", "connection", "accept-encoding"]
        /// Headers that carry credentials.
        private static let credentials: Set<String> = [
            "authorization", "proxy-authorization", "cookie", "x-api-key", "api-key", "apikey", "x-auth-token",
        ]

        mutating func add(_ request: Request) {
            let url = credentialsInQuery(request.url)
            lines.append("")
            lines.append("# " + (request.title ?? "\(request.method) \(url)"))
            lines.append("reset")
            if request.method != "GET" { lines.append("method \(request.method)") }
            lines.append("path \(Self.word(url))")
            for (name, value) in request.headers {
                let lowered = name.lowercased()
                guard !lowered.hasPrefix(":"), !Self.skipped.contains(lowered) else { continue }
                let isCredential =
                    Self.credentials.contains(lowered)
                    || (SecretNames.looksSecret(name) && !lowered.hasPrefix("access-control-"))
                let shown = isCredential ? reference(value, named: Self.variableName(lowered)) : value
                lines.append("header \(name): \(shown)")
            }
            switch request.body {
            case .none: break
            case .text(let text) where text.isEmpty: break
            case .text(let raw):
                let text = credentialsInJSON(raw)
                var marker = "EOF"
                while text.split(separator: "\n").contains(where: { $0 == marker }) { marker += "_" }
                lines.append("body <<\(marker)")
                lines.append(text)
                lines.append(marker)
            case .form(let pairs):
                lines.append(
                    "body form "
                        + pairs.map { Self.word("\($0.name)=\(credential(named: $0.name, $0.value))") }
                        .joined(separator: " "))
            case .multipart(let items):
                let items = items.map { item -> RequestItem in
                    guard case .field(let name, let value) = item else { return item }
                    return .field(name: name, value: credential(named: name, value))
                }
                lines.append("body multipart " + items.map { Self.word($0.text) }.joined(separator: " "))
            }
            lines.append("send")
            requests += 1
        }

        /// A field's value, or a reference when its name says it holds a credential
        /// (`password`, `api_key`, `client_secret`…), as `save` treats fields typed at the prompt.
        mutating func credential(named name: String, _ value: String) -> String {
            SecretNames.looksSecret(name) ? reference(value, named: Self.variableName(name.lowercased())) : value
        }

        /// The URL with credential-named query values (`?api_key=…`) as references.
        mutating func credentialsInQuery(_ url: String) -> String {
            guard let mark = url.firstIndex(of: "?") else { return url }
            let pairs = url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map {
                pair -> String in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                let name = String(pair[..<equals])
                return name + "=" + credential(named: name, String(pair[pair.index(after: equals)...]))
            }
            return url[...mark] + pairs.joined(separator: "&")
        }

        /// A JSON body with the string values of credential-named members as references.
        mutating func credentialsInJSON(_ text: String) -> String {
            guard text.first == "{" || text.first == "[", let document = try? JSON(parsing: text) else { return text }
            var result = text
            func walk(_ value: JSON) {
                switch value {
                case .object(let members):
                    for member in members {
                        // Only values written as they are (no escapes): they are found in the text as is.
                        if case .string(let string) = member.value, SecretNames.looksSecret(member.key),
                            !string.contains("\""), !string.contains("\\")
                        {
                            let reference = credential(named: member.key, string)
                            result = result.replacingOccurrences(of: "\"\(string)\"", with: "\"\(reference)\"")
                        }
                        walk(member.value)
                    }
                case .array(let elements): elements.forEach(walk)
                default: break
                }
            }
            walk(document)
            return result
        }

        /// `{{name}}` for a credential, its value kept apart; a `{{variable}}` stays as it is.
        mutating func reference(_ value: String, named base: String) -> String {
            if value.contains("{{") || value.isEmpty { return value }
            if let known = secrets.first(where: { $0.value == value }) { return "{{\(known.name)}}" }
            var name = base
            var counter = 2
            while secrets.contains(where: { $0.name == name }) {
                name = base + "\(counter)"
                counter += 1
            }
            secrets.append((name, value))
            return "{{\(name)}}"
        }

        /// curl's proxy as Fathom's `proxy` setting takes it (a URL), its password a reference.
        mutating func proxyURL(_ given: String) -> String {
            let url = CurlInvocation.proxyURL(given)
            guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
                let colon = url[scheme.upperBound..<at].firstIndex(of: ":"), url.index(after: colon) < at
            else { return url }
            let password = String(url[url.index(after: colon)..<at])
            return String(url[...colon]) + reference(password, named: "proxy_password") + String(url[at...])
        }

        /// A line for the whole session (auth, client settings), written before the requests.
        mutating func setting(_ line: String) { settings.append(line) }

        mutating func note(_ comment: String) { lines.append(comment) }

        /// Postman's `variable` array: `set` lines, or `secret` for secret-looking names.
        mutating func variables(_ json: JSON?) {
            guard case .array(let variables)? = json else { return }
            for variable in variables {
                guard case .string(let name)? = variable["key"] ?? variable["id"], !name.isEmpty else { continue }
                let value: String
                switch variable["value"] {
                case .string(let text)?: value = text
                case .number(let text)?: value = text
                case .bool(let flag)?: value = String(flag)
                default: continue
                }
                if SecretNames.looksSecret(name) {
                    if !secrets.contains(where: { $0.name == name }) {
                        secrets.append((Self.variableName(name), value))
                    }
                } else {
                    settings.append("set \(Self.variableName(name)) = \(value)")
                }
            }
        }

        /// Postman's `auth` block: basic, bearer and API keys as `auth` lines; others named in a note.
        mutating func auth(postmanAuth json: JSON?, scope: String) {
            guard let json, case .string(let type)? = json["type"] else { return }
            func value(_ key: String) -> String? {
                // v2.1: an array of {key, value}; v2.0: an object.
                if case .array(let pairs)? = json[type] {
                    for pair in pairs where pair["key"] == .string(key) {
                        if case .string(let text)? = pair["value"] { return text }
                    }
                    return nil
                }
                if case .string(let text)? = json[type]?[key] { return text }
                return nil
            }
            let line: String
            switch type {
            case "noauth": line = "auth none"
            case "basic":
                line = "auth basic \(value("username") ?? ""):\(reference(value("password") ?? "", named: "password"))"
            case "bearer": line = "auth bearer \(reference(value("token") ?? "", named: "token"))"
            case "apikey":
                let placement = value("in") == "query" ? "query" : "header"
                line =
                    "auth apikey \(placement) \(value("key") ?? "X-API-Key") \(reference(value("value") ?? "", named: "api_key"))"
            default:
                notes.append(
                    "\(type) auth of \(scope) is not imported: Fathom speaks basic, bearer, API keys and OAuth2 client credentials"
                )
                return
            }
            if scope == "the collection" { settings.append(line) } else { lines.append(line) }
        }

        /// Pre-request and test scripts cannot run: each one named.
        mutating func scripts(_ json: JSON?, scope: String) {
            guard case .array(let events)? = json else { return }
            for event in events {
                guard case .string(let listen)? = event["listen"], case .array(let exec)? = event["script"]?["exec"],
                    !exec.isEmpty
                else { continue }
                let kind = listen == "prerequest" ? "pre-request script" : "\(listen) script"
                notes.append("the \(kind) of \(scope) cannot run in Fathom and was skipped")
            }
        }

        func finish() -> Imported {
            let stem = file == "standard input" ? "FILE" : (file as NSString).deletingPathExtension
            var out = [
                "# Fathom session imported from \(file) (\(format.rawValue)). Replay it with: fathom replay \(stem).fathom"
            ]
            if !secrets.isEmpty {
                let keys = secrets.map { DotEnv.secretKey(for: $0.name) }.joined(separator: ", ")
                out.append("# Credentials are read by name, never written: \(keys) (or .env, or a prompt).")
                out += secrets.map { "secret \($0.name)" }
            }
            out += notes.map { "# not imported: \($0)" }
            out += settings
            out += lines
            return Imported(
                text: out.joined(separator: "\n") + "\n", requests: requests, secrets: secrets, notes: notes)
        }

        /// `client-secret` → `client_secret`.
        static func variableName(_ text: String) -> String {
            let name = String(text.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
            return name.first?.isLetter == true || name.first == "_" ? name : "v_" + name
        }

        /// A word the command language reads back as `text`.
        static func word(_ text: String) -> String {
            let plain = !text.isEmpty && !text.contains { " \t\n'\"\\#".contains($0) }
            if plain { return text }
            if !text.contains("'") { return "'\(text)'" }
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
    }
}
