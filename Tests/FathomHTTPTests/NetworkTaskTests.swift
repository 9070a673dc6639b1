import FathomTestSupport
import Foundation
import Testing

@testable import FathomHTTP

@Suite struct NetworkTaskTests {
    struct User: Decodable, Sendable {
        var id: Int
        var name: String
    }
    struct Summary: Decodable, Sendable {
        var id: Int
    }

    let transport: MockTransport
    let client: NetworkClient

    init() {
        transport = MockTransport()
        transport.register("/users/1", .json(#"{"id":1,"name":"Ada"}"#))
        client = NetworkClient(baseURL: "http://api.test", transport: transport)
    }

    @Test func taskIsLazy() async throws {
        let task = NetworkRequest.get("/users/1").task(expecting: User.self, on: client)
        #expect(transport.requests.isEmpty)
        let response = try await task.execute()
        #expect(response.body.name == "Ada")
        #expect(response.status == .ok)
        #expect(transport.requests.count == 1)
    }

    @Test func mapAndDecodeChangeTheValue() async throws {
        let task = client.task(.get("/users/1"), expecting: User.self)
        #expect(try await task.map(\.name).map { $0.uppercased() }.value() == "ADA")
        #expect(try await task.decode(expecting: Summary.self).value().id == 1)
        #expect(try await task.decode(expecting: String.self, decoder: .text).value() == #"{"id":1,"name":"Ada"}"#)
    }

    @Test func completionHandlersDeliverResults() async throws {
        let name = await withCheckedContinuation { continuation in
            client.task(.get("/users/1"), expecting: User.self).value { result in
                continuation.resume(returning: (try? result.get())?.name)
            }
        }
        #expect(name == "Ada")
        let missing = await withCheckedContinuation { continuation in
            client.send(.get("/nope")) { result in
                if case .failure(let error) = result {
                    continuation.resume(returning: error.description)
                } else {
                    continuation.resume(returning: "")
                }
            }
        }
        #expect(missing == "no mock for /nope")
    }
}

@Suite struct BatchTests {
    @Test func resultsKeepTheOrderAndConcurrencyIsLimited() async throws {
        let inFlight = Locked(0)
        let peak = Locked(0)
        let transport = MockTransport()
        transport.register(
            "/item/",
            .handler { request in
                let now = inFlight.increment()
                peak.withLock { $0 = max($0, now) }
                // Later items answer sooner, so completion order differs from request order.
                let index = Int(request.url.path.split(separator: "/").last!)!
                try await Task.sleep(for: .milliseconds(5 * (10 - index)))
                inFlight.withLock { $0 -= 1 }
                return .json("{\"index\":\(index)}")
            })
        transport.register("/broken", .status(500))
        let client = NetworkClient(baseURL: "http://api.test", transport: transport)
        var requests = (0..<10).map { NetworkRequest.get("/item/\($0)") }
        requests.insert(.get("/missing"), at: 3)

        let results = await client.sendAll(requests, maxConcurrent: 3)

        #expect(results.count == 11)
        #expect(peak.withLock { $0 } <= 3)
        let bodies = results.map { result in (try? result.get()).map { String(decoding: $0.body, as: UTF8.self) } }
        #expect(bodies[0] == #"{"index":0}"#)
        #expect(bodies[3] == nil)
        #expect(bodies[10] == #"{"index":9}"#)
    }

    @Test func cancellingTheBatchCancelsEveryRequest() async throws {
        let transport = MockTransport()
        transport.register(
            "/slow",
            .handler { _ in
                try await Task.sleep(for: .seconds(30))
                return .status(200)
            })
        let client = NetworkClient(baseURL: "http://api.test", transport: transport)
        let start = ContinuousClock.now
        let batch = Task { await client.sendAll(Array(repeating: .get("/slow"), count: 6), maxConcurrent: 3) }
        try await Task.sleep(for: .milliseconds(100))
        batch.cancel()
        let results = await batch.value

        // Well under the handlers' 30 s, with room for a loaded machine (end-to-end tests running
        // beside this one hold cooperative threads while they wait on child processes).
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(results.count == 6)
        for result in results {
            guard case .failure(.cancelled) = result else {
                Issue.record("expected cancelled, got \(result)")
                continue
            }
        }
    }
}
