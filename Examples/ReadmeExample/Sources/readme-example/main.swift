import FathomHTTP

// The README's "library in ten lines", against the demo API at the URL given
// (`fathom serve --port 8080` serves it at http://127.0.0.1:8080).
let baseURL = CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080"

struct User: Decodable, Sendable {
    var id: Int
    var name: String
}
struct Page: Decodable, Sendable { var data: [User] }

let client = NetworkClient(baseURL: baseURL, interceptors: [.retry()])
let page = try await client.value(.get("/users").query("per_page", 3), as: Page.self)
print(page.data.map(\.name))  // ["Ada Lovelace", "Grace Hopper", "Alan Turing"]
let created = try await client.send(.post("/users").body(json: ["name": "Ada", "email": "ada@example.com"]))
print(created.status)  // 401 Unauthorized: writing needs a token from POST /login
