import FathomTestSupport
import Foundation
import Testing

@testable import FathomHTTP

/// A server stand-in that accepts one token, and an authenticator whose token can be wrong.
private final class TokenWorld: Sendable {
    let validToken = Locked("good-1")
    let issued = Locked(["stale"])
    let authenticateCalls = Locked(0)

    func mock() -> MockTransport {
        let transport = MockTransport()
        transport.register(
            "/private",
            .handler { request in
                let valid = self.validToken.withLock { $0 }
                if request.headers[.authorization] == "Bearer \(valid)" { return .json(#"{"ok":true}"#) }
                try await Task.sleep(for: .milliseconds(20))
                return .json(#"{"message":"bad token"}"#, status: 401)
            })
        return transport
    }

    func authenticator(refreshTo next: String?) -> ClosureAuthenticator {
        ClosureAuthenticator(
            authorize: { request in
                let token = self.issued.withLock { $0.last! }
                request.headers.replace(.authorization, with: "Bearer \(token)")
            },
            authenticate: {
                self.authenticateCalls.increment()
                try await Task.sleep(for: .milliseconds(20))
                if let next { self.issued.withLock { $0.append(next) } }
            })
    }
}

@Suite struct AuthenticationInterceptorTests {
    @Test func unauthorizedAuthenticatesOnceThenRetries() async throws {
        let world = TokenWorld()
        let transport = world.mock()
        let client = NetworkClient(
            baseURL: "http://api.test", interceptors: [.authenticator(world.authenticator(refreshTo: "good-1"))],
            transport: transport)

        let response = try await client.send(.get("/private"))

        #expect(response.status.code == 200)
        #expect(world.authenticateCalls.withLock { $0 } == 1)
        #expect(transport.requests.map { $0.headers[.authorization] } == ["Bearer stale", "Bearer good-1"])
    }

    @Test func secondUnauthorizedIsReturnedWithoutLooping() async throws {
        let world = TokenWorld()
        let transport = world.mock()
        let client = NetworkClient(
            baseURL: "http://api.test", interceptors: [.authenticator(world.authenticator(refreshTo: "still-wrong"))],
            transport: transport)

        let response = try await client.send(.get("/private"))

        #expect(response.status.code == 401)
        #expect(transport.requests.count == 2)
        #expect(world.authenticateCalls.withLock { $0 } == 1)
    }

    @Test func concurrentUnauthorizedShareOneAuthenticate() async throws {
        let world = TokenWorld()
        let client = NetworkClient(
            baseURL: "http://api.test", interceptors: [.authenticator(world.authenticator(refreshTo: "good-1"))],
            transport: world.mock())

        let results = await client.sendAll(Array(repeating: NetworkRequest.get("/private"), count: 8), maxConcurrent: 8)

        #expect(results.allSatisfy { (try? $0.get().status.code) == 200 })
        #expect(world.authenticateCalls.withLock { $0 } == 1)
    }

    @Test func bearerTokenAuthenticatorFetchesOnceAndRefreshesOn401() async throws {
        let fetches = Locked(0)
        let authenticator = BearerTokenAuthenticator {
            fetches.increment()
            return "good-\(fetches.withLock { $0 })"
        }
        let transport = MockTransport()
        transport.register(
            "/private",
            .handler { request in
                request.headers[.authorization] == "Bearer good-2" ? .json("{}") : .status(401)
            })
        let client = NetworkClient(
            baseURL: "http://api.test", interceptors: [.authenticator(authenticator)], transport: transport)

        #expect(try await client.send(.get("/private")).status.code == 200)
        #expect(try await client.send(.get("/private")).status.code == 200)
        #expect(fetches.withLock { $0 } == 2)
        #expect(transport.requests.count == 3)
    }

    @Test func fixedCredentialsAreNotSentTwiceOnA401() async throws {
        let transport = MockTransport()
        transport.register("/private", .status(401))
        let client = NetworkClient(
            baseURL: "http://api.test", interceptors: [.authenticator(.bearer("wrong-token"))], transport: transport)
        #expect(try await client.send(.get("/private")).status.code == 401)
        #expect(transport.requests.count == 1)
    }

    @Test func apiKeysGoInAHeaderOrTheQuery() async throws {
        let transport = MockTransport()
        transport.register("/", .status(204))
        let inHeader = NetworkClient(
            baseURL: "http://api.test", interceptors: [.authenticator(.apiKey(header: "X-API-Key", "k-123"))],
            transport: transport)
        _ = try await inHeader.send(NetworkRequest.get("/a").header(NetworkHeaders.Name("X-API-Key"), "mine"))
        let inQuery = NetworkClient(
            baseURL: "http://api.test", interceptors: [.authenticator(.apiKey(query: "api key", "k 1"))],
            transport: transport)
        _ = try await inQuery.send(NetworkRequest.get("/b").query("page", 2))
        #expect(transport.requests[0].headers.values(for: NetworkHeaders.Name("X-API-Key")) == ["k-123"])
        #expect(transport.requests[1].url.query == "page=2&api%20key=k%201")
    }

    @Test func aCallersOwnAuthorizationWinsOverUnlessPresent() async throws {
        let transport = MockTransport()
        transport.register("/", .status(204))
        let client = NetworkClient(
            baseURL: "http://api.test",
            interceptors: [
                .authenticator(ClosureAuthenticator.basic(user: "ada", password: "pw").unlessPresent(.authorization))
            ],
            transport: transport)
        _ = try await client.send(NetworkRequest.get("/own").header(.authorization, "Bearer mine"))
        _ = try await client.send(NetworkRequest.get("/theirs"))
        #expect(transport.requests[0].headers[.authorization] == "Bearer mine")
        #expect(
            transport.requests[1].headers[.authorization]
                == "Basic \(ClosureAuthenticator.basicCredentials(user: "ada", password: "pw"))")
    }
}
