@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation
import Logging

/// The client the session sends through, rebuilt only when a setting it depends on changes (so
/// connections and an OAuth2 token survive everything else).
struct ClientCache {
    struct Key: Equatable {
        var transport: AsyncHTTPClientTransport.Configuration
        var mocks: [ClientSettings.MockRoute]
        var logDetail: LogDetail
        var logFile: String?
        /// The expanded credentials: the authenticator is rebuilt when a variable in them changes.
        var credentials: [String]
        var auth: AuthSpec
    }

    var key: Key?
    /// What the key was computed from: while these stay the same (and the credentials hold no
    /// variables) the cached client serves without building a key per request.
    var inputs: (settings: ClientSettings, auth: AuthSpec)?
    var client: NetworkClient?
    /// The network transport built from the settings (not one given in the options).
    var transport: AsyncHTTPClientTransport?
}

extension Executor {
    // MARK: - The client

    /// The client for the current settings, built or reused.
    func client() async throws -> NetworkClient {
        let settings = session.settings
        if let client = clients.client, let inputs = clients.inputs, inputs.settings == settings,
            inputs.auth == session.auth, !session.auth.hasTemplates
        {
            return client
        }
        clients.inputs = (settings, session.auth)
        var transportConfiguration = AsyncHTTPClientTransport.Configuration()
        transportConfiguration.verifyCertificates = !settings.insecure
        transportConfiguration.redirectLimit = settings.redirectLimit
        if let timeout = settings.timeout { transportConfiguration.timeout = timeout }
        if let proxy = settings.proxy { transportConfiguration.proxy = .server(try ProxyServer(parsing: proxy)) }
        if settings.cookies { transportConfiguration.cookieJar = cookieJar }

        let credentials = try expandedCredentials()
        let key = ClientCache.Key(
            transport: transportConfiguration, mocks: settings.mocks,
            logDetail: settings.logDetail, logFile: settings.logFile, credentials: credentials, auth: session.auth)
        if let client = clients.client, clients.key == key { return client }

        let transport: any Transport
        if let given = options.transport {
            transport = given
        } else if let existing = clients.transport, existing.configuration == transportConfiguration {
            transport = existing
        } else {
            let network = AsyncHTTPClientTransport(configuration: transportConfiguration)
            if let old = clients.transport {
                Task.detached { try? await old.shutdown() }
            }
            clients.transport = network
            transport = network
        }
        var wire: any Transport = transport
        if !settings.mocks.isEmpty {
            let mocks = MockTransport(fallback: transport)
            for route in settings.mocks {
                let response =
                    if let file = route.file { try MockResponse.file(file, status: route.status) } else {
                        MockResponse.status(route.status)
                    }
                mocks.register(route.path, response)
            }
            wire = mocks
        }

        var interceptors: [any Interceptor] = []
        if let authenticator = try authenticator(credentials, transport: wire) {
            interceptors.append(.authenticator(authenticator))
        }
        var logger: Logger?
        if settings.logDetail > .off {
            logger = WireLogSink(file: settings.logFile, redactor: redactor, health: wireLogHealth).logger()
        }
        let client = NetworkClient(
            configuration: NetworkClient.Configuration(
                interceptors: interceptors, logger: logger, logDetail: settings.logDetail, redactor: redactor),
            transport: wire)
        clients.client = client
        clients.key = key
        return client
    }

    /// The session's credentials with variables expanded, in the order the auth line has them;
    /// the relative token URL of OAuth2 resolved against the base URL.
    func expandedCredentials() throws -> [String] {
        let variables = session.variables
        switch session.auth {
        case .none: return []
        case .bearer(let token): return [try variables.expand(token)]
        case .basic(let user, let password): return [try variables.expand(user), try variables.expand(password ?? "")]
        case .apiKey(_, let name, let value): return [name, try variables.expand(value)]
        case .oauth2ClientCredentials(let url, let id, let secret, let scope):
            var tokenURL = try variables.expand(url)
            if !tokenURL.contains("://") {
                // A relative token URL resolves against the base, as request paths do.
                guard let base = baseURL() else {
                    throw CommandError(
                        "no base URL for the token URL '\(tokenURL)'", hint: "set one with `base http://…`")
                }
                tokenURL = try NetworkRequest(tokenURL).prepared(baseURL: base).url.description
            }
            return [tokenURL, try variables.expand(id), try variables.expand(secret)]
                + (try scope.map { [try variables.expand($0)] } ?? [])
        }
    }

    /// The library authenticator for `auth`, built from expanded credentials: fixed ones for
    /// bearer, basic and API keys (a draft's own `Authorization` header wins over bearer and
    /// basic), OAuth2 client credentials with a token client on the same transport.
    func authenticator(_ credentials: [String], transport: any Transport) throws -> (any Authenticator)? {
        switch session.auth {
        case .oauth2ClientCredentials:
            let tokenClient = NetworkClient(configuration: .init(redactor: redactor), transport: transport)
            return OAuth2ClientCredentials(
                tokenURL: credentials[0], clientID: credentials[1], clientSecret: credentials[2],
                scope: credentials.count > 3 ? credentials[3] : nil, client: tokenClient)
        default:
            return try fixedAuthenticator(credentials)
        }
    }

    /// The authenticator for credentials that need no network (not OAuth2), or `nil`.
    func fixedAuthenticator(_ expanded: [String]? = nil) throws -> (any Authenticator)? {
        let credentials = try expanded ?? expandedCredentials()
        switch session.auth {
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

extension AuthSpec {
    /// Whether the credentials depend on something that can change between requests (variables,
    /// or the base URL a relative OAuth2 token URL resolves against).
    var hasTemplates: Bool {
        switch self {
        case .none: false
        case .bearer(let token): token.contains("{{")
        case .basic(let user, let password): user.contains("{{") || password?.contains("{{") == true
        case .apiKey(_, _, let value): value.contains("{{")
        case .oauth2ClientCredentials: true
        }
    }
}
