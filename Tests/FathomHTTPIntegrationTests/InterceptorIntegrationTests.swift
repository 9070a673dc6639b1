import FathomDemo
import FathomTestSupport
import Foundation
import Testing

@testable import FathomHTTP

@Suite struct InterceptorIntegrationTests {
    let base: String

    init() async throws {
        base = try await TestServer.baseURL()
    }

    private func login() async throws -> String {
        struct Token: Decodable { var token: String }
        let request = NetworkRequest.post("/login").body(json: [
            "username": DemoAPI.username, "password": DemoAPI.password,
        ])
        return try await NetworkClient(baseURL: base).value(request, as: Token.self).token
    }

    @Test func unauthorizedTriggersAuthenticateAndOneRetry() async throws {
        let fetches = Locked(0)
        let authenticator = BearerTokenAuthenticator {
            let count = fetches.increment()
            return count == 1 ? "expired-token" : try await login()
        }
        let client = NetworkClient(baseURL: base, interceptors: [.authenticator(authenticator)])

        let me = try await client.send(.get("/me"))

        #expect(me.status.code == 200)
        #expect(fetches.value == 2)
    }

    @Test func secondUnauthorizedIsReturnedAsIs() async throws {
        let fetches = Locked(0)
        let authenticator = BearerTokenAuthenticator {
            fetches.increment()
            return "never-valid"
        }
        let client = NetworkClient(baseURL: base, interceptors: [.authenticator(authenticator)])

        let response = try await client.send(.get("/me"))

        #expect(response.status.code == 401)
        #expect(fetches.value == 2)
        await #expect {
            try await client.value(.get("/me"), as: [String: String].self)
        } throws: { error in
            "\(error)" == "HTTP 401 Unauthorized: the token is invalid or expired"
        }
    }

    @Test func hmacSignatureIsVerifiedByTheServer() async throws {
        let signed = NetworkClient(
            baseURL: base, interceptors: [.signing(keyID: "test", secret: TestServer.signingSecret)])
        let post = try await signed.send(.post("/t/signed").query("x", "a b").body(jsonText: #"{"amount":10}"#))
        #expect(post.status.code == 200)
        #expect(try await signed.send(.get("/t/signed")).status.code == 200)

        let wrongKey = NetworkClient(baseURL: base, interceptors: [.signing(keyID: "test", secret: Data("other".utf8))])
        #expect(try await wrongKey.send(.get("/t/signed")).status.code == 401)
        #expect(try await NetworkClient(baseURL: base).send(.get("/t/signed")).status.code == 401)
    }

    @Test func retryOn503ForGetButNeverForPost() async throws {
        let key = UUID().uuidString
        let client = NetworkClient(
            baseURL: base, interceptors: [RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10))])

        let get = try await client.send(.get("/t/flaky/\(key)-get").query("fail", 2))
        #expect(get.status.code == 200)
        #expect(String(decoding: get.body, as: UTF8.self) == #"{"attempts":3}"#)

        let post = try await client.send(.post("/t/flaky/\(key)-post").query("fail", 2).body(jsonText: "{}"))
        #expect(post.status.code == 503)
        let hits = try await NetworkClient(baseURL: base).send(.get("/t/hits/\(key)-post"))
        #expect(String(decoding: hits.body, as: UTF8.self) == #"{"hits":1}"#)
    }

    @Test func retryAfterFromTheServerIsHonoured() async throws {
        let key = UUID().uuidString
        let waits = Locked<[Duration]>([])
        let retry = RetryPolicy(sleep: { duration in waits.withLock { $0.append(duration) } })
        let client = NetworkClient(baseURL: base, interceptors: [retry])
        let response = try await client.send(.get("/t/flaky/\(key)").query("fail", 1).query("retry_after", 1))
        #expect(response.status.code == 200)
        #expect(waits.value == [.seconds(1)])
    }

    @Test func identicalConcurrentRequestsReachTheServerOnce() async throws {
        let key = UUID().uuidString
        let client = NetworkClient(baseURL: base, interceptors: [.deduplicating()])
        let request = NetworkRequest.get("/t/count/\(key)").query("ms", 300)

        async let first = client.send(request)
        async let second = client.send(request)
        let bodies = try await [first, second].map { String(decoding: $0.body, as: UTF8.self) }

        #expect(bodies == [#"{"hits":1}"#, #"{"hits":1}"#])
        let hits = try await NetworkClient(baseURL: base).send(.get("/t/hits/\(key)"))
        #expect(String(decoding: hits.body, as: UTF8.self) == #"{"hits":1}"#)
    }

    @Test func defaultHeadersReachTheServer() async throws {
        let client = NetworkClient(
            baseURL: base, interceptors: [.defaultHeaders(["X-Client": "fathom", "Accept": "text/plain"])])
        let response = try await client.send(.get("/echo").header(.accept, "application/json"))
        let echo = try JSONDecoder().decode(EchoBody.self, from: response.body)
        #expect(echo.header("x-client") == ["fathom"])
        #expect(echo.header("accept") == ["application/json"])
    }
}

@Suite struct DecodingIntegrationTests {
    struct User: Decodable, Sendable {
        var id: Int
        var name: String
    }

    @Test func emptyResponseDecodesToNil() async throws {
        let client = NetworkClient(baseURL: try await TestServer.baseURL())
        let response = try await client.send(.get("/status/204"), decoder: .optional(.json(User.self)))
        #expect(response.status.code == 204)
        #expect(response.body == nil)
    }

    @Test func problemJSONBecomesTheErrorMessage() async throws {
        let client = NetworkClient(baseURL: try await TestServer.baseURL())
        await #expect {
            try await client.value(.get("/users/9999"), as: User.self)
        } throws: { error in
            guard case NetworkError.httpStatus(let status, let message, let response) = error else { return false }
            return status.code == 404 && message == "Not Found: no user with id 9999"
                && response.contentType == "application/problem+json"
                && "\(error)" == "HTTP 404 Not Found: no user with id 9999"
        }
    }

    @Test func validationErrorsListEveryProblem() async throws {
        let base = try await TestServer.baseURL()
        struct Token: Decodable { var token: String }
        let token = try await NetworkClient(baseURL: base).value(
            .post("/login").body(json: ["username": DemoAPI.username, "password": DemoAPI.password]), as: Token.self
        ).token
        let client = NetworkClient(baseURL: base, interceptors: [.authenticator(.bearer(token))])
        await #expect {
            try await client.value(.post("/users").body(jsonText: #"{"email":"nope"}"#), as: User.self)
        } throws: { error in
            "\(error)" == "HTTP 422 Unprocessable Entity: name is required; email must contain @"
        }
    }
}
