import FathomHTTP
import FathomJSON
import Foundation

extension Importer {
    /// A request read from the input.
    struct Request {
        var title: String?
        var method: String
        var url: String
        var headers: [(name: String, value: String)] = []
        var body: Body = .none
        /// Postman's auth for this request, resolved through its folders and collection.
        var auth: PostmanAuth = .inherit
        /// The status the source recorded (a HAR response, a Postman example): `expect status` checks it.
        var status: Int?
        /// The headers are what a person wrote (a curl line), not what a client recorded sending
        /// (a HAR): each goes as written, `Host` and `Accept-Encoding` included.
        var headersAsWritten = false
        /// A client certificate and CA for this request alone (curl's `--cert`, `--cacert`).
        var certificate: CertCommand?
    }

    enum Body {
        case none
        case text(String)
        case form([(name: String, value: String)])
        case multipart([RequestItem])
        /// A file named in the input, read when the request is sent.
        case file(String)
        /// A file uploaded as it is, with no Content-Type (curl's `-T`).
        case upload(String)
        /// curl's `-d` pieces with files among them: named, read when the request is sent.
        case data([BodySpec.DataPiece])
    }

    /// A Postman `auth` block as it applies to a request.
    enum PostmanAuth: Equatable {
        /// Absent or `null`: the parent's.
        case inherit
        /// `noauth`, or a type Fathom does not speak: no credentials.
        case none
        case auth(AuthSpec)
    }

    /// Builds the command values of an import: a request's `reset`, `method`, `path`, headers,
    /// own credentials, body, `send` and `expect status`; settings a curl line asks for; Postman
    /// variables. Credentials become `{{name}}` references with their values kept apart.
    struct Builder {
        private var settings: [Line] = []
        private var lines: [Line] = []
        private var secrets: [(name: String, value: String)] = []
        private var notes: [Note] = []
        private var requests = 0
        /// Variables of the session importing: a credential named like one of them, with another
        /// value, takes another name.
        private let taken: [String: String]

        init(taken: [String: String]) {
            self.taken = taken
        }

        /// Headers a client sets for itself (or HTTP/2 pseudo-headers a HAR records).
        private static let skipped: Set<String> = ["host", "content-length", "connection", "accept-encoding"]
        /// Of those, what even a header written by hand leaves to the client: the body's length.
        private static let alwaysSkipped: Set<String> = ["content-length"]
        /// Headers that carry credentials.
        private static let credentials: Set<String> = [
            "authorization", "proxy-authorization", "cookie", "x-api-key", "api-key", "apikey", "x-auth-token",
        ]

        mutating func add(_ request: Request) {
            guard CommandParser.isMethod(request.method) else {
                notes.append(.method(name: request.method, scope: request.title ?? request.url))
                return
            }
            let url = credentialsInQuery(request.url)
            lines.append(.blank)
            lines.append(.comment(request.title ?? "\(request.method) \(url)"))
            lines.append(.command(ResetCommand()))
            if request.method != "GET" {
                lines.append(.command(MethodCommand(method: HTTPMethod(rawValue: request.method))))
            }
            lines.append(.command(PathCommand(target: url)))
            var headers: [HeaderEdit] = []
            for (name, value) in request.headers {
                let lowered = name.lowercased()
                guard !lowered.hasPrefix(":"),
                    !(request.headersAsWritten ? Self.alwaysSkipped : Self.skipped).contains(lowered)
                else { continue }
                guard (try? CommandParser.checkHeaderName(name, column: 1)) != nil else {
                    // A `header` line could not carry it, and no server would take it.
                    notes.append(.header(name: name, scope: request.title ?? "\(request.method) \(url)"))
                    continue
                }
                let isCredential =
                    Self.credentials.contains(lowered)
                    || (SecretNames.looksSecret(name) && !lowered.hasPrefix("access-control-"))
                let shown = isCredential ? reference(value, named: SecretNames.variableName(name)) : value
                headers.append(.set(name: name, value: shown))
            }
            // One line per header: a header line holds one `Name: value`.
            for header in headers { lines.append(.command(HeaderCommand(edits: [header]))) }
            switch request.auth {
            case .inherit: break
            case .none: lines.append(.command(AuthCommand(scope: .draft, auth: AuthSpec.none)))
            case .auth(let auth): lines.append(.command(AuthCommand(scope: .draft, auth: auth)))
            }
            if let certificate = request.certificate { lines.append(.command(certificate)) }
            switch request.body {
            case .none, .text(""): break
            case .text(let raw):
                let text = credentialsInJSON(raw)
                // Sent exactly as it came, unless a credential in it is now a `{{reference}}`.
                lines.append(.command(BodyCommand(body: text == raw ? .raw(raw) : .text(text))))
            case .form(let pairs):
                let fields = pairs.map { BodySpec.Field(name: $0.name, value: credential(named: $0.name, $0.value)) }
                lines.append(.command(BodyCommand(body: .form(fields))))
            case .multipart(let items):
                let items = items.map { item -> RequestItem in
                    guard case .field(let name, let value) = item else { return item }
                    return .field(name: name, value: credential(named: name, value))
                }
                lines.append(.command(BodyCommand(body: .multipart(items))))
            case .file(let path):
                lines.append(.command(BodyCommand(body: .file(path))))
            case .upload(let path):
                lines.append(.command(BodyCommand(body: .upload(path))))
            case .data(let pieces):
                lines.append(.command(BodyCommand(body: .data(pieces))))
            }
            lines.append(.command(SendCommand()))
            if let status = request.status {
                lines.append(
                    .command(
                        ExpectCommand(expectation: Expectation(subject: .status, op: .equal, operand: "\(status)"))))
            }
            requests += 1
        }

