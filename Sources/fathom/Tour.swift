import ArgumentParser
import FathomDemo
import FathomGraphQL
@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// ANSI styling that turns itself off when output is not a color terminal.
struct Style {
    let enabled: Bool

    func paint(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func status(_ status: HTTPStatus) -> String {
        let color =
            switch status.category {
            case .success: "32"
            case .redirection: "36"
            case .clientError: "33"
            case .serverError: "31"
            default: "0"
            }
        return paint(status.description, "1;\(color)")
    }
}

/// `fathom tour`: the library tour against the demo API.
struct TourCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour", abstract: "Start the demo API and walk through the FathomHTTP library against it.")

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let server = try await DemoAPI.start()
        let style = Style(enabled: output.colorMode.isEnabled)
        do {
            try await Tour(baseURL: server.baseURL, style: style).run()
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}

/// A short walk through FathomHTTP against the demo API: the same calls a user makes in their code.
struct Tour {
    let baseURL: String
    let style: Style

    struct User: Decodable, Sendable {
        var id: Int
        var name: String
        var email: String
    }

    struct Page: Decodable, Sendable {
        var data: [User]
        var total: Int
    }

    func run() async throws {
        print(style.bold("Fathom demo API at \(baseURL)"))
        print(style.dim("A tour of the FathomHTTP library, the networking library under Fathom's prompt.\n"))

        let client = NetworkClient(baseURL: baseURL)

        step(1, "GET /users?page=1&per_page=3, decoded into Swift types")
        let page = try await client.send(.get("/users").query("page", 1).query("per_page", 3), as: Page.self)
        line(page.status, page.timing, page.body.data.map(\.name).joined(separator: ", "))
        if let link = page.headers[.link]?.split(separator: ",").first { print(style.dim("   Link: \(link)")) }

        step(2, "GET /me without credentials: the problem+json message becomes the error")
        do {
            _ = try await client.value(.get("/me"), as: User.self)
        } catch {
            print("   \(style.paint("error", "31")): \(error)")
        }

        step(3, "The same with a bearer token fetched on first use (an Authenticator)")
        let login = BearerTokenAuthenticator {
            struct Token: Decodable { var token: String }
            let request = NetworkRequest.post("/login").body(json: [
                "username": DemoAPI.username, "password": DemoAPI.password,
            ])
            return try await client.value(request, as: Token.self).token
        }
        let authed = NetworkClient(baseURL: baseURL, interceptors: [.authenticator(login)])
        let me = try await authed.send(.get("/me"), as: User.self)
        line(me.status, me.timing, "\(me.body.name) <\(me.body.email)>")

        step(4, "POST /users with a JSON body")
        let created = try await authed.send(
            .post("/users").body(json: ["name": "Ada Byron", "email": "byron@example.com"]), as: User.self)
        line(created.status, created.timing, "id \(created.body.id), Location: \(created.headers[.location] ?? "-")")

        step(5, "Ten requests in a batch, four at a time, results in order")
        let started = ContinuousClock.now
        let results = await client.sendAll((1...10).map { NetworkRequest.get("/users/\($0)") }, maxConcurrent: 4)
        let names = results.compactMap { try? JSONDecoder().decode(User.self, from: $0.get().body).name }
        print(
            "   \(results.count) responses in \((ContinuousClock.now - started).shortDescription): \(names.prefix(4).joined(separator: ", "))…"
        )

        step(6, "Server-sent events as they arrive, NDJSON lines, and a WebSocket")
        var ticks: [String] = []
        for try await event in client.events(for: .get("/events").query("count", 3).query("ms", 50)) {
            ticks.append("\(event.type ?? "-") \(event.id ?? "-")")
        }
        print("   events: \(ticks.joined(separator: ", "))")
        var lines = 0
        for try await _ in client.events(for: .get("/stream").query("count", 4).query("ms", 10)) { lines += 1 }
        print("   \(lines) NDJSON lines")
        let socket = try await WebSocketConnection.open(baseURL + "/ws?ticks=2&ms=20")
        try await socket.send(.text(#"{"hello": "ws"}"#))
        var messages: [String] = []
        for await event in socket.events {
            guard case .message(.text(let text), _) = event else { break }
            messages.append(text)
            if messages.count == 4 { break }
        }
        let close = await socket.close(code: 4000, reason: "tour over")
        print("   WebSocket: \(messages.count) messages (\(messages.first ?? "")…), closed with \(close.code ?? 0)")

        step(7, "GraphQL: the schema by introspection, an operation checked before it goes and its answer after")
        let introspection = try await client.send(
            .post("/graphql").body(json: ["query": GraphQLDescription.introspectionQueries[0]]))
        let schema = try GraphQLDescription(introspection: try JSON(parsing: introspection.body))
        let counts = schema.counts
        print("   \(counts.types) types, \(counts.queries) queries, \(counts.mutations) mutation")
        let misspelt = try GraphQLOperation("{ users(role: ADMIN) { nme } }")
        for problem in schema.validate(misspelt) { print("   \(problem)") }
        let operation = try GraphQLOperation("{ users(role: ADMIN) { name todos(done: false) { title } } }")
        let answer = try await client.send(.post("/graphql").body(json: ["query": operation.text]))
        let violations = schema.check(try JSON(parsing: answer.body), for: operation)
        print("   \(operation.text): \(violations.isEmpty ? "the answer fits the schema" : "\(violations)")")

        step(8, "A race, found by sending twice at once and comparing the answers")
        _ = try await client.send(.put("/accounts/2").body(json: ["balance": 100]))
        var balances: [String] = []
        _ = await client.send(BatchPlan(count: 2, maxConcurrent: 2)) { _ in
            try NetworkRequest.post("/accounts/2/withdraw").body(json: ["amount": 60]).prepared(baseURL: baseURL)
        } handle: { done in
            if let body = try? done.result.get().body { balances.append(String(decoding: body, as: UTF8.self)) }
        }
        print("   two withdrawals of 60 from 100: \(balances.sorted().joined(separator: " and "))")

        step(9, "The wire log at header level: the token is masked")
        let recorder = LogRecorder()
        let logged = NetworkClient(
            baseURL: baseURL, interceptors: [.authenticator(login)], logger: recorder.logger(), logDetail: .headers)
        _ = try await logged.send(.get("/me"))
        for entry in recorder.lines.prefix(1) { print(style.dim("   \(entry)")) }

        step(10, "Errors a person can act on")
        let unreachable = NetworkClient(baseURL: "http://127.0.0.1:9")
        do { _ = try await unreachable.send(.get("/")) } catch { print("   \(error)") }
        do { _ = try await client.send(.get("/slow").query("ms", 2000).timeout(.milliseconds(300))) } catch {
            print("   \(error)")
        }
        do { _ = try await client.send(.get("/users").header("X-Note", "a\r\nInjected: 1")) } catch {
            print("   \(error)")
        }
        print()
    }

    private func step(_ number: Int, _ title: String) {
        print(style.bold("\n\(number). \(title)"))
    }

    private func line(_ status: HTTPStatus, _ timing: ResponseTiming, _ detail: String) {
        print("   \(style.status(status)) \(style.dim("in \(timing.total.shortDescription)"))  \(detail)")
    }
}
