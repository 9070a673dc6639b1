import FathomHTTP

/// `auth bearer|basic|apikey|oauth2 … | none`: how every request is authorized. The credentials
/// are secrets; the library's authenticators put them on the wire (``Executor/authenticator()``).
struct AuthCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "auth",
        synopsis:
            "auth bearer TOKEN | basic USER[:PASS] | apikey header|query NAME VALUE | oauth2 client-credentials URL ID SECRET [SCOPE] | none",
        summary: "how every request is authorized",
        details: """
            `basic USER` asks for the password without echo. OAuth2 tokens are fetched on first use, \
            cached until they expire, and fetched again on a 401. Credentials are secrets: masked everywhere.
            """,
        completion: .words(["bearer", "basic", "apikey", "oauth2", "none"]), group: .session)

    /// `nil` shows how requests are authorized.
    var auth: AuthSpec?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        AuthCommand(auth: try auth(&arguments))
    }

    var logKind: SessionLog.Kind? { auth == nil ? nil : .setting }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard var spec = auth else {
            return .shows(.value(name: "auth", value: executor.describe(executor.session.auth)))
        }
        let variables = executor.session.variables
        let redactor = executor.redactor
        switch spec {
        case .none: break
        case .bearer(let token): redactor.addSecret(try variables.expand(token))
        case .basic(let user, let password):
            let typed: String
            if let password {
                typed = try variables.expand(password)
            } else {
                guard let answer = await executor.options.prompter.readSecret(prompt: "password for \(user): "),
                    !answer.isEmpty
                else {
                    throw CommandError(
                        "auth basic \(user) needs a password", hint: "write USER:PASS, or run on a terminal to be asked"
                    )
                }
                typed = answer
                spec = .basic(user: user, password: answer)
            }
            redactor.addSecret(typed)
            // The header carries base64 of `user:password`: that spelling is the same secret.
            redactor.addSecret(ClosureAuthenticator.basicCredentials(user: try variables.expand(user), password: typed))
        case .apiKey(let placement, let name, let value):
            redactor.addSecret(try variables.expand(value))
            switch placement {
            case .header: redactor.markSecretHeader(NetworkHeaders.Name(name))
            case .query: redactor.markSecretQuery(name)
            }
        case .oauth2ClientCredentials(let url, let id, let secret, let scope):
            let tokenURL = try variables.expand(url)
            if tokenURL.contains("://") { _ = try RequestURL(parsing: tokenURL) }
            _ = try variables.expand(id)
            _ = try scope.map { try variables.expand($0) }
            redactor.addSecret(try variables.expand(secret))
        }
        executor.session.auth = spec
        return .done
    }

    private static func auth(_ a: inout Arguments) throws(CommandError) -> AuthSpec? {
        guard let kind = try a.optionalWord() else { return nil }
        switch kind.text.lowercased() {
        case "none":
            try a.end()
            return AuthSpec.none
        case "bearer": return .bearer(try a.single("a token").text)
        case "basic":
            let credentials = try a.single("a user name").text
            if let colon = credentials.firstIndex(of: ":") {
                return .basic(
                    user: String(credentials[..<colon]),
                    password: String(credentials[credentials.index(after: colon)...])
                )
            }
            return .basic(user: credentials, password: nil)
        case "apikey":
            let placement = try a.word("header or query")
            guard let where_ = AuthSpec.ApiKeyPlacement(rawValue: placement.text.lowercased()) else {
                throw a.badChoice(placement, ["header", "query"])
            }
            let name = try a.word("the key's name").text
            let value = try a.single("the key's value").text
            return .apiKey(where_, name: name, value: value)
        case "oauth2":
            let flow = try a.word("client-credentials")
            guard flow.text.lowercased() == "client-credentials" else {
                throw a.badChoice(flow, ["client-credentials"])
            }
            let url = try a.word("the token URL").text
            let id = try a.word("the client ID").text
            let secret = try a.word("the client secret").text
            let scope = try a.optionalWord()?.text
            try a.end()
            return .oauth2ClientCredentials(tokenURL: url, clientID: id, clientSecret: secret, scope: scope)
        default:
            throw a.badChoice(kind, ["bearer", "basic", "apikey", "oauth2", "none"])
        }
    }
}
