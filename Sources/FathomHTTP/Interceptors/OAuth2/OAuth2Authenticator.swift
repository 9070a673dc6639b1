import Foundation
import Synchronization

/// Sends the access token a grant issued as `Authorization: Bearer …` and keeps it fresh: renewed
/// with the refresh token before it expires, and once after a 401
/// ([RFC 6749 §6](https://www.rfc-editor.org/rfc/rfc6749#section-6)).
///
/// Give it the tokens an ``OAuth2AuthorizationCode`` or ``OAuth2DeviceAuthorization`` flow got,
/// or a refresh token from outside (CI) — then the first request renews it. Requests that need a
/// token while one is being renewed share that renewal. Without a refresh token, an expired token
/// is still sent (the server decides) and a 401 is returned as it is.
///
/// ```swift
/// let endpoint = OAuth2TokenEndpoint(tokenURL: "https://auth.example.com/token", clientID: "cli", client: tokens)
/// let flow = OAuth2DeviceAuthorization(deviceURL: "https://auth.example.com/device", endpoint: endpoint)
/// let code = try await flow.start()
/// print("open \(code.verificationURI) and enter \(code.userCode)")
/// let api = NetworkClient(
///     baseURL: "https://api.example.com",
///     interceptors: [.authenticator(OAuth2Authenticator(endpoint: endpoint, tokens: try await flow.poll(code)))])
/// ```
public final class OAuth2Authenticator: Authenticator {
    /// Where tokens are renewed.
    public let endpoint: OAuth2TokenEndpoint
    /// The tokens last issued: the refresh token is read from here even when the access token
    /// has expired.
    private let latest: Mutex<OAuth2Tokens>
    private let cache: CredentialCache<OAuth2Tokens>

    /// - Parameters:
    ///   - endpoint: The token endpoint that issued `tokens`.
    ///   - tokens: What the grant issued. An empty access token with a refresh token is renewed
    ///     before the first request.
    public init(endpoint: OAuth2TokenEndpoint, tokens: OAuth2Tokens) {
        self.endpoint = endpoint
        latest = Mutex(tokens)
        cache = CredentialCache(tokens.accessToken.isEmpty ? nil : tokens) { $0.isFresh }
        let redactor = endpoint.client.configuration.redactor
        if !tokens.accessToken.isEmpty { redactor.addSecret(tokens.accessToken) }
        if let refresh = tokens.refreshToken { redactor.addSecret(refresh) }
    }

    /// The tokens in use now (the last renewal's).
    public var tokens: OAuth2Tokens { latest.withLock { $0 } }

    /// Whether a 401 can be answered by renewing: there is a refresh token.
    public var renewsCredentials: Bool { tokens.refreshToken != nil }

    /// Adds `Authorization: Bearer`, renewing the token first when it has expired and can be
    /// renewed.
    public func authorize(_ request: inout PreparedRequest) async throws {
        let current = tokens
        let token: OAuth2Tokens
        if current.refreshToken == nil {
            token = current  // nothing to renew with: the server decides
        } else {
            token = try await cache.value(orFetch: renew)
        }
        request.headers.replace(.authorization, with: "Bearer \(token.accessToken)")
    }

    /// Renews the token after a 401.
    public func authenticate() async throws {
        guard renewsCredentials else { return }
        await cache.clear()
        _ = try await cache.value(orFetch: renew)
    }

    /// Exchanges the refresh token for new tokens, keeping them as the latest.
    @Sendable private func renew() async throws -> OAuth2Tokens {
        let current = tokens
        guard let refreshToken = current.refreshToken else {
            throw NetworkError.transport("the OAuth2 access token expired and there is no refresh token to renew it")
        }
        let renewed = try await endpoint.refresh(refreshToken)
        latest.withLock { $0 = renewed }
        return renewed
    }
}
