import FathomHTTP
import Foundation

/// `auth oauth2 authorization-code|device`: the person's part of a grant, run when the line runs.
extension Executor {
    /// How long a browser or a device code has to come back before the line gives up.
    static let oauth2Wait = Duration.seconds(300)

    /// Runs `grant` for the API at `index`: its endpoints from the issuer's metadata when it names
    /// one, then tokens — from the environment (`oauth2_refresh_token`, renewed now so a bad one
    /// fails here; `oauth2_access_token` as it is), else from the person at a terminal (a browser,
    /// or a code entered at the server's page). Ctrl-C stops the wait.
    func authorize(_ grant: OAuth2Grant, api index: Int) async throws -> OAuth2Grant {
        let variables = session.variables
        let base = try variables.expand(session.apis[index].base)
        func url(_ written: String) throws -> String {
            let text = try variables.expand(written)
            guard !text.contains("://") else { return try RequestURL(parsing: text).description }
            return try NetworkRequest(text).prepared(baseURL: base).url.description
        }
        let client = try clients.tokenClient(settings: session.settings)
        var authentication = grant.clientAuthentication
        let start: String
        let tokenURL: String
        if let issuer = grant.issuer {
            let metadata = try await OAuth2ServerMetadata.discover(issuer: try url(issuer), client: client)
            let named =
                grant.flow == .device ? metadata.deviceAuthorizationEndpoint : metadata.authorizationEndpoint
            guard let named else {
                let field = grant.flow == .device ? "device_authorization_endpoint" : "authorization_endpoint"
                throw CommandError(
                    .session, "the issuer's metadata names no \(field)",
                    hint: "give the endpoints: \(OAuth2Grant.synopsis(grant.flow))")
            }
            start = named
            tokenURL = metadata.tokenEndpoint
            if authentication == nil { authentication = metadata.clientAuthentication }
        } else if let endpoints = grant.endpoints {
            start = try url(endpoints.start)
            tokenURL = try url(endpoints.token)
        } else {
            throw CommandError(.parse, .missing("the endpoints or --issuer"), hint: OAuth2Grant.synopsis(grant.flow))
        }
        let secret = try grant.clientSecret.map { try variables.expand($0) }
        if let secret { redactor.addSecret(secret) }
        let endpoint = OAuth2TokenEndpoint(
            tokenURL: tokenURL, clientID: try variables.expand(grant.clientID), clientSecret: secret,
            authentication: authentication ?? .basic, client: client)
        let scope = try grant.scope.map { try variables.expand($0) }

        let (tokens, source) = try await tokens(for: grant, start: start, endpoint: endpoint, scope: scope)
        redactor.addSecret(tokens.accessToken)
        if let refresh = tokens.refreshToken { redactor.addSecret(refresh) }
        feeds.live.send(
            .event(
                .oauth2Authorized(
                    OAuth2Authorized(
                        api: session.apis[index].origin.description, source: source, scope: tokens.scope,
                        expiresIn: tokens.expiresIn, renews: tokens.refreshToken != nil))))
        var settled = grant
        settled.obtained = .init(
            tokenURL: tokenURL, authentication: endpoint.authentication, tokens: tokens, source: source)
        return settled
    }

    /// The tokens: the environment's, else the person's flow; where they came from.
    private func tokens(
        for grant: OAuth2Grant, start: String, endpoint: OAuth2TokenEndpoint, scope: String?
    ) async throws -> (OAuth2Tokens, String) {
        let outside = OAuth2Grant.environmentTokens.lazy.compactMap { name in
            (self.session.variables.values[name] ?? self.storedSecretValue(name)).map { (name, $0) }
        }.first
        if let (name, value) = outside {
            redactor.addSecret(value)
            if name == "oauth2_refresh_token" { return (try await endpoint.refresh(value), name) }
            return (OAuth2Tokens(accessToken: value), name)
        }
        guard options.prompter.canAskForSecrets else {
            // The environment's fault, not the line's: a replay counts it as a missing secret.
            throw CommandError(
                .session, .noValue(secret: "oauth2_refresh_token", typed: false, canBeAsked: false),
                hint:
                    "`auth oauth2 \(grant.flow.rawValue)` needs a person at a terminal; without one, set FATHOM_SECRET_OAUTH2_REFRESH_TOKEN (or FATHOM_SECRET_OAUTH2_ACCESS_TOKEN)"
            )
        }
        switch grant.flow {
        case .authorizationCode:
            let flow = OAuth2AuthorizationCode(
                authorizationURL: start, endpoint: endpoint, scope: scope, redirectPort: grant.redirectPort ?? 0,
                timeout: Self.oauth2Wait)
            let request = try await flow.start()
            let opened = openInBrowser(request.url)
            feeds.live.send(
                .event(
                    .oauth2Browser(
                        OAuth2BrowserPrompt(
                            url: request.url, redirectURI: request.redirectURI, opened: opened, wait: Self.oauth2Wait)))
            )
            do {
                return (try await request.tokens(), "browser")
            } catch {
                await request.cancel()
                throw error
            }
        case .device:
            let flow = OAuth2DeviceAuthorization(deviceURL: start, endpoint: endpoint, scope: scope)
            let code = try await flow.start()
            feeds.live.send(
                .event(
                    .oauth2DeviceCode(
                        OAuth2DevicePrompt(
                            userCode: code.userCode, verificationURI: code.verificationURI,
                            complete: code.verificationURIComplete, expiresIn: code.expiresIn))))
            return (try await flow.poll(code), "device")
        }
    }

    /// Opens `url` with `xdg-open` when there is a display; whether it was handed over.
    private func openInBrowser(_ url: String) -> Bool {
        let environment = options.environment
        guard environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false,
            let opener = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return (try? process.run()) != nil
    }
}

/// `auth oauth2 authorization-code`: the URL the person opens, while the line waits.
struct OAuth2BrowserPrompt: Sendable {
    var url: String
    var redirectURI: String
    /// Whether `xdg-open` was given it.
    var opened: Bool
    var wait: Duration
}

/// `auth oauth2 device`: the code the person enters, and where.
struct OAuth2DevicePrompt: Sendable {
    var userCode: String
    var verificationURI: String
    var complete: String?
    var expiresIn: Int
}

/// An `auth oauth2` line got its tokens.
struct OAuth2Authorized: Sendable {
    /// The API they are for.
    var api: String
    /// `browser`, `device`, or the environment's secret they came from.
    var source: String
    var scope: String?
    var expiresIn: Double?
    /// Whether a refresh token renews them.
    var renews: Bool
}
