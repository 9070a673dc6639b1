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
    private let clientSecret: String
    private let client: NetworkClient
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
        self.clientSecret = clientSecret
        self.scope = scope
        self.client = client
        self.expiryMargin = expiryMargin
        client.configuration.redactor.addSecret(clientSecret)
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
    ///   its `error_description` or message), ``NetworkError/transport(_:)`` when the answer
    ///   has no `access_token`, or the error that stopped the request.
    public func fetch() async throws -> Token {
        var form = [QueryItem("grant_type", "client_credentials"), QueryItem("client_id", clientID)]
        form.append(QueryItem("client_secret", clientSecret))
        if let scope { form.append(QueryItem("scope", scope)) }
        let response = try await client.send(
            NetworkRequest.post(tokenURL).header(.accept, "application/json").body(form: form))
        guard response.status.isSuccess else {
            let message = ErrorMessage.extract(from: response).map { "the OAuth2 token request failed: \($0)" }
            throw NetworkError.httpStatus(
                response.status, message: message ?? "the OAuth2 token request failed with \(response.status)",
                response: response)
        }
        struct Answer: Decodable {
            var access_token: String?
            var expires_in: Double?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: response.body),
            let value = answer.access_token, !value.isEmpty
        else {
            throw NetworkError.transport("the OAuth2 token response from \(tokenURL) has no access_token")
        }
        client.configuration.redactor.addSecret(value)
        let expires = answer.expires_in.flatMap { seconds -> ContinuousClock.Instant? in
            guard seconds.isFinite, seconds > 0, seconds < 1e9 else { return nil }
            return ContinuousClock.now + .milliseconds(Int64(seconds * 1000)) - expiryMargin
        }
        return Token(value: value, expires: expires)
    }
}
