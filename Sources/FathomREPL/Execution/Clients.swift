import FathomGRPC
@_spi(Fathom) import FathomHTTP
import Foundation
import Logging

/// The clients a session sends through, and the wire under them.
///
/// The wire — transport, mocks and log — is rebuilt only when a setting it depends on changes, so
/// connections survive everything else; each API has its own client with its own authenticator
/// (an OAuth2 token lives as long as its API's credentials stay the same), and requests to an
/// origin no API claims go through a client with none. The session's cookie jar lives here: the
/// wire stores into it and the WebSocket upgrade reads from it.
struct Clients {
    /// What the wire is built from beside the session's settings: fixed for an executor's life.
    struct Fixed {
        /// A transport to use instead of the network (tests, `--mock`-like embedding).
        var transport: (any Transport)?
        var requestTimeout: Duration?
        var connectTimeout: Duration?
        let redactor: Redactor
        let cookieJar: CookieJar
        let wireLogHealth: WireLogHealth
    }

    private struct WireKey: Equatable {
        var transport: AsyncHTTPClientTransport.Configuration
        var mocks: [ClientSettings.MockRoute]
        var logDetail: LogDetail
        var logFile: String?
    }

    /// An API's client and what it was built from.
    private struct APIClient {
        var auth: AuthSpec
        /// The expanded credentials: the authenticator is rebuilt when a variable in them changes.
        var credentials: [String]
        var client: NetworkClient
    }

    let fixed: Fixed
    private var settings: ClientSettings?
    private var wireKey: WireKey?
    /// The transport with the mocks in front of it.
    private var wire: (any Transport)?
    private var logger: Logger?
    private var logDetail = LogDetail.off
    /// The network transport built from the settings (not one given in the options).
    private var network: AsyncHTTPClientTransport?
    /// By API base, as written.
    private var apis: [String: APIClient] = [:]
    /// For requests that carry no session credentials.
    private var plain: NetworkClient?
    /// The most connections to one host a batch has asked for (its concurrency): the wire is
    /// rebuilt with room for them when it has less.
    private var connectionsWanted = 0
    /// gRPC connections by server (`grpc`): one lives while how it connects (TLS, trust, the
    /// client certificate) stays the same.
    private var grpcConnections: [String: GRPCConnection] = [:]

    init(_ fixed: Fixed) {
        self.fixed = fixed
    }

    var cookieJar: CookieJar { fixed.cookieJar }

    /// The client for a request in `scope` under `settings`: its API's (its authenticator), one
    /// for the draft's own credentials, or one with none for an origin no API claims (`nil`:
    /// none at all). Credentials are expanded with `variables`.
    mutating func client(for scope: Scope?, settings: ClientSettings, variables: Variables) throws -> NetworkClient {
        try prepareWire(settings)
        guard let scope else { return plainClient() }
        if let draftAuth = scope.draftAuth {
            let credentials = try Self.expandedCredentials(
                draftAuth, base: scope.state?.base, origin: scope.origin, variables: variables)
            return makeClient(authenticator(draftAuth, credentials))
        }
        guard let state = scope.state, state.auth != .none else { return plainClient() }
        let credentials = try Self.expandedCredentials(
            state.auth, base: state.base, origin: scope.origin, variables: variables)
        if let cached = apis[state.base], cached.auth == state.auth, cached.credentials == credentials {
            return cached.client
        }
        let client = makeClient(authenticator(state.auth, credentials))
        apis[state.base] = APIClient(auth: state.auth, credentials: credentials, client: client)
        return client
    }

    /// The connection to a gRPC server: the one kept for it, or a new one when how it connects
    /// changed (the old one closes once its calls are done).
    mutating func grpcConnection(_ target: GRPCTarget) throws(GRPCError) -> GRPCConnection {
        let key = target.description
        if let kept = grpcConnections[key] {
            if kept.target == target { return kept }
            Task { await kept.close() }
        }
        let connection = try GRPCConnection(target: target)
        grpcConnections[key] = connection
        return connection
    }

