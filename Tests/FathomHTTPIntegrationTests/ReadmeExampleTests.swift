import FathomHTTP
import Foundation
import Testing

/// The README's "library in ten lines", run against the demo API. The test also checks that the
/// README still shows these lines, so the two cannot drift apart.
@Suite struct ReadmeExampleTests {
    struct User: Decodable, Sendable {
        var id: Int
        var name: String
    }
    struct Page: Decodable, Sendable { var data: [User] }

    @Test func exampleRunsAsWritten() async throws {
        let base = try await TestServer.baseURL()
        // The README's lines, with the demo API's URL in place of http://127.0.0.1:8080:
        let client = NetworkClient(baseURL: base, interceptors: [.retry()])
        let page = try await client.value(.get("/users").query("per_page", 3), as: Page.self)
        #expect(page.data.map(\.name) == ["Ada Lovelace", "Grace Hopper", "Alan Turing"])
        let created = try await client.send(.post("/users").body(json: ["name": "Ada", "email": "ada@example.com"]))
        #expect(created.status.description == "401 Unauthorized")
    }

    @Test func readmeShowsTheseLines() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        for line in [
            "struct User: Decodable, Sendable { var id: Int; var name: String }",
            "struct Page: Decodable, Sendable { var data: [User] }",
            #"let client = NetworkClient(baseURL: "http://127.0.0.1:8080", interceptors: [.retry()])"#,
            #"let page = try await client.value(.get("/users").query("per_page", 3), as: Page.self)"#,
            #"print(page.data.map(\.name))  // ["Ada Lovelace", "Grace Hopper", "Alan Turing"]"#,
            #"let created = try await client.send(.post("/users").body(json: ["name": "Ada", "email": "ada@example.com"]))"#,
            "print(created.status)  // 401 Unauthorized",
        ] {
            #expect(readme.contains(line), "README no longer shows: \(line)")
        }
    }
}
