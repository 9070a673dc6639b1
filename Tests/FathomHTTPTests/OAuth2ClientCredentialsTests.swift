import FathomTestSupport
import Foundation
import Logging
import Testing

@_spi(Fathom) @testable import FathomHTTP

/// A token endpoint and an API on one MockTransport: the endpoint counts what it issues, the API
/// accepts only the newest token.
private final class OAuthWorld: Sendable {
    static let clientSecret = "client-secret-7f3a9c2e"
    let issued = Locked(0)
    let expiresIn: Int?
    let tokenDelay: Duration

    init(expiresIn: Int? = 3600, tokenDelay: Duration = .zero) {
        self.expiresIn = expiresIn
        self.tokenDelay = tokenDelay
    }

    var currentToken: String { "token-\(issued.value)" }

    func transport(tokenStatus: Int = 200) -> MockTransport {
        let transport = MockTransport()
        transport.register(
            "/oauth/token",
            .handler { request in
                if self.tokenDelay > .zero { try await Task.sleep(for: self.tokenDelay) }
                guard case .bytes(let body)? = request.body else { return .json("{}", status: 400) }
                let form = String(decoding: body, as: UTF8.self)
                guard tokenStatus == 200 else {
                    // A careless server that echoes what it was sent.
                    return .json(
                        #"{"error":"invalid_client","error_description":"rejected \#(form)"}"#, status: tokenStatus)
                }
                guard form.contains("grant_type=client_credentials"), form.contains("client_id=app"),
                    form.contains("client_secret=\(Self.clientSecret)")
                else { return .json(#"{"error":"invalid_request"}"#, status: 400) }
                let number = self.issued.increment()
                let token = "token-\(number)"
                let expiry = self.expiresIn.map { #","expires_in":\#($0)"# } ?? ""
                return .json(#"{"access_token":"\#(token)","token_type":"Bearer"\#(expiry)}"#)
            })
        transport.register(
            "/api",
            .handler { request in
                request.headers[.authorization] == "Bearer \(self.currentToken)"
                    ? .json(#"{"ok":true}"#) : .json(#"{"message":"expired"}"#, status: 401)
            })
        return transport
    }

    func client(
        _ transport: MockTransport, redactor: Redactor = Redactor(), logger: Logger? = nil
    ) -> (
        NetworkClient, OAuth2ClientCredentials
    ) {
        let tokens = NetworkClient(
            configuration: .init(baseURL: "http://auth.test", logger: logger, logDetail: .body, redactor: redactor),
            transport: transport)
        let oauth = OAuth2ClientCredentials(
            tokenURL: "/oauth/token", clientID: "app", clientSecret: Self.clientSecret, client: tokens)
        let api = NetworkClient(
            configuration: .init(baseURL: "http://api.test", interceptors: [.authenticator(oauth)], redactor: redactor),
            transport: transport)
        return (api, oauth)
    }
}

@Suite struct OAuth2ClientCredentialsTests {
    @Test func fetchesOnceAndCachesUntilExpiry() async throws {
        let world = OAuthWorld(expiresIn: 3600)
        let (api, oauth) = world.client(world.transport())
        for _ in 0..<3 { #expect(try await api.send(NetworkRequest.get("/api")).status.code == 200) }
        #expect(world.issued.value == 1)
        #expect(await oauth.currentToken?.value == "token-1")
    }

    @Test func anExpiredTokenIsFetchedAgain() async throws {
        // A lifetime shorter than twice the 30 s margin is renewed after three quarters of it:
        // a 1 s token serves the requests of its first 0.75 s, then a new one is fetched.
        let world = OAuthWorld(expiresIn: 1)
        let (api, oauth) = world.client(world.transport())
        for _ in 0..<2 { #expect(try await api.send(NetworkRequest.get("/api")).status.code == 200) }
        #expect(world.issued.value == 1)
        try await Task.sleep(for: .milliseconds(800))
        #expect(await oauth.currentToken == nil)
        #expect(try await api.send(NetworkRequest.get("/api")).status.code == 200)
        #expect(world.issued.value == 2)
    }

    @Test func a401FetchesANewTokenAndRetriesOnce() async throws {
        let world = OAuthWorld(expiresIn: nil)
        let (api, _) = world.client(world.transport())
        #expect(try await api.send(NetworkRequest.get("/api")).status.code == 200)
        // The server revokes the token: the next token it would issue is the only good one.
        world.issued.withLock { $0 += 1 }
        #expect(try await api.send(NetworkRequest.get("/api")).status.code == 200)
        #expect(world.issued.value == 3, "one new token after the 401")
    }

    @Test func concurrentRequestsShareOneFetch() async throws {
        let world = OAuthWorld(expiresIn: 3600, tokenDelay: .milliseconds(50))
        let (api, _) = world.client(world.transport())
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await api.send(NetworkRequest.get("/api")).status.code } }
            for try await status in group { #expect(status == 200) }
        }
        #expect(world.issued.value == 1)
    }

    @Test func theClientSecretIsMaskedInErrorsAndLogs() async throws {
        let world = OAuthWorld()
        let recorder = LogRecorder()
        let (api, _) = world.client(world.transport(tokenStatus: 401), logger: recorder.logger())
        let error = await #expect(throws: NetworkError.self) { try await api.send(NetworkRequest.get("/api")) }
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains("the OAuth2 token request was refused"))
        #expect(!text.contains(OAuthWorld.clientSecret))
        #expect(recorder.count > 0)
        #expect(!recorder.text.contains(OAuthWorld.clientSecret))
    }

    @Test func anAnswerWithoutATokenIsAClearError() async throws {
        let transport = MockTransport()
        transport.register("/oauth/token", .json(#"{"token_type":"Bearer"}"#))
        let tokens = NetworkClient(baseURL: "http://auth.test", transport: transport)
        let oauth = OAuth2ClientCredentials(
            tokenURL: "/oauth/token", clientID: "app", clientSecret: "s3cr3t-value", client: tokens)
        let error = await #expect(throws: NetworkError.self) { try await oauth.fetch() }
        #expect(error.map(String.init(describing:))?.contains("has no access_token") == true)
    }
}