    /// The client without session credentials (descriptions fetched, origins no API claims).
    mutating func plainClient(settings: ClientSettings) throws -> NetworkClient {
        try prepareWire(settings)
        return plainClient()
    }

    private mutating func plainClient() -> NetworkClient {
        if let plain { return plain }
        let client = makeClient(nil)
        plain = client
        return client
    }

    /// The wire log's logger as `settings` have it (`log`), or `nil` when it is off.
    mutating func wireLogger(settings: ClientSettings) throws -> Logger? {
        try prepareWire(settings)
        return logger
    }

    /// Room for `count` connections to one host (a batch's concurrency) from the next wire on.
    mutating func want(connections count: Int) {
        connectionsWanted = max(connectionsWanted, count)
    }

    /// A client on the current wire with `authenticator`, if any.
    private func makeClient(_ authenticator: (any Authenticator)?) -> NetworkClient {
        NetworkClient(
            configuration: NetworkClient.Configuration(
                interceptors: authenticator.map { [.authenticator($0)] } ?? [], logger: logger,
                logDetail: logDetail, redactor: fixed.redactor),
            transport: wire ?? AsyncHTTPClientTransport.shared)
    }

    /// Builds the wire (transport, mocks, log) for `settings`, unless it is built.
    private mutating func prepareWire(_ settings: ClientSettings) throws {
        if wire != nil, self.settings == settings { return }
        var configuration = AsyncHTTPClientTransport.Configuration()
        configuration.verifyCertificates = !settings.insecure
        configuration.redirectLimit = settings.redirectLimit
        if let timeout = fixed.requestTimeout ?? settings.timeout { configuration.timeout = timeout }
        if let connectTimeout = fixed.connectTimeout { configuration.connectTimeout = connectTimeout }
        configuration.proxy = try Self.proxySettings(settings)
        if settings.cookies { configuration.cookieJar = fixed.cookieJar }
        configuration.maxConnectionsPerHost = max(configuration.maxConnectionsPerHost, connectionsWanted)
        let key = WireKey(
            transport: configuration, mocks: settings.mocks, logDetail: settings.logDetail, logFile: settings.logFile)
        self.settings = settings
        if wire != nil, wireKey == key { return }

        let transport: any Transport
        if let given = fixed.transport {
            transport = given
        } else if let existing = network, existing.configuration == configuration {
            transport = existing
        } else {
            let built = AsyncHTTPClientTransport(configuration: configuration)
            if let old = network {
                Task.detached { try? await old.shutdown() }
            }
            network = built
            transport = built
        }
        var wire: any Transport = transport
        if !settings.mocks.isEmpty {
            wire = try ScopedMocks(settings.mocks, network: transport)
        }
        logger =
            settings.logDetail > .off
            ? WireLogSink(file: settings.logFile, redactor: fixed.redactor, health: fixed.wireLogHealth).logger() : nil
        logDetail = settings.logDetail
        self.wire = wire
        wireKey = key
        apis = [:]
        plain = nil
    }

    /// The session's `proxy`, or the environment's (`HTTP(S)_PROXY`, `NO_PROXY`) without one.
    static func proxySettings(_ settings: ClientSettings) throws -> ProxySettings {
        guard let proxy = settings.proxy else { return .environment }
        return .server(try ProxyServer(parsing: proxy))
    }

