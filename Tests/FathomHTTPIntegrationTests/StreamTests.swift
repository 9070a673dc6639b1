import FathomHTTP
import Foundation
import Synchronization
import Testing

/// `NetworkClient.streamed(_:)` and `events(for:)` against a real loopback server.
@Suite struct StreamTests {
    let client: NetworkClient

    init() async throws {
        client = NetworkClient(baseURL: try await TestServer.baseURL())
    }

    @Test func eventsTrickledOneByteAtATimeAreParsedWhole() async throws {
        var events: [StreamEvent] = []
        for try await event in client.events(for: .get("/t/sse-trickle")) { events.append(event) }
        #expect(
            events == [
                StreamEvent(data: "{\"n\": 1}", type: "a"), StreamEvent(data: "two\nlines", type: "message"),
                StreamEvent(data: "{\"n\": 3}", type: "message", id: "9"),
            ])
    }

    @Test func chunksArriveBeforeTheBodyEnds() async throws {
        let response = try await client.streamed(.get("/t/stream").query("chunks", 5).query("ms", 400))
        #expect(response.status.code == 200)
        var iterator = response.body.makeAsyncIterator()
        let first = try #require(try await iterator.next())
        let firstArrived = ContinuousClock.now
        #expect(String(decoding: first, as: UTF8.self).hasPrefix("chunk 0"))
        var rest = Data()
        while let chunk = try await iterator.next() { rest.append(chunk) }
        #expect(String(decoding: rest, as: UTF8.self).hasSuffix("chunk 4\n"))
        // The first chunk came as it was sent, not with the body's end: four more, 400 ms apart,
        // came after it. Measured from the first chunk, so a slow start on a busy machine (the
        // parallel suite) cannot fail it; a buffered body would end within milliseconds of it.
        #expect(ContinuousClock.now - firstArrived > .milliseconds(800))
    }

    @Test func stoppingTheIterationEndsAnEndlessStream() async throws {
        var seen: [String] = []
        for try await event in client.events(for: .get("/t/sse-endless")) {
            seen.append(event.data)
            if seen.count == 3 { break }
        }
        #expect(seen == ["1", "2", "3"])
        // The client goes on: the stream's connection is not left busy.
        #expect(try await client.send(.get("/users/1")).status.code == 200)
    }

    @Test func cancellingTheTaskEndsTheStream() async throws {
        let client = self.client
        let seen = Mutex(0)
        let task = Task {
            var count = 0
            for try await _ in client.events(for: .get("/t/sse-endless")) {
                count += 1
                seen.withLock { $0 = count }
            }
            return count
        }
        // Cancelled once events flow, however busy the machine is.
        let start = ContinuousClock.now
        while seen.withLock({ $0 }) < 2, ContinuousClock.now - start < .seconds(15) {
            try await Task.sleep(for: .milliseconds(10))
        }
        task.cancel()
        let count = try await task.value
        #expect(count >= 2)
    }

    @Test func aFailedStatusIsAnError() async throws {
        await #expect {
            for try await _ in client.events(for: .get("/users/999999")) {}
        } throws: { error in
            guard case NetworkError.httpStatus(let status, _, _) = error else { return false }
            return status.code == 404
        }
    }
}
