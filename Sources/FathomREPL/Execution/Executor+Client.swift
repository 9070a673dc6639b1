@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation
import Logging

/// The clients the session sends through. The wire — transport, mocks and log — is rebuilt only
/// when a setting it depends on changes, so connections survive everything else; each API has
/// its own client with its own authenticator (an OAuth2 token lives as long as its API's
/// credentials stay the same), and requests to an origin no API claims go through a client with
/// none.
struct ClientCache {
    struct WireKey: Equatable {
        var transport: AsyncHTTPClientTransport.Configuration
        var mocks: [ClientSettings.MockRoute]
        var logDetail: LogDetail
        var logFile: String?
    }

    /// An API's client and what it was built from.
    struct APIClient {
        var auth: AuthSpec
        /// The expanded credentials: the authenticator is rebuilt when a variable in them changes.
        var credentials: [String]
        var client: NetworkClient
    }

    var settings: ClientSettings?
    var wireKey: WireKey?
    /// The transport with the mocks in front of it.
    var wire: (any Transport)?
    var logger: Logger?
    /// The network transport built from the settings (not one given in the options).
    var network: AsyncHTTPClientTransport?
    /// By API base, as written.
    var apis: [String: APIClient] = [:]
    /// For requests that carry no session credentials.
    var plain: NetworkClient?
    /// The most connections to one host a batch has asked for (its concurrency): the wire is
    /// rebuilt with room for them when it has less.
    var connectionsWanted = 0
}

extension Executor {
    // MARK: - The clients

    /// The client for a request in `scope`: its API's (its authenticator), one for the draft's
    /// own credentials, or one with none for an origin no API claims (`nil`: none at all).
    func client(for scope: Scope?) async throws -> NetworkClient {
        try prepareWire()
        guard let scope else { return plainClient() }
        if let draftAuth = scope.draftAuth {
            let credentials = try expandedCredentials(draftAuth, base: scope.state?.base)
            return makeClient(try authenticator(draftAuth, credentials))
        }
        guard let state = scope.state, state.auth != .none else { return plainClient() }
        let credentials = try expandedCredentials(state.auth, base: state.base)
        if let cached = clients.apis[state.base], cached.auth == state.auth, cached.credentials == credentials {
            return cached.client
        }
        let client = makeClient(try authenticator(state.auth, credentials))
        clients.apis[state.base] = ClientCache.APIClient(auth: state.auth, credentials: credentials, client: client)
        return client
    }

    /// The client without session credentials (descriptions fetched, origins no API claims).
    func plainClient() -> NetworkClient {
        if let plain = clients.plain { return plain }
        let client = makeClient(nil)
        clients.plain = client
        return client
    }

    /// A client on the current wire with `authenticator`, if any.
    private func makeClient(_ authenticator: (any Authenticator)?) -> NetworkClient {
        NetworkClient(
            configuration: NetworkClient.Configuration(
                interceptors: authenticator.map { [.authenticator($0)] } ?? [], logger: clients.logger,
                logDetail: session.settings.logDetail, redactor: redactor),
            transport: clients.wire ?? AsyncHTTPClientTransport.shared)
    }

    /// Builds the wire (transport, mocks, log) for the current settings, unless it is built.
    private func prepareWire() throws {
        let settings = session.settings
        if clients.wire != nil, clients.settings == settings { return }
        var transportConfiguration = AsyncHTTPClientTransport.Configuration()
        transportConfiguration.verifyCertificates = !settings.insecure
        transportConfiguration.redirectLimit = settings.redirectLimit
        if let timeout = options.requestTimeout ?? settings.timeout { transportConfiguration.timeout = timeout }
        if let connectTimeout = options.connectTimeout { transportConfiguration.connectTimeout = connectTimeout }
        transportConfiguration.proxy = try proxySettings()
        if settings.cookies { transportConfiguration.cookieJar = cookieJar }
        transportConfiguration.maxConnectionsPerHost = max(
            transportConfiguration.maxConnectionsPerHost, clients.connectionsWanted)
        let key = ClientCache.WireKey(
            transport: transportConfiguration, mocks: settings.mocks, logDetail: settings.logDetail,
            logFile: settings.logFile)
        clients.settings = settings
        if clients.wire != nil, clients.wireKey == key { return }

        let transport: any Transport
        if let given = options.transport {
            transport = given
        } else if let existing = clients.network, existing.configuration == transportConfiguration {
            transport = existing
        } else {
            let network = AsyncHTTPClientTransport(configuration: transportConfiguration)
            if let old = clients.network {
                Task.detached { try? await old.shutdown() }
            }
            clients.network = network
            transport = network
        }
        var wire: any Transport = transport
        if !settings.mocks.isEmpty {
            wire = try ScopedMocks(settings.mocks, network: transport)
        }
        clients.logger =
            settings.logDetail > .off
            ? WireLogSink(file: settings.logFile, redactor: redactor, health: wireLogHealth).logger() : nil
        clients.wire = wire
        clients.wireKey = key
        clients.apis = [:]
        clients.plain = nil
    }

    /// The wire log's logger as the settings have it now (`log`), or `nil` when it is off.
    func wireLogger() throws -> Logger? {
        try prepareWire()
        return clients.logger
    }

    /// The session's `proxy`, or the environment's (`HTTP(S)_PROXY`, `NO_PROXY`) without one.
    func proxySettings() throws -> ProxySettings {
        guard let proxy = session.settings.proxy else { return .environment }
        return .server(try ProxyServer(parsing: proxy))
    }

    /// Credentials with variables expanded, in the order the auth line has them; a relative OAuth2
    /// token URL resolved against `base` (the API's).
    func expandedCredentials(_ auth: AuthSpec, base: String?) throws -> [String] {
        let variables = session.variables
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
        }
    }

    /// The library authenticator for `auth`, built from expanded credentials: fixed ones for
    /// bearer, basic and API keys (a draft's own `Authorization` header wins over bearer and
    /// basic), OAuth2 client credentials with a token client on the same wire.
    func authenticator(_ auth: AuthSpec, _ credentials: [String]) throws -> (any Authenticator)? {
        switch auth {
        case .oauth2ClientCredentials:
            let tokenClient = NetworkClient(
                configuration: .init(redactor: redactor), transport: clients.wire ?? AsyncHTTPClientTransport.shared)
            return OAuth2ClientCredentials(
                tokenURL: credentials[0], clientID: credentials[1], clientSecret: credentials[2],
                scope: credentials.count > 3 ? credentials[3] : nil, client: tokenClient)
        default:
            return fixedAuthenticator(auth, credentials)
        }
    }

    /// The authenticator for credentials that need no network (not OAuth2), or `nil`.
    func fixedAuthenticator(_ auth: AuthSpec, _ credentials: [String]) -> (any Authenticator)? {
        switch auth {
        case .none, .oauth2ClientCredentials: return nil
        case .bearer: return ClosureAuthenticator.bearer(credentials[0]).unlessPresent(.authorization)
        case .basic:
            return ClosureAuthenticator.basic(user: credentials[0], password: credentials[1])
                .unlessPresent(.authorization)
        case .apiKey(.header, _, _): return ClosureAuthenticator.apiKey(header: .init(credentials[0]), credentials[1])
        case .apiKey(.query, _, _): return ClosureAuthenticator.apiKey(query: credentials[0], credentials[1])
        }
    }
}
