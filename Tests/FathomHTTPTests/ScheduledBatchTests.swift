import Foundation
import Synchronization
import Testing

@testable import FathomHTTP

@Suite struct ScheduledBatchTests {
    private func client(_ transport: MockTransport) -> NetworkClient {
        NetworkClient(baseURL: "http://api.test", transport: transport)
    }

    private func request(_ path: String) throws -> PreparedRequest {
        try NetworkRequest.get(path).prepared(baseURL: "http://api.test")
    }

    @Test func sendsTheCountWithAtMostTheConcurrencyInFlight() async throws {
        let transport = MockTransport()
        let inFlight = Mutex(0)
        let peak = Mutex(0)
        transport.register(
            "/item",
            .handler { _ in
                let now = inFlight.withLock { count in
                    count += 1
                    return count
                }
                peak.withLock { $0 = max($0, now) }
                try await Task.sleep(for: .milliseconds(2))
                inFlight.withLock { $0 -= 1 }
                return .status(200)
            })
        var indices: [Int] = []
        var statuses = 0
        let end = await client(transport).send(BatchPlan(count: 40, maxConcurrent: 4)) { index in
            try request("/item/\(index)")
        } handle: { done in
            indices.append(done.index)
            if case .success(let response) = done.result, response.status.code == 200 { statuses += 1 }
        }
        #expect(end.sent == 40)
        guard case .finished = end else {
            Issue.record("expected finished, got \(end)")
            return
        }
        #expect(indices.sorted() == Array(0..<40))
        #expect(statuses == 40)
        #expect(peak.withLock { $0 } == 4)
        #expect(transport.requests.map(\.url.path).sorted() == (0..<40).map { "/item/\($0)" }.sorted())
    }

    @Test func aRateSpacesTheStarts() async throws {
        let transport = MockTransport()
        transport.register("/r", .status(204))
        let start = ContinuousClock.now
        var count = 0
        let end = await client(transport).send(BatchPlan(count: 11, rate: 100, maxConcurrent: 8)) { _ in
            try request("/r")
        } handle: { _ in
            count += 1
        }
        let elapsed = ContinuousClock.now - start
        #expect(end.sent == 11 && count == 11)
        // Request 10 starts 100 ms in at 100/s: never sooner. (How close to it is measured end to
        // end, on a quiet process: here other suites share the threads.)
        #expect(elapsed >= .milliseconds(100))
        #expect(elapsed < .seconds(20))
    }

    /// With a rate, each result says how late it started after its time on the schedule: one in
    /// flight against a 50 ms server cannot keep 100/s, and the lag shows it; room in flight
    /// keeps the schedule.
    @Test func aResultSaysHowLateItStarted() async throws {
        let transport = MockTransport()
        transport.register(
            "/slow",
            .handler { _ in
                try await Task.sleep(for: .milliseconds(50))
                return .status(200)
            })
        func maxLag(concurrent: Int) async -> Duration {
            var lag = Duration.zero
            _ = await client(transport).send(BatchPlan(count: 20, rate: 100, maxConcurrent: concurrent)) { _ in
                try request("/slow")
            } handle: { done in
                lag = max(lag, done.lag)
            }
            return lag
        }
        // 20 × 50 ms one after another is 1 s of work for a 190 ms schedule.
        let serial = await maxLag(concurrent: 1)
        #expect(serial > .milliseconds(500), "\(serial)")
        let open = await maxLag(concurrent: 64)
        #expect(open < serial / 2, "\(open) with room in flight, \(serial) with one")
        // Without a rate there is no schedule to be late for.
        _ = await client(transport).send(BatchPlan(count: 2, maxConcurrent: 1)) { _ in
            try request("/slow")
        } handle: {
            #expect($0.lag == .zero)
        }
    }

    @Test func aDurationStopsStartingRequests() async throws {
        let transport = MockTransport()
        transport.register(
            "/d",
            .handler { _ in
                try await Task.sleep(for: .milliseconds(10))
                return .status(200)
            })
        let start = ContinuousClock.now
        var count = 0
        let end = await client(transport).send(BatchPlan(duration: .milliseconds(200), maxConcurrent: 2)) { _ in
            try request("/d")
        } handle: { _ in
            count += 1
        }
        #expect(ContinuousClock.now - start >= .milliseconds(200))
        #expect(count == end.sent)
        #expect(count >= 2)
    }

    @Test func withoutACountOrADurationItSendsOne() async throws {
        let transport = MockTransport()
        transport.register("/one", .status(200))
        let end = await client(transport).send(BatchPlan()) { _ in
            try request("/one")
        } handle: { _ in
        }
        #expect(end.sent == 1)
    }

    @Test func aRequestThatCannotBeMadeStopsTheBatch() async throws {
        let transport = MockTransport()
        transport.register("/s", .status(200))
        struct NoRow: Error {}
        var handled = 0
        let end = await client(transport).send(BatchPlan(count: 10, maxConcurrent: 1)) { index in
            if index == 3 { throw NoRow() }
            return try request("/s")
        } handle: { _ in
            handled += 1
        }
        guard case .stopped(let sent, let index, let error) = end else {
            Issue.record("got \(end)")
            return
        }
        #expect(sent == 3 && index == 3 && handled == 3)
        #expect(error is NoRow)
        // `nil` ends the batch without an error: the data ran out.
        let short = await client(transport).send(BatchPlan(count: 10)) { index in
            index < 2 ? try request("/s") : nil
        } handle: { _ in
        }
        guard case .finished(let sentShort) = short else {
            Issue.record("got \(short)")
            return
        }
        #expect(sentShort == 2)
    }

    @Test func cancellingKeepsTheResultsSoFar() async throws {
        let transport = MockTransport()
        transport.register(
            "/slow",
            .handler { request in
                if request.url.query?.contains("fast") == true { return .status(200) }
                try await Task.sleep(for: .seconds(30))
                return .status(200)
            })
        let client = self.client(transport)
        let start = ContinuousClock.now
        let handled = Mutex(0)
        let batch = Task {
            var done = 0
            let end = await client.send(BatchPlan(count: 100, maxConcurrent: 3)) { index in
                try NetworkRequest.get(index < 5 ? "/slow?fast=1" : "/slow").prepared(baseURL: "http://api.test")
            } handle: { _ in
                done += 1
                handled.withLock { $0 += 1 }
            }
            return (end, done)
        }
        // Cancelled once the five quick ones are in and three slow ones are in flight, however
        // busy the machine is.
        while handled.withLock({ $0 }) < 5 || transport.requests.count < 8,
            ContinuousClock.now - start < .seconds(15)
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        batch.cancel()
        let (end, done) = await batch.value
        #expect(ContinuousClock.now - start < .seconds(20))
        guard case .cancelled(let sent, let abandoned) = end else {
            Issue.record("got \(end)")
            return
        }
        // Every request that started was either handed over or abandoned in flight; only the
        // quick ones could answer. (Exact counts depend on how soon the busy machine ran them.)
        #expect(done + abandoned == sent)
        #expect(done <= 5)
        #expect(sent < 100)
    }
}
