import Testing

@testable import FathomHTTP

@Suite struct NetworkHeadersTests {
    @Test func namesAreCaseInsensitiveAndKeepTheirSpelling() {
        var headers = NetworkHeaders()
        headers.add("X-Request-ID", "1")
        #expect(headers["x-request-id"] == "1")
        #expect(headers.fields.first?.name.rawName == "X-Request-ID")
    }

    @Test func repeatedValuesStayInOrder() {
        var headers: NetworkHeaders = ["Accept": "text/html", "Set-Cookie": "a=1"]
        headers.add("set-cookie", "b=2")
        #expect(headers.values(for: .setCookie) == ["a=1", "b=2"])
        headers.replace(.setCookie, with: "c=3")
        #expect(headers.values(for: .setCookie) == ["c=3"])
        #expect(headers.fields.map(\.name.rawName) == ["Accept", "Set-Cookie"])
        headers[.accept] = nil
        #expect(!headers.contains(.accept))
    }

    @Test func addMissingKeepsTheRequestsOwnValues() {
        var headers: NetworkHeaders = ["User-Agent": "mine"]
        headers.addMissing(from: ["user-agent": "default", "X-Client": "fathom"])
        #expect(headers["User-Agent"] == "mine")
        #expect(headers["X-Client"] == "fathom")
    }
}
