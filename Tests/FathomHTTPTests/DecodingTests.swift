import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

@Suite struct DecodingTests {
    struct User: Decodable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    private func client(_ routes: [(String, MockResponse)]) -> NetworkClient {
        let transport = MockTransport()
        for (path, response) in routes { transport.register(path, response) }
        return NetworkClient(baseURL: "http://api.test", transport: transport)
    }

    @Test func jsonDecodesIntoDecodable() async throws {
        let client = client([("/users/1", .json(#"{"id":1,"name":"Ada"}"#))])
        #expect(try await client.value(.get("/users/1"), as: User.self) == User(id: 1, name: "Ada"))
    }

    @Test func decodingFailureNamesTypePathAndSnippet() async throws {
        let client = client([("/users", .json(#"[{"id":1,"name":"Ada"},{"id":"two","name":"Bob"}]"#))])
        await #expect {
            try await client.value(.get("/users"), as: [User].self)
        } throws: { error in
            let text = "\(error)"
            return text.contains("cannot decode Array<User>") && text.contains("at $[1].id")
                && text.contains("expected Int") && text.contains(#"body starts: [{"id":1"#)
        }
    }

    @Test func optionalDecoderTurns204IntoNil() async throws {
        let client = client([("/empty", .status(204)), ("/full", .json(#"{"id":2,"name":"Bo"}"#))])
        let empty = try await client.send(.delete("/empty"), decoder: .optional(.json(User.self)))
        #expect(empty.body == nil)
        let full = try await client.send(.get("/full"), decoder: .optional(.json(User.self)))
        #expect(full.body == User(id: 2, name: "Bo"))
    }

    @Test func textUsesTheCharsetOfTheContentType() async throws {
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])  // "café" in ISO-8859-1
        let client = client([
            ("/latin", .data(latin1, contentType: "text/plain; charset=ISO-8859-1")),
            ("/utf8", .data(Data("café".utf8), contentType: "text/plain")),
        ])
        #expect(try await client.send(.get("/latin"), decoder: .text).body == "café")
        #expect(try await client.send(.get("/utf8"), decoder: .text).body == "café")
        #expect(try await client.send(.get("/utf8"), decoder: .data).body == Data("café".utf8))
    }

    @Test func nonSuccessStatusBecomesAnErrorWithTheBestMessage() async throws {
        let client = client([
            (
                "/problem",
                .data(
                    Data(
                        #"{"type":"about:blank","title":"Out of credit","status":403,"detail":"Your balance is 30, but that costs 50."}"#
                            .utf8), status: 403, contentType: "application/problem+json")
            )
        ])
        await #expect {
            try await client.value(.get("/problem"), as: User.self)
        } throws: { error in
            "\(error)" == "HTTP 403 Forbidden: Out of credit: Your balance is 30, but that costs 50."
        }
    }

    @Test(arguments: [
        (#"{"message":"rate limited"}"#, "rate limited"),
        (#"{"error":"invalid_grant","error_description":"expired"}"#, "invalid_grant: expired"),
        (#"{"error":{"code":7,"message":"quota exceeded"}}"#, "quota exceeded"),
        (
            #"{"errors":[{"message":"name is required"},{"message":"email is invalid"}]}"#,
            "name is required; email is invalid"
        ),
        (#"{"errors":["first","second"]}"#, "first; second"),
        (#"{"detail":"Not found."}"#, "Not found."),
    ])
    func errorMessageShapes(body: String, message: String) {
        let response = NetworkResponse(
            status: HTTPStatus(code: 400), headers: ["Content-Type": "application/json"], body: Data(body.utf8),
            request: try! NetworkRequest.get("http://a.test/").prepared())
        #expect(ErrorMessage.extract(from: response) == message)
    }

    @Test func errorMapperOverridesTheDefaultError() async throws {
        struct Teapot: Error {}
        let transport = MockTransport()
        transport.register("/", .status(418))
        let client = NetworkClient(
            configuration: .init(baseURL: "http://a.test", errorMapper: { $0.status.code == 418 ? Teapot() : nil }),
            transport: transport)
        await #expect(throws: Teapot.self) { try await client.value(.get("/"), as: User.self) }
    }
}
