@_spi(Fathom) import FathomHTTP
import Logging

/// The session's clients (``Clients``), read with the session's settings and variables.
extension Executor {
    /// The client for a request in `scope` (``Clients/client(for:settings:variables:)``).
    func client(for scope: Scope?) async throws -> NetworkClient {
        try clients.client(for: scope, settings: session.settings, variables: session.variables)
    }

    /// The wire log's logger as the settings have it now (`log`), or `nil` when it is off.
    func wireLogger() throws -> Logger? {
        try clients.wireLogger(settings: session.settings)
    }

    /// The session's `proxy`, or the environment's (`HTTP(S)_PROXY`, `NO_PROXY`) without one.
    func proxySettings() throws -> ProxySettings {
        try Clients.proxySettings(session.settings)
    }

    /// The session's cookie jar.
    var cookieJar: CookieJar { clients.cookieJar }
}
