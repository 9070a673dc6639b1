import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

@Suite struct ExpectationEvaluatorTests {
    static func response(
        status: Int = 200, body: String, headers: [(String, String)] = [], time: Duration = .milliseconds(20)
    )
        throws -> NetworkResponse<Data>
    {
        var fields = NetworkHeaders()
        for (name, value) in headers { fields.add(NetworkHeaders.Name(name), value) }
        let request = try NetworkRequest("http://a.test/x").prepared(baseURL: nil)
        return NetworkResponse(
            status: HTTPStatus(code: status), headers: fields, body: Data(body.utf8), httpVersion: "HTTP/1.1",
            request: request, redirects: [], timing: ResponseTiming(firstByte: time, total: time))
    }

    func check(_ line: String, _ response: NetworkResponse<Data>) throws -> Bool {
        guard let expectation = (try CommandParser.parse(line) as? ExpectCommand)?.expectation else { return false }
        return try ExpectationEvaluator.evaluate(expectation, operand: expectation.operand, response: response) {
            try JSONPath($0).values(in: ExpectationEvaluator.json(response, label: "#1"))
        }.passed
    }

    @Test func valuesCompareAsJSON() throws {
        let response = try Self.response(
            body: #"{"id": 42, "price": 1.50, "name": "Ada", "tags": ["a", "b"], "none": null}"#)
        #expect(try check("expect $.id == 42", response))
        #expect(try check("expect $.id == 42.0", response))
        #expect(try check("expect $.price == 1.5", response))
        #expect(try check("expect $.price < 2", response))
        #expect(try check("expect $.price >= 1.5", response))
        #expect(try !check("expect $.price > 1.5", response))
        #expect(try check(#"expect $.name == "Ada""#, response))
        #expect(try check("expect $.name == Ada", response))
        #expect(try check("expect $.name != Grace", response))
        #expect(try check(#"expect $.tags == ["a","b"]"#, response))
        #expect(try check("expect $.tags[*] == [\"a\", \"b\"]", response))
        #expect(try check("expect $.none == null", response))
        #expect(try check("expect $.none exists", response))
        #expect(try check("expect $.missing absent", response))
        #expect(try !check("expect $.missing == 1", response))
        #expect(try check("expect $.missing != 1", response))
        #expect(try check("expect $.id ~ ^4", response))
        #expect(try !check("expect $.name < 5", response))
    }

    @Test func statusHeadersBodyAndTime() throws {
        let response = try Self.response(
            status: 404, body: "not here", headers: [("Content-Type", "text/plain"), ("Vary", "a"), ("Vary", "b")],
            time: .milliseconds(120))
        #expect(try check("expect status 404", response))
        #expect(try check("expect status 4xx", response))
        #expect(try check("expect status != 2xx", response))
        #expect(try check("expect status >= 400", response))
        #expect(try !check("expect status 200", response))
        #expect(try check("expect header content-type == text/plain", response))
        #expect(try check("expect header Vary == \"a, b\"", response))
        #expect(try check("expect header X-None absent", response))
        #expect(try check("expect body ~ here$", response))
        #expect(try check("expect body !~ there", response))
        #expect(try check("expect time < 500ms", response))
        #expect(try !check("expect time < 100ms", response))
        #expect(throws: CommandError.self) { try check("expect $.a == 1", response) }
    }
}

@Suite struct CIExpectationsTests {
    static func response(_ body: String, headers: NetworkHeaders = NetworkHeaders()) throws -> NetworkResponse<Data> {
        NetworkResponse(
            status: .ok, headers: headers, body: Data(body.utf8), httpVersion: "HTTP/1.1",
            request: try NetworkRequest.get("http://a.test/").prepared())
    }

    func check(_ line: String, _ response: NetworkResponse<Data>) throws -> Bool {
        let command = try #require(try parse(line, as: ExpectCommand.self))
        let json = try JSON(parsing: response.body)
        return try ExpectationEvaluator.evaluate(
            command.expectation, operand: command.expectation.operand, response: response
        ) {
            try JSONPath($0).query(json).map(\.value)
        }.passed
    }

    /// Counts, text tests and numeric headers, as CI suites write them.
    @Test func countsTextTestsAndNumericHeaders() throws {
        var headers = NetworkHeaders()
        headers.add("X-Total-Count", "25")
        headers.add("X-Trace", "abc-123")
        let response = try Self.response(
            #"{"data": [1, 2, 3], "name": "Ada Lovelace", "tags": ["a", "b"]}"#, headers: headers)
        #expect(try check("expect $.data.length() == 3", response))
        #expect(try check("expect $.data.count() > 2", response))
        #expect(try check("expect $.name.length() == 12", response))
        #expect(try check("expect $.data[*].length() == 3", response))
        #expect(!(try check("expect $.data.length() == 4", response)))
        #expect(try check(#"expect $.name contains "Love""#, response))
        #expect(try check(#"expect $.name startsWith Ada"#, response))
        #expect(try check(#"expect $.name endsWith "lace""#, response))
        #expect(try check(#"expect $.tags contains "b""#, response))
        #expect(!(try check(#"expect $.tags contains "c""#, response)))
        #expect(try check("expect header X-Total-Count > 20", response))
        #expect(!(try check("expect header X-Total-Count >= 26", response)))
        #expect(!(try check("expect header X-Trace > 1", response)), "not a number: false, not an error")
        #expect(try check("expect header X-Trace startsWith abc", response))
        #expect(try check("expect body contains Lovelace", response))
    }
}