        /// A curl line: the client settings it asks for (`-k`, `-L`, `--max-time`, `-x`), then one
        /// request per URL, each with the line's credentials (`-u`, `--oauth2-bearer`) as its own.
        mutating func curl(_ invocation: CurlInvocation) {
            if invocation.insecure { settings.append(.command(InsecureCommand(on: true))) }
            if let limit = invocation.redirects { settings.append(.command(RedirectsCommand(setting: .set(limit)))) }
            if let timeout = invocation.timeout { settings.append(.command(TimeoutCommand(setting: .set(timeout)))) }
            if let proxy = invocation.proxy {
                settings.append(.command(ProxyCommand(setting: .set(proxyURL(proxy)))))
            }
            var auth = PostmanAuth.inherit
            if let user = invocation.user, invocation.awsSigV4 == nil {
                auth = .auth(.basic(user: user.name, password: user.password.map { reference($0, named: "password") }))
            }
            if let bearer = invocation.bearer { auth = .auth(.bearer(reference(bearer, named: "token"))) }
            if let signing = invocation.awsSigV4 {
                // `-u` is the keys, not a user: with none, they come from the environment.
                auth = .auth(
                    .awsSigV4(
                        AWSSigning(
                            region: signing.region, service: signing.service, accessKey: invocation.user?.name,
                            secretKey: invocation.user.map {
                                reference($0.password ?? "", named: "aws_secret_access_key")
                            }
                        )))
            }
            var certificate: CertCommand?
            if invocation.certificate != nil || invocation.cacert != nil || invocation.capath != nil {
                certificate = CertCommand(
                    draft: true, certificate: invocation.certificate, key: invocation.key,
                    ca: invocation.cacert ?? invocation.capath)
                // The key's passphrase is a secret like a password: named, never written.
                if let password = invocation.certificatePassword {
                    _ = reference(password, named: CertCommand.passphraseSecret)
                }
            }
            var previous: [(name: String, value: String)]?
            for url in invocation.urls {
                let headers = invocation.headers(for: url)
                if let previous, previous.elementsEqual(headers, by: { $0.name == $1.name && $0.value == $1.value }) {
                    // The draft as the last URL had it: only the URL changes, so a line of many
                    // URLs writes each option once, not once per URL.
                    resend(to: url, method: invocation.method.rawValue)
                    continue
                }
                previous = headers
                var request = Request(title: nil, method: invocation.method.rawValue, url: url)
                request.headers = headers
                request.headersAsWritten = true
                request.auth = auth
                request.certificate = certificate
                switch invocation.body {
                case .none: break
                case .text(let text): request.body = .text(text)
                case .file(let path): request.body = .file(path)
                case .upload(let path): request.body = .upload(path)
                case .multipart(let items): request.body = .multipart(items)
                case .data(let pieces): request.body = .data(pieces)
                }
                add(request)
            }
        }

        /// The request before sent again to `url`: its `path` and `send`, the rest of the draft kept.
        mutating func resend(to url: String, method: String) {
            let url = credentialsInQuery(url)
            lines.append(.blank)
            lines.append(.comment("\(method) \(url)"))
            lines.append(.command(PathCommand(target: url)))
            lines.append(.command(SendCommand()))
            requests += 1
        }

        /// A field's value, or a reference when its name says it holds a credential
        /// (`password`, `api_key`, `client_secret`…), as `save` treats fields typed at the prompt.
        mutating func credential(named name: String, _ value: String) -> String {
            SecretNames.looksSecret(name) ? reference(value, named: SecretNames.variableName(name)) : value
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
            while secrets.contains(where: { $0.name == name }) || taken[name].map({ $0 != value }) ?? false {
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

        mutating func comment(_ text: String) { lines.append(.comment(text)) }

        /// Postman's `variable` array: `set` lines, or secrets for secret-looking names.
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
                let variable = SecretNames.variableName(name)
                if SecretNames.looksSecret(name) {
                    if !secrets.contains(where: { $0.name == variable }) { secrets.append((variable, value)) }
                } else {
                    settings.append(.command(SetCommand(name: variable, value: value)))
                }
            }
        }

        /// Postman's `auth` block: basic, bearer and API keys as credentials; `noauth` as none;
        /// other types named in a note (and sent without credentials).
        mutating func auth(postman json: JSON?, scope: String) -> PostmanAuth {
            guard let json, case .string(let type)? = json["type"] else { return .inherit }
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
            switch type {
            case "noauth": return .none
            case "basic":
                return .auth(
                    .basic(
                        user: value("username") ?? "", password: reference(value("password") ?? "", named: "password")))
            case "bearer": return .auth(.bearer(reference(value("token") ?? "", named: "token")))
            case "apikey":
                let placement: AuthSpec.ApiKeyPlacement = value("in") == "query" ? .query : .header
                let name = value("key") ?? "X-API-Key"
                return .auth(
                    .apiKey(placement, name: name, value: reference(value("value") ?? "", named: "api_key")))
            default:
                notes.append(.auth(type: type, scope: scope))
                return .none
            }
        }

        /// Pre-request and test scripts cannot run: each one named.
        mutating func scripts(_ json: JSON?, scope: String) {
            guard case .array(let events)? = json else { return }
            for event in events {
                guard case .string(let listen)? = event["listen"], case .array(let exec)? = event["script"]?["exec"],
                    !exec.isEmpty
                else { continue }
                notes.append(.script(kind: listen == "prerequest" ? "pre-request" : listen, scope: scope))
            }
        }

        func finish(source: String, format: Format) -> Imported {
            Imported(
                source: source, format: format, lines: settings + lines, requests: requests, secrets: secrets,
                notes: notes)
        }
    }
}
