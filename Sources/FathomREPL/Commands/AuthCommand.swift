import FathomHTTP

/// `auth [draft] bearer|basic|apikey|oauth2 … | none`: how requests are authorized — every request
/// to the base's API, or (`auth draft …`) the draft's request alone. The credentials are secrets;
/// the library's authenticators put them on the wire (``Executor/authenticator(_:_:)``).
struct AuthCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "auth",
        synopsis:
            "auth [draft] bearer TOKEN | basic USER[:PASS] | apikey header|query NAME VALUE | oauth2 client-credentials URL ID SECRET [SCOPE] | oauth2 authorization-code|device (URL TOKEN_URL | --issuer URL) ID [SECRET] [--scope S] [--redirect-port N] [--client-auth basic|post] | aws-sigv4 [--region R] [--service S] [--profile P] [KEY SECRET [TOKEN]] | none",
        summary: "how requests to the base's API are authorized (`draft`: the draft's request alone)",
        details: """
            Credentials belong to the API the base names: a request to another origin carries none of \
            them. `auth draft …` gives the draft's request its own (`auth draft none`: none at all); the \
            next one-liner or `reset` drops them — imports use it, so each request carries exactly its own. \
            `basic USER` asks for the password without echo. OAuth2 client-credentials tokens are fetched on \
            first use, cached until they expire, and fetched again on a 401. `oauth2 authorization-code` \
            prints the URL to open in a browser (and opens it when there is a display), listens on \
            127.0.0.1 for the browser to come back, and exchanges the code with PKCE; `oauth2 device` \
            prints a code to enter at the server's page and polls until it is approved. `--issuer URL` \
            finds the endpoints in the server's RFC 8414 metadata. Their tokens renew themselves with the \
            refresh token, are never saved, and a run without a terminal (CI, a replay) takes \
            FATHOM_SECRET_OAUTH2_REFRESH_TOKEN or FATHOM_SECRET_OAUTH2_ACCESS_TOKEN instead of a browser. `aws-sigv4` signs every request as AWS \
            specifies (Signature Version 4); region and service default to what an AWS host names, and keys \
            not written come from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN or the profile \
            (`--profile`, AWS_PROFILE, `default`) in ~/.aws/credentials — so a saved file signs in CI from \
            the environment. Credentials are secrets: masked everywhere.
            """,
        completion: .subcommands(schemes + [.init("draft", then: .subcommands(schemes))]), group: .session)

    /// What Tab offers after `auth` (and after `auth draft`): each scheme, then its own next word.
    private static let schemes: [CommandSpec.Subcommand] = [
        .init("bearer"), .init("basic"), .init("apikey", then: .words(["header", "query"])),
        .init("oauth2", then: .words(["client-credentials", "authorization-code", "device"])),
        .init("aws-sigv4", then: .words(["--region", "--service", "--profile"])), .init("none"),
    ]

    /// Whose credentials these are.
    enum Scope: Equatable, Sendable {
        /// Every request to the base's API.
        case api
        /// The draft's request alone.
        case draft
    }

    var scope: Scope = .api
    /// `nil` shows how requests are authorized.
    var auth: AuthSpec?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var copy = arguments
        if let first = try copy.optionalWord(), !first.quoted, first.text.lowercased() == "draft" {
            arguments = copy
            return AuthCommand(scope: .draft, auth: try auth(&arguments))
        }
        return AuthCommand(scope: .api, auth: try auth(&arguments))
    }

    var logKind: SessionLog.Kind? {
        guard auth != nil else { return nil }
        return scope == .draft ? .draft : .setting
    }

    var line: String {
        var writer = LineWriter("auth")
        if scope == .draft { writer.raw("draft") }
        switch auth {
        case nil: break
        case .none?: writer.raw("none")
        case .bearer(let token)?:
            writer.raw("bearer")
            writer.word(token)
        case .basic(let user, let password)?:
            writer.raw("basic")
            writer.word(user + (password.map { ":" + $0 } ?? ""))
        case .apiKey(let placement, let name, let value)?:
            writer.raw("apikey \(placement.rawValue)")
            writer.words([name, value])
        case .oauth2ClientCredentials(let url, let id, let secret, let scope)?:
            writer.raw("oauth2 client-credentials")
            writer.words([url, id, secret] + (scope.map { [$0] } ?? []))
        case .oauth2(let grant)?:
            writer.raw("oauth2")
            for word in grant.words {
                if word.raw { writer.raw(word.text) } else { writer.word(word.text) }
            }
        case .awsSigV4(let signing)?:
            writer.raw("aws-sigv4")
            for (flag, value) in signing.flags {
                writer.raw(flag)
                writer.word(value)
            }
            writer.words([signing.accessKey, signing.secretKey, signing.sessionToken].compactMap { $0 })
        }
        return writer.text
    }

    /// With a password asked for at the terminal, as it was answered (the writer names it).
    func logged(in executor: isolated Executor) -> any Command {
        guard case .basic(_, nil)? = auth else { return self }
        let settled = scope == .draft ? executor.session.draft.auth : executor.session.currentAPI?.auth
        return AuthCommand(scope: scope, auth: settled)
    }

    var declaredSecrets: [String] {
        let written: [String?] =
            switch auth {
            case .bearer(let token)?: [token]
            case .basic(_, let password)?: [password]
            case .apiKey(_, _, let value)?: [value]
            case .oauth2ClientCredentials(_, _, let secret, _)?: [secret]
            case .oauth2(let grant)?: [grant.clientSecret]
            case .awsSigV4(let signing)?: [signing.secretKey, signing.sessionToken]
            default: []
            }
        return written.compactMap { $0 }.filter { !Variables.hasReference($0) }
    }

    func credentialName(for value: String) -> String? {
        switch auth {
        case .bearer?: "token"
        case .basic?: "password"
        case .apiKey(_, let name, _)?: SecretNames.variableName(name)
        case .oauth2ClientCredentials?, .oauth2?: "client_secret"
        case .awsSigV4(let signing)?: value == signing.sessionToken ? "aws_session_token" : "aws_secret_access_key"
        default: nil
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard var spec = auth else {
            let shown =
                scope == .draft ? executor.session.draft.auth : executor.session.currentAPI?.auth ?? AuthSpec.none
            return .shows(
                .setting(SettingShown(name: "auth", value: shown.map { .text(executor.shown.auth($0)) } ?? .unset)))
        }
        // Where they go is known first: with no API, nothing is registered or asked for.
        let index = scope == .api ? try executor.currentAPIIndex(for: "auth") : nil
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
                let answer: String
                do {
                    answer = try await executor.ask(for: "password", prompt: "password for \(user): ")
                } catch is CommandError where !executor.options.prompter.canAskForSecrets {
                    throw CommandError(
                        .session, "auth basic \(user) needs a password",
                        hint: "write USER:PASS, or run on a terminal to be asked"
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
            guard self.scope == .api else {
                throw CommandError(
                    .session, "OAuth2 client credentials belong to an API, not to one request",
                    hint: "`auth oauth2 client-credentials …` sets them for the base's API")
            }
            let tokenURL = try variables.expand(url)
            if tokenURL.contains("://") { _ = try RequestURL(parsing: tokenURL) }
            _ = try variables.expand(id)
            _ = try scope.map { try variables.expand($0) }
            redactor.addSecret(try variables.expand(secret))
        case .oauth2(let grant):
            guard let index else {
                throw CommandError(
                    .session, "OAuth2 credentials belong to an API, not to one request",
                    hint: "`auth oauth2 \(grant.flow.rawValue) …` sets them for the base's API")
            }
            // The person authorizes now (or the environment's token is used): a line that gets no
            // token fails and changes nothing.
            spec = .oauth2(try await executor.authorize(grant, api: index))
        case .awsSigV4(var signing):
            // Resolved now, against the host its requests go to (the API's, or the draft's own
            // URL), so a line with no keys anywhere fails here and changes nothing. Keys from the
            // environment or a profile are kept for the requests (read once, not per request) and
            // are secrets like written ones.
            let draftTarget = (try? variables.expand(executor.session.draft.target)) ?? ""
            let host =
                index.flatMap { executor.session.apis[$0].origin.host }
                ?? (draftTarget.contains("://")
                    ? Origin(url: draftTarget)?.host : executor.session.currentAPI?.origin.host)
            let (_, _, keys) = try signing.resolved(
                host: host, environment: variables.environment, expand: { try variables.expand($0) })
            if signing.accessKey == nil { signing.outside = keys }
            spec = .awsSigV4(signing)
            redactor.addSecret(keys.secretAccessKey)
            if let token = keys.sessionToken { redactor.addSecret(token) }
        }
        if let index {
            executor.session.apis[index].auth = spec
        } else {
            executor.session.draft.auth = spec
        }
        return .done
    }

    private static func auth(_ a: inout Arguments) throws(CommandError) -> AuthSpec? {
        guard let kind = try a.optionalWord() else { return nil }
        switch kind.quoted ? "" : kind.text.lowercased() {
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
            let flow = try a.word("client-credentials, authorization-code or device")
            if let grant = OAuth2Grant.Flow(rawValue: flow.text.lowercased()), !flow.quoted {
                return .oauth2(try OAuth2Grant.parse(grant, &a))
            }
            guard flow.text.lowercased() == "client-credentials" else {
                throw a.badChoice(flow, ["client-credentials", "authorization-code", "device"])
            }
            let url = try a.word("the token URL").text
            let id = try a.word("the client ID").text
            let secret = try a.word("the client secret").text
            let scope = try a.optionalWord()?.text
            try a.end()
            return .oauth2ClientCredentials(tokenURL: url, clientID: id, clientSecret: secret, scope: scope)
        case "aws-sigv4":
            var signing = AWSSigning()
            var keys: [String] = []
            while let word = try a.optionalWord() {
                switch word.quoted ? "" : word.text.lowercased() {
                case "--region": signing.region = try a.word("a region: us-east-1").text
                case "--service": signing.service = try a.word("a service: execute-api, s3, …").text
                case "--profile": signing.profile = try a.word("a profile name").text
                default:
                    guard keys.count < 3 else {
                        throw CommandError(.parse, .unexpected(word: word.text), column: word.column)
                    }
                    keys.append(word.text)
                }
            }
            guard keys.count != 1 else {
                throw CommandError(
                    .parse, .missing("the secret key after the access key"), column: a.column,
                    hint: "auth aws-sigv4 [--region R] [--service S] [KEY SECRET [TOKEN]]")
            }
            if keys.count >= 2 {
                signing.accessKey = keys[0]
                signing.secretKey = keys[1]
                signing.sessionToken = keys.count > 2 ? keys[2] : nil
            }
            return .awsSigV4(signing)
        default:
            throw a.badChoice(kind, ["bearer", "basic", "apikey", "oauth2", "aws-sigv4", "none"])
        }
    }
}
