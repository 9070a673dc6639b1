import FathomTestSupport
import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

/// PKCE, discovery's URLs, the device flow's polling, the client's two ways to authenticate, and
/// tokens renewed with a refresh token — on MockTransport. The flows against a real authorization
/// server are in FathomEndToEndTests.OAuth2FlowTests.
@Suite struct OAuth2GrantTests {
    @Test func pkceMatchesRFC7636sExample() {
        // RFC 7636 Appendix B.
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
        let random = PKCE.random()
        #expect(random.verifier.count == 43)
        #expect(random.verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(random != PKCE.random())
    }

    @Test func discoveryTriesRFC8414ThenOpenIDConnect() throws {
        #expect(
            try OAuth2ServerMetadata.wellKnownURLs(for: "https://auth.example.com") == [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ])
        // RFC 8414 §3.1: the well-known part goes between the host and the issuer's path.
        #expect(
            try OAuth2ServerMetadata.wellKnownURLs(for: "https://example.com/tenant/1/") == [
                "https://example.com/.well-known/oauth-authorization-server/tenant/1",
                "https://example.com/tenant/1/.well-known/openid-configuration",
            ])
    }

    @Test func discoveryRefusesMetadataForAnotherIssuer() async throws {
        let transport = MockTransport()
        transport.register(
            "/.well-known/oauth-authorization-server",
            .json(#"{"issuer":"https://evil.test","token_endpoint":"https://evil.test/token"}"#))
        let client = NetworkClient(baseURL: "https://auth.test", transport: transport)
        await #expect {
            _ = try await OAuth2ServerMetadata.discover(issuer: "https://auth.test", client: client)
        } throws: { error in
            "\(error)".contains("names the issuer 'https://evil.test', not 'https://auth.test'")
        }
        let other = MockTransport()
        other.register("/.well-known/oauth-authorization-server", .json("{}", status: 404))
        other.register(
            "/.well-known/openid-configuration",
            .json(
                #"{"issuer":"https://auth.test","authorization_endpoint":"https://auth.test/a","token_endpoint":"https://auth.test/t","token_endpoint_auth_methods_supported":["client_secret_post"]}"#
            ))
        let found = try await OAuth2ServerMetadata.discover(
            issuer: "https://auth.test", client: NetworkClient(baseURL: "https://auth.test", transport: other))
        #expect(found.tokenEndpoint == "https://auth.test/t")
        #expect(found.clientAuthentication == .post)
    }

    /// A token endpoint that records each form and Authorization header it gets.
    final class TokenServer: Sendable {
        let forms = Locked<[String]>([])
        let authorizations = Locked<[String?]>([])
        let answers: Locked<[(Int, String)]>

        init(_ answers: [(Int, String)]) { self.answers = Locked(answers) }

        var transport: MockTransport {
            let transport = MockTransport()
            for path in ["/token", "/device"] {
                transport.register(
                    path,
                    .handler { request in
                        guard case .bytes(let body)? = request.body else { return .json("{}", status: 400) }
                        self.forms.withLock { $0.append(String(decoding: body, as: UTF8.self)) }
                        self.authorizations.withLock { $0.append(request.headers[.authorization]) }
                        let (status, json) = self.answers.withLock { $0.removeFirst() }
                        return .json(json, status: status)
                    })
            }
            return transport
        }
    }

    @Test func theDeviceFlowPollsAtTheIntervalAndSlowsDownWhenTold() async throws {
        let server = TokenServer([
            (
                200,
                #"{"device_code":"dev-1","user_code":"ABCD-EFGH","verification_uri":"https://auth.test/device","interval":2,"expires_in":600}"#
            ),
            (400, #"{"error":"authorization_pending"}"#),
            (400, #"{"error":"slow_down"}"#),
            (400, #"{"error":"authorization_pending"}"#),
            (200, #"{"access_token":"at-1","refresh_token":"rt-1","expires_in":3600,"scope":"read"}"#),
        ])
        let redactor = Redactor()
        let client = NetworkClient(
            configuration: .init(baseURL: "https://auth.test", redactor: redactor), transport: server.transport)
        let endpoint = OAuth2TokenEndpoint(
            tokenURL: "/token", clientID: "cli", clientSecret: "s3cret-value", authentication: .post, client: client)
        let flow = OAuth2DeviceAuthorization(deviceURL: "/device", endpoint: endpoint, scope: "read")
        let code = try await flow.start()
        #expect(code.userCode == "ABCD-EFGH" && code.interval == 2)
        let waits = Locked<[Duration]>([])
        let tokens = try await flow.poll(code) { wait in waits.withLock { $0.append(wait) } }
        #expect(tokens.accessToken == "at-1" && tokens.refreshToken == "rt-1" && tokens.scope == "read")
        // 2 s, 2 s, then 7 s after slow_down, twice.
        #expect(waits.value == [.seconds(2), .seconds(2), .seconds(7), .seconds(7)])
        let forms = server.forms.value
        #expect(forms[0] == "scope=read&client_id=cli&client_secret=s3cret-value")
        #expect(
            forms[1]
                == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=dev-1&client_id=cli&client_secret=s3cret-value"
        )
        #expect(server.authorizations.value.allSatisfy { $0 == nil }, "client_secret_post sends no Basic header")
        // Secrets the flow saw are masked from then on.
        #expect(redactor.redact("at-1 rt-1 dev-1 s3cret-value").contains("at-1") == false)
    }

    @Test func aRefusedOrExpiredDeviceCodeIsOneClearError() async throws {
        for (answer, message) in [
            (#"{"error":"access_denied"}"#, "the OAuth2 device authorization was refused: access_denied"),
            (#"{"error":"expired_token"}"#, "the OAuth2 device code expired before it was approved (expired_token)"),
            (
                #"{"error":"invalid_client","error_description":"unknown client"}"#,
                "the OAuth2 device token request was refused: invalid_client — unknown client"
            ),
        ] {
            let server = TokenServer([
                (200, #"{"device_code":"d","user_code":"U","verification_uri":"https://auth.test/device"}"#),
                (400, answer),
            ])
            let client = NetworkClient(baseURL: "https://auth.test", transport: server.transport)
            let flow = OAuth2DeviceAuthorization(
                deviceURL: "/device", endpoint: OAuth2TokenEndpoint(tokenURL: "/token", clientID: "cli", client: client)
            )
            let code = try await flow.start()
            await #expect {
                _ = try await flow.poll(code) { _ in }
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test func aConfidentialClientAuthenticatesWithBasicByDefault() async throws {
        let server = TokenServer([(200, #"{"access_token":"a","refresh_token":"r2"}"#)])
        let client = NetworkClient(baseURL: "https://auth.test", transport: server.transport)
        // RFC 6749 §2.3.1: the ID and secret are form-encoded before they are joined.
        let endpoint = OAuth2TokenEndpoint(
            tokenURL: "/token", clientID: "my app", clientSecret: "p:ss&", client: client)
        let tokens = try await endpoint.refresh("r1")
        #expect(tokens.refreshToken == "r2")
        #expect(server.forms.value == ["grant_type=refresh_token&refresh_token=r1"])
        let expected = Data("my+app:p%3Ass%26".utf8).base64EncodedString()
        #expect(server.authorizations.value == ["Basic \(expected)"])
    }

    @Test func tokensRenewBeforeTheyExpireAndOnceAfterA401() async throws {
        let issued = Locked(0)
        let transport = MockTransport()
        transport.register(
            "/token",
            .handler { request in
                guard case .bytes(let body)? = request.body,
                    String(decoding: body, as: UTF8.self).hasPrefix("grant_type=refresh_token&refresh_token=rt")
                else { return .json(#"{"error":"invalid_grant"}"#, status: 400) }
                let number = issued.increment()
                return .json(#"{"access_token":"at-\#(number)","expires_in":3600}"#)
            })
        transport.register(
            "/api",
            .handler { request in
                request.headers[.authorization] == "Bearer at-\(issued.value)"
                    ? .json(#"{"ok":true}"#) : .json("{}", status: 401)
            })
        let tokenClient = NetworkClient(baseURL: "https://auth.test", transport: transport)
        let endpoint = OAuth2TokenEndpoint(tokenURL: "/token", clientID: "cli", client: tokenClient)
        // Expired already: the first request renews it.
        let authenticator = OAuth2Authenticator(
            endpoint: endpoint,
            tokens: OAuth2Tokens(accessToken: "at-0", refreshToken: "rt", renewAt: .now - .seconds(1)))
        let api = NetworkClient(
            baseURL: "https://api.test", interceptors: [.authenticator(authenticator)], transport: transport)
        #expect(try await api.send(.get("/api")).status.code == 200)
        #expect(issued.value == 1)
        #expect(authenticator.tokens.refreshToken == "rt", "a server that issues no new refresh token keeps the old")
        // The server moves on (another client renewed): a 401, one renewal, the request again.
        issued.increment()
        #expect(try await api.send(.get("/api")).status.code == 200)
        #expect(issued.value == 3)
        // Without a refresh token there is nothing to renew: the 401 is returned as it is.
        let fixed = OAuth2Authenticator(endpoint: endpoint, tokens: OAuth2Tokens(accessToken: "old"))
        #expect(!fixed.renewsCredentials)
        let plain = NetworkClient(
            baseURL: "https://api.test", interceptors: [.authenticator(fixed)], transport: transport)
        #expect(try await plain.send(.get("/api")).status.code == 401)
        #expect(issued.value == 3)
    }

    @Test func theRedirectListenerHandsOverTheQueryAndTheCodeFlowChecksState() async throws {
        let server = TokenServer([(200, #"{"access_token":"at","refresh_token":"rt","expires_in":60}"#)])
        let client = NetworkClient(baseURL: "https://auth.test", transport: server.transport)
        let flow = OAuth2AuthorizationCode(
            authorizationURL: "https://auth.test/authorize?prompt=consent",
            endpoint: OAuth2TokenEndpoint(tokenURL: "/token", clientID: "cli", client: client), scope: "read write",
            timeout: .seconds(10))
        let request = try await flow.start()
        let url = try #require(URLComponents(string: request.url))
        let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["prompt"] == "consent" && query["response_type"] == "code" && query["scope"] == "read write")
        #expect(query["code_challenge_method"] == "S256" && query["code_challenge"] == request.pkce.challenge)
        #expect(query["redirect_uri"] == request.redirectURI && request.redirectURI.hasPrefix("http://127.0.0.1:"))
        let state = try #require(query["state"])

        // The browser comes back, first asking for a favicon (a 404, the wait goes on).
        let browser = NetworkClient(baseURL: "http://127.0.0.1:\(request.listener.port)")
        async let tokens = request.tokens()
        #expect(try await browser.send(.get("/favicon.ico")).status.code == 404)
        let page = try await browser.send(.get("/callback?code=the-code&state=\(state)"))
        #expect(page.status.code == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("go back to the terminal"))
        #expect(try await tokens.accessToken == "at")
        let form = try #require(server.forms.value.first)
        #expect(form.contains("grant_type=authorization_code&code=the-code&redirect_uri="))
        #expect(form.contains("code_verifier=\(request.pkce.verifier)&client_id=cli"))

        // Another request, answered with a state that is not its own.
        let second = try await flow.start()
        let refused = Task { try await second.tokens() }
        _ = try await NetworkClient(baseURL: "http://127.0.0.1:\(second.listener.port)").send(
            .get("/callback?code=c&state=forged"))
        await #expect {
            _ = try await refused.value
        } throws: { error in
            "\(error)".contains("a state that is not the one sent")
        }
        #expect(server.forms.value.count == 1, "no code was exchanged for the forged answer")
    }
}
