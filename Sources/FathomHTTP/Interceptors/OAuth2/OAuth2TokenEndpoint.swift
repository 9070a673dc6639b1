import Foundation

/// What an OAuth 2.0 token endpoint issued: an access token, until when it is good, and the
/// refresh token that renews it when the server gave one.
public struct OAuth2Tokens: Sendable, Equatable {
    /// The access token, sent as `Authorization: Bearer …`.
    public var accessToken: String
    /// The token that gets a new access token without the person ([RFC 6749 §6](https://www.rfc-editor.org/rfc/rfc6749#section-6)).
    public var refreshToken: String?
    /// When the access token is to be renewed (its `expires_in` less a margin); `nil` when the
    /// server gave no lifetime: good until a 401 says otherwise.
    public var renewAt: ContinuousClock.Instant?
    /// The lifetime the server gave, in seconds.
    public var expiresIn: Double?
    /// The scope granted, when the server says.
    public var scope: String?

    /// Tokens given from outside (an environment's, a test's).
    public init(
        accessToken: String, refreshToken: String? = nil, renewAt: ContinuousClock.Instant? = nil,
        expiresIn: Double? = nil, scope: String? = nil
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.renewAt = renewAt
        self.expiresIn = expiresIn
        self.scope = scope
    }

    /// Whether the access token is still good to send now.
    public var isFresh: Bool { renewAt.map { $0 > .now } ?? true }
}

/// How a confidential client proves who it is to the token endpoint
/// ([RFC 6749 §2.3.1](https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1)); a public client (no
/// secret) sends its `client_id` in the form either way.
public enum OAuth2ClientAuthentication: String, Sendable, CaseIterable {
    /// `Authorization: Basic` with the form-encoded ID and secret.
    case basic = "client_secret_basic"
    /// `client_id` and `client_secret` in the form.
    case post = "client_secret_post"
}

/// A token endpoint and the client that asks it: every grant's last step, and refreshing.
///
/// Its errors are ``NetworkError``: a refusal is ``NetworkError/httpStatus(_:message:response:)``
/// whose message carries the server's `error` code and `error_description`
/// ([RFC 6749 §5.2](https://www.rfc-editor.org/rfc/rfc6749#section-5.2)). The client secret and
/// every token issued are registered with the client's ``Redactor``.
public struct OAuth2TokenEndpoint: Sendable {
    /// The token endpoint's URL.
    public let tokenURL: String
    /// The client's identifier.
    public let clientID: String
    /// How the client authenticates when it has a secret.
    public let authentication: OAuth2ClientAuthentication
    /// How long before a token's stated expiry it is renewed: this, or a quarter of a short
    /// lifetime.
    public let expiryMargin: Duration
    let clientSecret: String?
    let client: NetworkClient

