import Foundation

/// OAuth 2.0 client credentials ([RFC 6749 §4.4](https://www.rfc-editor.org/rfc/rfc6749#section-4.4)):
/// an access token fetched from a token endpoint with a client ID and secret, sent as
/// `Authorization: Bearer <token>` on every request.
///
/// The token is fetched on first use and cached until it expires (`expires_in`, less a margin);
/// after a 401 it is fetched again once. Requests that need a token at the same time share one
/// fetch. The client secret and every token are registered with the token client's ``Redactor``,
/// so neither appears in its errors or wire log.
///
/// ```swift
/// let tokens = NetworkClient(baseURL: "https://auth.example.com")
/// let oauth = OAuth2ClientCredentials(
///     tokenURL: "https://auth.example.com/oauth/token", clientID: "app", clientSecret: secret, client: tokens)
/// let api = NetworkClient(baseURL: "https://api.example.com", interceptors: [.authenticator(oauth)])
/// ```
public final class OAuth2ClientCredentials: Authenticator {
    /// An access token and when it stops being good.
    public struct Token: Sendable, Equatable {
        /// The access token.
        public var value: String
        /// `nil` when the server gave no `expires_in`: good until a 401 says otherwise.
        public var expires: ContinuousClock.Instant?
    }

    /// The token endpoint.
    public let tokenURL: String
    /// The client's identifier.
    public let clientID: String
    /// The scope asked for, if any.
    public let scope: String?
    /// How long before its stated expiry a token is fetched again; 30 seconds by default.
    public let expiryMargin: Duration
    private let endpoint: OAuth2TokenEndpoint
    private let cache = CredentialCache<Token> { token in token.expires.map { $0 > .now } ?? true }

    /// - Parameters:
    ///   - tokenURL: The token endpoint, absolute or relative to the client's base URL.
    ///   - clientID: The client's ID, sent as `client_id`.
    ///   - clientSecret: The client's secret, sent as `client_secret` and masked in the client's
    ///     errors and logs.
    ///   - scope: The scope asked for, if any.
    ///   - client: Sends the token requests. Give it no authenticator for the same endpoint.
    ///   - expiryMargin: How long before expiry a token is renewed.
    public init(
        tokenURL: String, clientID: String, clientSecret: String, scope: String? = nil, client: NetworkClient,
        expiryMargin: Duration = .seconds(30)
    ) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.scope = scope
        self.expiryMargin = expiryMargin
        // `client_secret_post`, as this grant has always sent it (OAuth2TokenEndpoint offers basic).
        endpoint = OAuth2TokenEndpoint(
            tokenURL: tokenURL, clientID: clientID, clientSecret: clientSecret, authentication: .post, client: client,
            expiryMargin: expiryMargin)
    }

    /// Adds `Authorization: Bearer` with a token, fetching one when none is cached or it expired.
    public func authorize(_ request: inout PreparedRequest) async throws {
        let token = try await cache.value(orFetch: fetch)
        request.headers.replace(.authorization, with: "Bearer \(token.value)")
    }

    /// Drops the cached token: the next request fetches a new one (a 401 means it no longer works).
    public func authenticate() async throws {
        await cache.clear()
        _ = try await cache.value(orFetch: fetch)
    }

    /// The cached token, if one is good now.
    public var currentToken: Token? {
        get async { await cache.current }
    }

    /// Gets a new token from the token endpoint.
    ///
    /// - Throws: ``NetworkError/httpStatus(_:message:response:)`` when the endpoint refuses (with
    ///   its `error` and `error_description`, or its message), ``NetworkError/transport(_:)`` when the answer
    ///   has no `access_token`, or the error that stopped the request.
    public func fetch() async throws -> Token {
        var form = [QueryItem("grant_type", "client_credentials")]
        if let scope { form.append(QueryItem("scope", scope)) }
        let tokens = try await endpoint.tokens(for: form)
        return Token(value: tokens.accessToken, expires: tokens.renewAt)

    }
}