    /// Credentials with variables expanded, in the order the auth line has them; a relative OAuth2
    /// token URL resolved against `base` (the API's); AWS's region and service, when not written,
    /// from the host of `origin` (the request's).
    static func expandedCredentials(
        _ auth: AuthSpec, base: String?, origin: Origin, variables: Variables
    ) throws -> [String] {
        switch auth {
        case .none: return []
        case .bearer(let token): return [try variables.expand(token)]
        case .basic(let user, let password): return [try variables.expand(user), try variables.expand(password ?? "")]
        case .apiKey(_, let name, let value): return [name, try variables.expand(value)]
        case .oauth2ClientCredentials(let url, let id, let secret, let scope):
            var tokenURL = try variables.expand(url)
            if !tokenURL.contains("://") {
                // A relative token URL resolves against the API's base, as request paths do.
                guard let base = try base.map({ try variables.expand($0) }) else {
                    throw CommandError(
                        .session, "no base URL for the token URL '\(tokenURL)'", hint: "set one with `base http://…`")
                }
                tokenURL = try NetworkRequest(tokenURL).prepared(baseURL: base).url.description
            }
            return [tokenURL, try variables.expand(id), try variables.expand(secret)]
                + (try scope.map { [try variables.expand($0)] } ?? [])
        case .oauth2(let grant):
            // The tokens the line got: a new line (new tokens) makes a new authenticator, while
            // the authenticator's own renewals keep the client it is in.
            guard let obtained = grant.obtained else {
                throw CommandError(.session, "the OAuth2 line has not run", hint: "run `auth oauth2 …` again")
            }
            return [
                obtained.tokenURL, try variables.expand(grant.clientID),
                try grant.clientSecret.map { try variables.expand($0) } ?? "", obtained.authentication.rawValue,
                obtained.tokens.accessToken, obtained.tokens.refreshToken ?? "",
            ]
        case .awsSigV4(let signing):
            let (region, service, keys) = try signing.resolved(
                host: origin.host, environment: variables.environment, expand: { try variables.expand($0) })
            return [region, service, keys.accessKeyID, keys.secretAccessKey] + (keys.sessionToken.map { [$0] } ?? [])
        }
    }

    /// The library authenticator for `auth`, built from expanded credentials: fixed ones for
    /// bearer, basic and API keys (a draft's own `Authorization` header wins over bearer and
    /// basic), OAuth2 client credentials with a token client on the same wire.
    private func authenticator(_ auth: AuthSpec, _ credentials: [String]) -> (any Authenticator)? {
        switch auth {
        case .oauth2(let grant):
            guard let obtained = grant.obtained else { return nil }
            let endpoint = OAuth2TokenEndpoint(
                tokenURL: credentials[0], clientID: credentials[1],
                clientSecret: credentials[2].isEmpty ? nil : credentials[2], authentication: obtained.authentication,
                client: tokenClient())
            return OAuth2Authenticator(endpoint: endpoint, tokens: obtained.tokens)
        case .oauth2ClientCredentials:
            let tokenClient = tokenClient()
            return OAuth2ClientCredentials(
                tokenURL: credentials[0], clientID: credentials[1], clientSecret: credentials[2],
                scope: credentials.count > 3 ? credentials[3] : nil, client: tokenClient)
        default:
            return Self.fixedAuthenticator(auth, credentials)
        }
    }

    /// A client for an authorization server (tokens, metadata, device codes): on the session's
    /// wire, with no authenticator of its own.
    private func tokenClient() -> NetworkClient {
        NetworkClient(
            configuration: .init(redactor: fixed.redactor), transport: wire ?? AsyncHTTPClientTransport.shared)
    }

    /// ``tokenClient()`` with the wire built for `settings` (an `auth oauth2` line runs its flow
    /// through it).
    mutating func tokenClient(settings: ClientSettings) throws -> NetworkClient {
        try prepareWire(settings)
        return tokenClient()
    }

    /// The authenticator for credentials that need no network (not OAuth2), or `nil`.
    static func fixedAuthenticator(_ auth: AuthSpec, _ credentials: [String]) -> (any Authenticator)? {
        switch auth {
        case .none, .oauth2ClientCredentials, .oauth2: return nil
        case .bearer: return ClosureAuthenticator.bearer(credentials[0]).unlessPresent(.authorization)
        case .basic:
            return ClosureAuthenticator.basic(user: credentials[0], password: credentials[1])
                .unlessPresent(.authorization)
        case .apiKey(.header, _, _): return ClosureAuthenticator.apiKey(header: .init(credentials[0]), credentials[1])
        case .apiKey(.query, _, _): return ClosureAuthenticator.apiKey(query: credentials[0], credentials[1])
        case .awsSigV4:
            return AWSSignatureV4(
                region: credentials[0], service: credentials[1],
                credentials: .init(
                    accessKeyID: credentials[2], secretAccessKey: credentials[3],
                    sessionToken: credentials.count > 4 ? credentials[4] : nil))
        }
    }
}