    /// - Parameters:
    ///   - tokenURL: The token endpoint, absolute or relative to `client`'s base URL.
    ///   - clientID: The client's ID.
    ///   - clientSecret: The secret of a confidential client; `nil` for a public one.
    ///   - authentication: How the secret is sent; `client_secret_basic` by default, which every
    ///     server must support.
    ///   - client: Sends the token requests; give it no authenticator for the same endpoint.
    ///   - expiryMargin: How long before a token's stated expiry it is renewed.
    public init(
        tokenURL: String, clientID: String, clientSecret: String? = nil,
        authentication: OAuth2ClientAuthentication = .basic, client: NetworkClient,
        expiryMargin: Duration = .seconds(30)
    ) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret.flatMap { $0.isEmpty ? nil : $0 }
        self.authentication = authentication
        self.client = client
        self.expiryMargin = expiryMargin
        if let clientSecret = self.clientSecret { client.configuration.redactor.addSecret(clientSecret) }
    }

    /// Renews tokens with a refresh token; a server that issues no new refresh token leaves the
    /// old one in use ([RFC 6749 §6](https://www.rfc-editor.org/rfc/rfc6749#section-6)).
    public func refresh(_ refreshToken: String, scope: String? = nil) async throws -> OAuth2Tokens {
        var form = [QueryItem("grant_type", "refresh_token"), QueryItem("refresh_token", refreshToken)]
        if let scope { form.append(QueryItem("scope", scope)) }
        var tokens = try await tokens(for: form, what: "refresh")
        if tokens.refreshToken == nil { tokens.refreshToken = refreshToken }
        return tokens
    }

    /// Asks for tokens with a grant's form fields (`grant_type` and its own); the client's
    /// identity is added as ``authentication`` says.
    public func tokens(for grant: [QueryItem], what: String = "token") async throws -> OAuth2Tokens {
        switch try await answer(for: grant) {
        case .tokens(let tokens): return tokens
        case .refused(let refusal): throw refusal.error(what)
        }
    }

    /// An error answer ([RFC 6749 §5.2](https://www.rfc-editor.org/rfc/rfc6749#section-5.2)).
    struct Refusal {
        var code: String?
        var description: String?
        var response: NetworkResponse<Data>

        func error(_ what: String) -> NetworkError {
            let reason =
                [code, description].compactMap { $0 }.joined(separator: " — ").nilIfEmpty
                ?? ErrorMessage.extract(from: response) ?? "\(response.status)"
            return .httpStatus(
                response.status, message: "the OAuth2 \(what) request was refused: \(reason)", response: response)
        }
    }

    enum Answer {
        case tokens(OAuth2Tokens)
        case refused(Refusal)
    }

    /// Posts the grant and reads the answer: tokens, or the server's error (which a device
    /// flow's polling reads by its code).
    func answer(for grant: [QueryItem]) async throws -> Answer {
        let response = try await client.send(identified(.post(tokenURL), form: grant))
        struct Body: Decodable {
            var access_token: String?
            var refresh_token: String?
            var expires_in: Double?
            var scope: String?
            var error: String?
            var error_description: String?
        }
        let body = try? JSONDecoder().decode(Body.self, from: response.body)
        guard response.status.isSuccess else {
            return .refused(Refusal(code: body?.error, description: body?.error_description, response: response))
        }
        guard let access = body?.access_token, !access.isEmpty else {
            throw NetworkError.transport("the OAuth2 token response from \(tokenURL) has no access_token")
        }
        let redactor = client.configuration.redactor
        redactor.addSecret(access)
        if let refresh = body?.refresh_token, !refresh.isEmpty { redactor.addSecret(refresh) }
        let lifetime = body?.expires_in.flatMap { $0.isFinite && $0 > 0 && $0 < 1e9 ? $0 : nil }
        return .tokens(
            OAuth2Tokens(
                accessToken: access, refreshToken: body?.refresh_token.flatMap { $0.isEmpty ? nil : $0 },
                renewAt: lifetime.map { renewal(after: $0) }, expiresIn: lifetime, scope: body?.scope))
    }

    /// When a token that lasts `seconds` is renewed: ``expiryMargin`` before its end, or after
    /// three quarters of a lifetime too short for the margin.
    func renewal(after seconds: Double) -> ContinuousClock.Instant {
        let lifetime = Duration.milliseconds(Int64(seconds * 1000))
        let margin = lifetime > expiryMargin * 2 ? expiryMargin : lifetime / 4
        return .now + lifetime - margin
    }

    /// `request` with `form` as its body and the client's identity added: in an `Authorization:
    /// Basic` header or in the form; a public client's `client_id` in the form.
    func identified(_ request: NetworkRequest, form: [QueryItem]) -> NetworkRequest {
        var form = form
        var request = request.header(.accept, "application/json")
        if let clientSecret, authentication == .basic {
            let user = PercentEncoding.encode(clientID, as: .form)
            let password = PercentEncoding.encode(clientSecret, as: .form)
            let encoded = ClosureAuthenticator.basicCredentials(user: user, password: password)
            client.configuration.redactor.addSecret(encoded)
            request = request.header(.authorization, "Basic \(encoded)")
        } else {
            form.append(QueryItem("client_id", clientID))
            if let clientSecret { form.append(QueryItem("client_secret", clientSecret)) }
        }
        return request.body(form: form)
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
