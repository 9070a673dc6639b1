import Foundation

/// Supplies credentials for requests and renews them when the server rejects them.
///
/// ``authorize(_:)`` runs before every send. When a response is `401 Unauthorized`,
/// ``authenticate()`` runs once (concurrent 401s share one call) and the request is sent once more;
/// a second 401 is returned as it is.
public protocol Authenticator: Sendable {
    /// Adds credentials to the request, for example an `Authorization` header.
    func authorize(_ request: inout PreparedRequest) async throws
    /// Gets fresh credentials after a 401.
    func authenticate() async throws
    /// Whether ``authenticate()`` can get new credentials. When it cannot (a fixed token, a
    /// password), a 401 is returned as it is: sending the same credentials again would only ask
    /// the server twice. `true` by default.
    var renewsCredentials: Bool { get }
}

extension Authenticator {
    /// `true`: credentials can be fetched again after a 401.
    public var renewsCredentials: Bool { true }
}

/// An authenticator backed by closures.
public struct ClosureAuthenticator: Authenticator {
    private let authorizeBody: @Sendable (inout PreparedRequest) async throws -> Void
    private let authenticateBody: (@Sendable () async throws -> Void)?

    /// - Parameters:
    ///   - authorize: Adds credentials to each request.
    ///   - authenticate: Gets fresh credentials after a 401; without it, credentials are fixed
    ///     and a 401 is returned as it is.
    public init(
        authorize: @escaping @Sendable (inout PreparedRequest) async throws -> Void,
        authenticate: (@Sendable () async throws -> Void)? = nil
    ) {
        self.authorizeBody = authorize
        self.authenticateBody = authenticate
    }

    /// Adds the credentials to the request.
    public func authorize(_ request: inout PreparedRequest) async throws { try await authorizeBody(&request) }
    /// Fetches credentials again, when the authenticator can.
    public func authenticate() async throws { try await authenticateBody?() }
    /// Whether ``authenticate()`` does anything.
    public var renewsCredentials: Bool { authenticateBody != nil }
}

/// Sends `Authorization: Bearer <token>` with a token fetched on first use, cached, and fetched
/// again after a 401 — the shape of OAuth 2 client credentials and most login APIs.
public final class BearerTokenAuthenticator: Authenticator {
    private let fetch: @Sendable () async throws -> String
    private let cache = CredentialCache<String>()

    /// - Parameter fetchToken: Gets a new token; called on first use and after each 401.
    public init(fetchToken: @escaping @Sendable () async throws -> String) {
        self.fetch = fetchToken
    }

    /// Adds the token as `Authorization: Bearer …`, fetching one first when none is cached.
    public func authorize(_ request: inout PreparedRequest) async throws {
        let token = try await cache.value(orFetch: fetch)
        request.headers.replace(.authorization, with: "Bearer \(token)")
    }

    /// Drops the cached token and fetches a new one.
    public func authenticate() async throws {
        await cache.clear()
        _ = try await cache.value(orFetch: fetch)
    }

    /// Forgets the cached token.
    public func reset() async { await cache.clear() }
}

extension Authenticator where Self == ClosureAuthenticator {
    /// Sends a fixed bearer token.
    public static func bearer(_ token: String) -> ClosureAuthenticator {
        ClosureAuthenticator { $0.headers.replace(.authorization, with: "Bearer \(token)") }
    }

    /// Sends HTTP Basic credentials ([RFC 7617](https://www.rfc-editor.org/rfc/rfc7617)).
    public static func basic(user: String, password: String) -> ClosureAuthenticator {
        let encoded = Self.basicCredentials(user: user, password: password)
        return ClosureAuthenticator { $0.headers.replace(.authorization, with: "Basic \(encoded)") }
    }

    /// Sends an API key in a header (`X-API-Key: …`), replacing any value the request has.
    public static func apiKey(header name: NetworkHeaders.Name, _ value: String) -> ClosureAuthenticator {
        ClosureAuthenticator { request in
            request.headers.replace(name, with: value)
            request.credentialHeaders.insert(name)
        }
    }

    /// Sends an API key as a query item (`?api_key=…`), after the request's own items.
    public static func apiKey(query name: String, _ value: String) -> ClosureAuthenticator {
        let item = QueryItem(name, value).encoded
        return ClosureAuthenticator { $0.url.appendQuery(item) }
    }
}

extension ClosureAuthenticator {
    /// The base64 of `user:password` that HTTP Basic sends
    /// ([RFC 7617 §2](https://www.rfc-editor.org/rfc/rfc7617#section-2)): a caller that masks the
    /// password masks this spelling of it too.
    public static func basicCredentials(user: String, password: String) -> String {
        Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

extension Authenticator {
    /// This authenticator, except for requests that already carry `header` (set by the caller,
    /// which wins): they are sent as they are.
    public func unlessPresent(_ header: NetworkHeaders.Name) -> ClosureAuthenticator {
        let authorize: @Sendable (inout PreparedRequest) async throws -> Void = { request in
            guard !request.headers.contains(header) else { return }
            try await self.authorize(&request)
        }
        guard renewsCredentials else { return ClosureAuthenticator(authorize: authorize) }
        return ClosureAuthenticator(authorize: authorize, authenticate: { try await self.authenticate() })
    }
}

/// Runs an ``Authenticator`` around each request: authorize, send, and on a 401 authenticate once
/// and retry once.
public struct AuthenticationInterceptor: Interceptor {
    /// Authorizes each request, and authenticates once on a 401.
    public let authenticator: any Authenticator
    private let coordinator = RefreshCoordinator()

    /// An interceptor around `authenticator`.
    public init(_ authenticator: any Authenticator) {
        self.authenticator = authenticator
    }

    /// Sends the request authorized; on a 401 that new credentials can answer, authenticates once
    /// and sends it again.
    public func intercept(_ request: PreparedRequest, next: @escaping Next) async throws -> NetworkResponse<Data> {
        let generation = await coordinator.generation
        var attempt = request
        try await authenticator.authorize(&attempt)
        let response = try await next(attempt)
        guard response.status.code == 401, authenticator.renewsCredentials else { return response }
        try await coordinator.refresh(unlessNewerThan: generation) {
            try await authenticator.authenticate()
        }
        var retry = request
        try await authenticator.authorize(&retry)
        return try await next(retry)
    }

    /// Makes concurrent 401s share one `authenticate()`: a request whose credentials were renewed
    /// after it was sent just retries with the new ones.
    actor RefreshCoordinator {
        private(set) var generation = 0
        private var inFlight: Task<Void, any Error>?

        func refresh(
            unlessNewerThan seen: Int, _ authenticate: @escaping @Sendable () async throws -> Void
        )
            async throws
        {
            if let inFlight {
                return try await inFlight.value
            }
            guard generation == seen else { return }
            let task = Task { try await authenticate() }
            inFlight = task
            defer {
                inFlight = nil
                generation += 1
            }
            try await task.value
        }
    }
}

extension Interceptor where Self == AuthenticationInterceptor {
    /// Authorizes every request with `authenticator`, renewing credentials once on a 401.
    public static func authenticator(_ authenticator: any Authenticator) -> AuthenticationInterceptor {
        AuthenticationInterceptor(authenticator)
    }
}
