import Foundation

/// The device authorization grant ([RFC 8628](https://www.rfc-editor.org/rfc/rfc8628)): the person
/// enters a short code at a URL on any device while the client polls the token endpoint.
///
/// ``poll(_:sleep:)`` waits the server's interval between polls, adds five seconds on `slow_down`,
/// keeps going on `authorization_pending`, and stops with one clear error on `access_denied` or
/// `expired_token` — or when its task is cancelled.
public struct OAuth2DeviceAuthorization: Sendable {
    /// The device authorization endpoint.
    public let deviceURL: String
    /// The token endpoint polled, and the client.
    public let endpoint: OAuth2TokenEndpoint
    /// The scope asked for, if any.
    public let scope: String?

    /// - Parameters:
    ///   - deviceURL: The device authorization endpoint.
    ///   - endpoint: The token endpoint polled, and the client.
    ///   - scope: The scope asked for, if any.
    public init(deviceURL: String, endpoint: OAuth2TokenEndpoint, scope: String? = nil) {
        self.deviceURL = deviceURL
        self.endpoint = endpoint
        self.scope = scope
    }

    /// What the person is shown, and what the client polls with.
    public struct Code: Sendable, Equatable {
        /// The code the person enters.
        public var userCode: String
        /// Where they enter it.
        public var verificationURI: String
        /// The same with the code filled in, when the server gives one.
        public var verificationURIComplete: String?
        /// The seconds between polls (5 unless the server says).
        public var interval: Int
        /// How long the code is good, in seconds.
        public var expiresIn: Int
        let deviceCode: String
    }

    /// Asks the device authorization endpoint for a user code.
    public func start() async throws -> Code {
        var form: [QueryItem] = []
        if let scope { form.append(QueryItem("scope", scope)) }
        let response = try await endpoint.client.send(endpoint.identified(.post(deviceURL), form: form))
        struct Body: Decodable {
            var device_code: String?
            var user_code: String?
            var verification_uri: String?
            var verification_url: String?  // as some servers spell it
            var verification_uri_complete: String?
            var interval: Int?
            var expires_in: Int?
            var error: String?
            var error_description: String?
        }
        let body = try? JSONDecoder().decode(Body.self, from: response.body)
        guard response.status.isSuccess else {
            throw OAuth2TokenEndpoint.Refusal(
                code: body?.error, description: body?.error_description, response: response
            ).error("device authorization")
        }
        guard let body, let device = body.device_code, let user = body.user_code,
            let uri = body.verification_uri ?? body.verification_url
        else {
            throw NetworkError.transport(
                "the device authorization response from \(deviceURL) lacks device_code, user_code or verification_uri")
        }
        endpoint.client.configuration.redactor.addSecret(device)
        return Code(
            userCode: user, verificationURI: uri, verificationURIComplete: body.verification_uri_complete,
            interval: max(1, min(body.interval ?? 5, 300)), expiresIn: max(1, min(body.expires_in ?? 1800, 86_400)),
            deviceCode: device)
    }

    /// Polls the token endpoint until the person approves, refuses, or the code expires.
    ///
    /// - Parameters:
    ///   - code: What ``start()`` returned.
    ///   - sleep: Waits between polls (tests pass a faster clock); `Task.sleep` by default.
    /// - Returns: The tokens issued once the person approved.
    /// - Throws: ``NetworkError/transport(_:)`` on `access_denied`, `expired_token` or a code that
    ///   outlived its `expires_in`; the token endpoint's other refusals; `CancellationError`.
    public func poll(
        _ code: Code, sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws -> OAuth2Tokens {
        var interval = Duration.seconds(code.interval)
        let deadline = ContinuousClock.now + .seconds(code.expiresIn)
        while true {
            try await sleep(interval)
            let grant = [
                QueryItem("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                QueryItem("device_code", code.deviceCode),
            ]
            switch try await endpoint.answer(for: grant) {
            case .tokens(let tokens): return tokens
            case .refused(let refusal):
                switch refusal.code {
                case "authorization_pending": break
                case "slow_down": interval += .seconds(5)
                case "access_denied":
                    throw NetworkError.transport("the OAuth2 device authorization was refused: access_denied")
                case "expired_token":
                    throw NetworkError.transport(
                        "the OAuth2 device code expired before it was approved (expired_token): start again")
                default: throw refusal.error("device token")
                }
            }
            if ContinuousClock.now + interval > deadline {
                throw NetworkError.transport(
                    "the OAuth2 device code expired before it was approved (after \(code.expiresIn) s): start again")
            }
        }
    }
}
