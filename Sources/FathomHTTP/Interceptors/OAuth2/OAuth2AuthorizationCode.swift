import Foundation

/// The authorization-code grant for a native app, as [RFC 8252](https://www.rfc-editor.org/rfc/rfc8252)
/// has it: PKCE (S256) always, the redirect to a listener on `127.0.0.1`, `state` checked, the code
/// exchanged at the token endpoint ([RFC 6749 §4.1](https://www.rfc-editor.org/rfc/rfc6749#section-4.1),
/// [RFC 7636](https://www.rfc-editor.org/rfc/rfc7636)).
///
/// ```swift
/// let flow = OAuth2AuthorizationCode(authorizationURL: "https://auth.example.com/authorize", endpoint: endpoint)
/// let request = try await flow.start()
/// print("open \(request.url)")            // the person signs in in a browser
/// let tokens = try await request.tokens() // the browser came back; the code is exchanged
/// ```
public struct OAuth2AuthorizationCode: Sendable {
    /// The authorization endpoint the browser opens.
    public let authorizationURL: String
    /// Where the code is exchanged for tokens.
    public let endpoint: OAuth2TokenEndpoint
    /// The scope asked for, if any.
    public let scope: String?
    /// The redirect listener's port; 0 takes a free one (RFC 8252 §7.3: servers allow any port
    /// on a loopback redirect URI).
    public let redirectPort: Int
    /// How long the browser has to come back.
    public let timeout: Duration

    /// - Parameters:
    ///   - authorizationURL: The authorization endpoint.
    ///   - endpoint: The token endpoint and the client.
    ///   - scope: The scope asked for, if any.
    ///   - redirectPort: The listener's port; 0 for any free one.
    ///   - timeout: How long the browser has to come back; 5 minutes by default.
    public init(
        authorizationURL: String, endpoint: OAuth2TokenEndpoint, scope: String? = nil, redirectPort: Int = 0,
        timeout: Duration = .seconds(300)
    ) {
        self.authorizationURL = authorizationURL
        self.endpoint = endpoint
        self.scope = scope
        self.redirectPort = redirectPort
        self.timeout = timeout
    }

    /// An authorization request waiting for the browser.
    public struct Request: Sendable {
        /// The URL the person opens: the authorization endpoint with the client, redirect URI,
        /// scope, state and code challenge.
        public let url: String
        /// The redirect URI it names.
        public var redirectURI: String { listener.redirectURI }
        let pkce: PKCE
        let state: String
        let flow: OAuth2AuthorizationCode
        let listener: LoopbackRedirect

        /// Waits for the browser to come back, checks `state`, and exchanges the code for tokens.
        ///
        /// The token request carries the PKCE verifier; the listener is closed when this returns
        /// or throws.
        ///
        /// - Returns: The tokens the server issued.
        /// - Throws: ``NetworkError/transport(_:)`` when `state` differs, the server answered with
        ///   an error (`access_denied`), or no code came; ``NetworkError/timeout(_:after:)`` when
        ///   the browser did not come back in time; the token endpoint's refusal.
        public func tokens() async throws -> OAuth2Tokens {
            let answer: [String: String]
            do {
                answer = try await listener.answer(within: flow.timeout)
                await listener.close()
            } catch {
                await listener.close()
                throw error
            }
            guard answer["state"] == state else {
                throw NetworkError.transport(
                    "the OAuth2 redirect came back with a state that is not the one sent: refused (a forged or stale answer)"
                )
            }
            if let error = answer["error"] {
                let description = answer["error_description"].map { " — \($0)" } ?? ""
                throw NetworkError.transport("the OAuth2 authorization was refused: \(error)\(description)")
            }
            guard let code = answer["code"], !code.isEmpty else {
                throw NetworkError.transport("the OAuth2 redirect came back without a code")
            }
            let redactor = flow.endpoint.client.configuration.redactor
            redactor.addSecret(code)
            redactor.addSecret(pkce.verifier)
            return try await flow.endpoint.tokens(
                for: [
                    QueryItem("grant_type", "authorization_code"), QueryItem("code", code),
                    QueryItem("redirect_uri", redirectURI), QueryItem("code_verifier", pkce.verifier),
                ], what: "code exchange")
        }

        /// Stops listening without waiting for the browser.
        public func cancel() async { await listener.close() }
    }

    /// Starts listening for the redirect and builds the URL the person opens.
    public func start() async throws -> Request {
        let pkce = PKCE.random()
        let state = PKCE.randomState()
        let listener = try await LoopbackRedirect.listen(port: redirectPort)
        var items = [
            ("response_type", "code"), ("client_id", endpoint.clientID), ("redirect_uri", listener.redirectURI),
        ]
        if let scope { items.append(("scope", scope)) }
        items += [("state", state), ("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method)]
        let query = items.map {
            PercentEncoding.encode($0.0, as: .queryItem) + "=" + PercentEncoding.encode($0.1, as: .queryItem)
        }.joined(separator: "&")
        let url = authorizationURL + (authorizationURL.contains("?") ? "&" : "?") + query
        return Request(url: url, pkce: pkce, state: state, flow: self, listener: listener)
    }
}
