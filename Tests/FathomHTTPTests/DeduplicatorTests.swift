import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

@Suite struct DeduplicatorTests {
    /// Holds the server's answer until the test has seen every caller wait: no clock decides
    /// whether callers overlap.
    actor Gate {
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func open() {
            isOpen = true
            for continuation in waiting { continuation.resume() }
            waiting = []
        }
    }

    static func waitUntil(_ dedup: Deduplicator, hasWaiting count: Int) async throws {
        for _ in 0..<2000 where await dedup.waitingCount != count { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await dedup.waitingCount == count)
    }

    @Test func identicalConcurrentRequestsShareOneCall() async throws {
        let gate = Gate()
        let transport = MockTransport()
        transport.register(
            "/report",
            .handler { _ in
                await gate.wait()
                return .json(#"{"done":true}"#)
            })
        let dedup = Deduplicator()
        let client = NetworkClient(baseURL: "http://api.test", interceptors: [dedup], transport: transport)

        async let first = client.send(.get("/report"))
        async let second = client.send(.get("/report"))
        async let different = client.send(.get("/report").query("v", 2))
        try await Self.waitUntil(dedup, hasWaiting: 3)
        #expect(await dedup.inFlightCount == 2)
        await gate.open()
        let responses = try await [first, second, different]

        #expect(responses.allSatisfy { $0.status.code == 200 })
        #expect(transport.requests.count == 2)
        #expect(await dedup.inFlightCount == 0)
    }

    @Test func aCancelledCallerLeavesTheOthersWaiting() async throws {
        let gate = Gate()
        let transport = MockTransport()
        transport.register(
            "/report",
            .handler { _ in
                await gate.wait()
                return .json("{}")
            })
        let dedup = Deduplicator()
        let client = NetworkClient(baseURL: "http://api.test", interceptors: [dedup], transport: transport)

        let cancelled = Task { try await client.send(.get("/report")) }
        let kept = Task { try await client.send(.get("/report")) }
        try await Self.waitUntil(dedup, hasWaiting: 2)
        cancelled.cancel()

        await #expect(throws: NetworkError.self) { try await cancelled.value }
        try await Self.waitUntil(dedup, hasWaiting: 1)
        await gate.open()
        #expect(try await kept.value.status.code == 200)
        #expect(transport.requests.count == 1)
        #expect(await dedup.inFlightCount == 0)
    }
}
