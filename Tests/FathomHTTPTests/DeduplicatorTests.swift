import Foundation
import Testing

@testable import FathomHTTP

@Suite struct DeduplicatorTests {
    @Test func identicalConcurrentRequestsShareOneCall() async throws {
        let transport = MockTransport()
        transport.register(
            "/report",
            .handler { _ in
                try await Task.sleep(for: .milliseconds(200))
                return .json(#"{"done":true}"#)
            })
        let client = NetworkClient(baseURL: "http://api.test", interceptors: [.deduplicating()], transport: transport)

        async let first = client.send(.get("/report"))
        async let second = client.send(.get("/report"))
        async let different = client.send(.get("/report").query("v", 2))
        let responses = try await [first, second, different]

        #expect(responses.allSatisfy { $0.status.code == 200 })
        #expect(transport.requests.count == 2)
    }

    @Test func aCancelledCallerLeavesTheOthersWaiting() async throws {
        let transport = MockTransport()
        transport.register(
            "/report",
            .handler { _ in
                try await Task.sleep(for: .milliseconds(300))
                return .json("{}")
            })
        let dedup = Deduplicator()
        let client = NetworkClient(baseURL: "http://api.test", interceptors: [dedup], transport: transport)

        let cancelled = Task { try await client.send(.get("/report")) }
        let kept = Task { try await client.send(.get("/report")) }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()

        await #expect(throws: NetworkError.self) { try await cancelled.value }
        #expect(try await kept.value.status.code == 200)
        #expect(transport.requests.count == 1)
        #expect(await dedup.inFlightCount == 0)
    }
}
