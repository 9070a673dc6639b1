import FathomTestSupport
import Foundation
import Testing

@testable import FathomHTTP

@Suite struct RetryPolicyTests {
    /// A transport that answers 503 `failures` times, then 200, counting calls.
    private func flaky(failures: Int, retryAfter: String? = nil) -> (MockTransport, Locked<Int>) {
        let transport = MockTransport()
        let calls = Locked(0)
        transport.register(
            "/",
            .handler { _ in
                let call = calls.increment()
                guard call > failures else {
                    var response = MockResponse.status(503)
                    if let retryAfter { response.headers.add(.retryAfter, retryAfter) }
                    return response
                }
                return .json("{}")
            })
        return (transport, calls)
    }

    @Test func getIsRetriedOn503() async throws {
        let (transport, calls) = flaky(failures: 2)
        let waits = Locked<[Duration]>([])
        let retry = RetryPolicy(
            maxAttempts: 3, baseDelay: .milliseconds(100), sleep: { d in waits.withLock { $0.append(d) } })
        let client = NetworkClient(baseURL: "http://api.test", interceptors: [retry], transport: transport)

        let response = try await client.send(.get("/items"))

        #expect(response.status.code == 200)
        #expect(calls.withLock { $0 } == 3)
        let recorded = waits.withLock { $0 }
        #expect(recorded.count == 2)
        #expect(recorded[0] >= .milliseconds(50) && recorded[0] <= .milliseconds(100))
        #expect(recorded[1] >= .milliseconds(100) && recorded[1] <= .milliseconds(200))
    }

    @Test func postIsNeverRetried() async throws {
        let (transport, calls) = flaky(failures: 2)
        let client = NetworkClient(
            baseURL: "http://api.test", interceptors: [RetryPolicy(sleep: { _ in })], transport: transport)

        let response = try await client.send(.post("/items").body(jsonText: "{}"))

        #expect(response.status.code == 503)
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func retryAfterIsHonouredAndTooLongIsNotWaited() async throws {
        let waits = Locked<[Duration]>([])
        let retry = RetryPolicy(maxDelay: .seconds(5), sleep: { d in waits.withLock { $0.append(d) } })
        let (short, _) = flaky(failures: 1, retryAfter: "2")
        _ = try await NetworkClient(baseURL: "http://a.test", interceptors: [retry], transport: short).send(.get("/"))
        #expect(waits.withLock { $0 } == [.seconds(2)])

        let (long, calls) = flaky(failures: 1, retryAfter: "3600")
        let response = try await NetworkClient(baseURL: "http://a.test", interceptors: [retry], transport: long).send(
            .get("/"))
        #expect(response.status.code == 503)
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func retryAfterAsHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let later = RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:13:30 GMT", now: now)
        #expect(later == .seconds(10))
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
    }

    @Test func connectionErrorsAreRetriedOthersAreNot() {
        let policy = RetryPolicy()
        let get = try! NetworkRequest.get("http://a.test/").prepared()
        let refused: Result<NetworkResponse<Data>, any Error> = .failure(
            NetworkError.connectionRefused(host: "a", port: 1))
        let tls: Result<NetworkResponse<Data>, any Error> = .failure(NetworkError.tls(host: "a", reason: "x"))
        #expect(policy.decision(for: get, outcome: refused, attempt: 1) != .doNotRetry)
        #expect(policy.decision(for: get, outcome: refused, attempt: 3) == .doNotRetry)
        #expect(policy.decision(for: get, outcome: tls, attempt: 1) == .doNotRetry)
    }
}
