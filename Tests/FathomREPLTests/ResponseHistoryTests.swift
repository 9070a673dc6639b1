import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

@Suite struct ResponseHistoryTests {
    func response(bytes: Int) throws -> NetworkResponse<Data> {
        NetworkResponse(
            status: .ok, headers: NetworkHeaders(), body: Data(count: bytes), httpVersion: "HTTP/1.1",
            request: PreparedRequest(method: .get, url: try RequestURL(parsing: "http://127.0.0.1/")))
    }

    @Test func keepsTheNewestWithinCountAndBytes() throws {
        var history = ResponseHistory(maxCount: 3, maxBytes: 250)
        for _ in 1...4 { history.append(try response(bytes: 50)) }
        #expect(history.entries.map(\.number) == [2, 3, 4])
        history.append(try response(bytes: 200))
        #expect(history.entries.map(\.number) == [4, 5], "bytes bound: 250 bytes hold the newest two")
        history.append(try response(bytes: 1000))
        #expect(history.entries.map(\.number) == [6], "one response is kept even when larger than the bound")
    }

    /// A stream is parsed when it is kept, once: what reads it later reads the events kept.
    @Test func aStreamsEventsAreParsedWhenKept() throws {
        var headers = NetworkHeaders()
        headers.add(.contentType, "text/event-stream")
        let stream = NetworkResponse(
            status: .ok, headers: headers, body: Data("event: a\ndata: {\"n\": 1}\n\ndata: two\n\n".utf8),
            httpVersion: "HTTP/1.1",
            request: PreparedRequest(method: .get, url: try RequestURL(parsing: "http://127.0.0.1/events")))
        var history = ResponseHistory()
        history.append(stream)
        history.append(try response(bytes: 3))
        let kept = try history.entry(1)
        #expect(kept.stream?.events.map(\.data) == [#"{"n": 1}"#, "two"])
        #expect(kept.stream?.json.formatted(.compactText).hasPrefix(#"[{"event":"a","data":{"n":1}}"#) == true)
        #expect(try history.entry(2).stream == nil, "a body that is not a stream has no events")
    }

    @Test func numbersThatAreGoneOrNotYetSayWhich() throws {
        var history = ResponseHistory(maxCount: 1)
        #expect(throws: CommandError(.session, .noResponse)) { try history.entry(nil) }
        history.append(try response(bytes: 1))
        history.append(try response(bytes: 1))
        #expect(try history.entry(nil).number == 2)
        let gone = #expect(throws: CommandError.self) { try history.entry(1) }
        #expect(gone?.message == "response #1 is no longer kept")
        let future = #expect(throws: CommandError.self) { try history.entry(9) }
        #expect(future?.description == "error: no response #9 — the last is #2")
    }
}
