import FathomJSON
import FathomTestSupport
import Foundation
import Testing

/// A GraphQL server nobody here wrote — Strawberry, on graphql-core, under uvicorn
/// (`Tests/Servers/graphql_server.py`) — driven by the binary: its schema by introspection,
/// queries and a mutation with variables, errors, a second server that gets nothing meant for
/// it, save → replay, and a changed server failing the replay.
@Suite(
    .enabled(if: GraphQLServer.python != nil, "needs FATHOM_PYTHON with strawberry-graphql: run through `make test`"))
struct GraphQLServerTests {
    @Test func aServerNobodyHereWroteWorksEndToEnd() throws {
        let token = "gql-planted-\(UUID().uuidString.prefix(8))"
        let server = try GraphQLServer(["--token", token])
        let directory = NSTemporaryDirectory() + "fathom-graphql-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = directory + "/users.fathom"
        var script = """
            base \(server.url)
            auth bearer \(token)
            graphql /graphql
            ls
            record on
            query User($id: ID!) {
              user(id: $id) { name role age todos { title done } }
            } id=1
            expect status == 200
            expect $.data.user.name == "Ada"
            mutation Add($todo: TodoInput!) { addTodo(userId: 2, todo: $todo) { title done } } todo:='{"title": "Replay"}'
            expect schema
            { hello(name: "replay") }
            { users { name secret } }
            expect errors == 1
            save \(saved)

            """
        if let httpbin = HTTPBin.baseURL { script += "get \(httpbin)/headers\n" }
        let run = try FathomBinary.run([], script: script)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("loaded GraphQL \(server.url)/graphql"), "\(run.stdout)")
        #expect(run.stdout.contains("3 queries, 1 mutation, 1 subscription"), "\(run.stdout)")
        #expect(run.stdout.contains("mutation addTodo(userId: ID!, todo: TodoInput!)"), "\(run.stdout)")
        #expect(run.stdout.contains("schema ✓"))
        #expect(run.stdout.contains("errors 1"), "\(run.stdout)")
        #expect(run.stdout.contains("not allowed to read the secret of user 1 (at users[0].secret; 1:16)"))
        // The planted token is masked everywhere, and the second server got none of it.
        for text in [run.stdout, run.stderr, try String(contentsOfFile: saved, encoding: .utf8)] {
            #expect(!text.contains(token), "the token leaked: \(text)")
        }
        if HTTPBin.baseURL != nil {
            let headers = run.stdout.components(separatedBy: "\"headers\"").last ?? ""
            #expect(!headers.contains("Authorization"), "httpbin received credentials: \(headers)")
        }

        // The saved file replays the same requests, its token asked for by name.
        let file = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(file.contains("graphql /graphql"))
        #expect(file.contains("query User($id: ID!) {\n  user(id: $id) { name role age todos { title done } }\n} id=1"))
        let environment = ["FATHOM_SECRET_TOKEN": token]
        let replay = try FathomBinary.run(["replay", "--compare", saved], environment: environment)
        #expect(replay.status == 0, "\(replay.stdout)\n\(replay.stderr)")
        #expect(replay.stdout.contains("4 requests"), "\(replay.stdout)")

        // The same file against a server whose answers changed: the replay fails, and says where.
        let changed = try GraphQLServer(["--token", token, "--changed"])
        let moved = directory + "/changed.fathom"
        try file.replacingOccurrences(of: server.url, with: changed.url).write(
            toFile: moved, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: directory + "/users.recording.json", toPath: directory + "/changed.recording.json")
        let failing = try FathomBinary.run(
            ["replay", "--compare", "--continue-on-error", moved], environment: environment)
        #expect(failing.status == 1, "\(failing.stdout)\n\(failing.stderr)")
        #expect(failing.stdout.contains("~ $['data']['user']['age']  36 → 37"), "\(failing.stdout)")
        #expect(failing.stdout.contains("\"hello replay\" → \"hi replay\""), "\(failing.stdout)")
    }

    @Test func aBrokenResponseIsASchemaFailure() throws {
        let server = try GraphQLServer(["--changed"])
        let directory = NSTemporaryDirectory() + "fathom-graphql-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The schema as the unchanged server has it says `age` is Int; the changed one answers a
        // string for `nickname`'s place — here, the file's schema is stricter than the server.
        let sdl = try Program.run([GraphQLServer.python ?? "python3", GraphQLServer.script, "--print-schema"])
        let schema = directory + "/schema.graphql"
        try sdl.output.replacingOccurrences(of: "nickname: String", with: "nickname: String!").write(
            toFile: schema, atomically: true, encoding: .utf8)
        let file = directory + "/strict.fathom"
        try """
        base \(server.url)
        graphql /graphql --schema schema.graphql
        { user(id: 2) { name nickname } }

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let replay = try FathomBinary.run(["replay", file])
        #expect(replay.status == 1, "\(replay.stdout)\n\(replay.stderr)")
        #expect(replay.stdout.contains("$.data.user.nickname: expected String!, got null"), "\(replay.stdout)")
    }

    /// Subscriptions over both WebSocket subprotocols: results printed as they come, kept as a
    /// stream (`expect events`, `expect event`, the schema check of each), `stream limit` ending
    /// one early, and save → replay.
    @Test(arguments: [[], ["--legacy-ws"]])
    func subscriptionsOverBothProtocols(_ arguments: [String]) throws {
        let server = try GraphQLServer(arguments)
        let chosen = arguments.isEmpty ? "graphql-transport-ws" : "graphql-ws"
        let directory = NSTemporaryDirectory() + "fathom-graphql-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = directory + "/count.fathom"
        let script = """
            base \(server.url)
            graphql /graphql
            subscription Count($to: Int!) { count(to: $to) } to:=3
            expect events == 3
            expect event $.data.count == 3
            expect schema
            stream limit 2
            subscription { count(to: 50) }
            expect events == 2
            save \(saved)

            """
        let run = try FathomBinary.run([], script: script)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("Sec-WebSocket-Protocol: \(chosen)"), "\(run.stdout)")
        #expect(run.stdout.contains("{\"data\":{\"count\":3}}"), "\(run.stdout)")
        #expect(run.stdout.contains("3 events, ended by the server"), "\(run.stdout)")
        #expect(run.stdout.contains("2 events, stopped at the limit"), "\(run.stdout)")
        let replay = try FathomBinary.run(["replay", saved])
        #expect(replay.status == 0, "\(replay.stdout)\n\(replay.stderr)")
        #expect(replay.stdout.contains("2 requests: 2 passed"), "\(replay.stdout)")
    }

    /// A server that takes no WebSocket for subscriptions (Strawberry with only `graphql-sse`):
    /// the subscription goes over server-sent events, each `next` checked and kept.
    @Test func subscriptionsOverServerSentEvents() throws {
        let server = try GraphQLServer(["--no-websocket"])
        let run = try FathomBinary.run(
            [],
            script:
                "base \(server.url)\ngraphql /graphql\nsubscription { count(to: 3) }\nexpect event $.data.data.count == 3\nexpect schema\n"
        )
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("3 next"), "\(run.stdout)")
        #expect(run.stdout.contains("ended by the server"), "\(run.stdout)")
    }

    /// A GraphQL response with errors fails a replay unless a line of its block judges them
    /// (`expect errors`); `--schema warn` only says so.
    @Test func errorsFailAReplayUnlessTheFileExpectsThem() throws {
        let server = try GraphQLServer([])
        let file = NSTemporaryDirectory() + "fathom-graphql-errors-\(UUID().uuidString).fathom"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try """
        base \(server.url)
        graphql /graphql
        { users { name secret } }
        { hello }
        { users { name secret } }
        expect errors == 1

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let strict = try FathomBinary.run(["replay", "--continue-on-error", file])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(strict.stdout.contains("$.errors: 1 error (the first: not allowed to read the secret of user 1)"))
        #expect(strict.stdout.contains("3 requests: 2 passed, 1 failed"), "\(strict.stdout)")
        let warned = try FathomBinary.run(["replay", "--schema", "warn", file])
        #expect(warned.status == 0, "\(warned.stdout)")
    }

    @Test func introspectionTurnedOffIsOneLineWithTheWayAround() throws {
        let server = try GraphQLServer(["--no-introspection"])
        let run = try FathomBinary.run([server.url, "-c", "graphql /graphql"])
        #expect(run.status != 0)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("did not answer the introspection query"), "\(run.stderr)")
        #expect(run.stderr.contains("graphql --schema FILE"), "\(run.stderr)")
    }

    @Test func outputJSONCarriesTheSchemaAndTheErrors() throws {
        let server = try GraphQLServer([])
        // Each line is checked against docs/output.schema.json by the runner.
        let run = try FathomBinary.run(
            [
                server.url, "--output", "json", "-c", "graphql /graphql", "-c", "{ users { name secret } }", "-c",
                "graphql", "-c", "subscription { count(to: 2) }",
            ])
        let lines = run.stdout.split(separator: "\n").compactMap { try? JSON(parsing: String($0)) }
        let loaded = try #require(lines.first { $0["event"] == .string("graphql_loaded") })
        #expect(loaded["graphql"]?["queries"] == .number("3"))
        let response = try #require(lines.first { $0["type"] == .string("response") })
        #expect(response["graphql_errors"]?[0]?["path"] == .string("users[0].secret"))
        #expect(response["schema"]?["valid"] == .bool(true))
        let shown = try #require(lines.first { $0["event"] == .string("graphql") })
        #expect(shown["graphql"]?["endpoint"] == .string(server.url + "/graphql"))
        let subscription = try #require(lines.last)
        #expect(subscription["status"] == .number("101"))
        #expect(subscription["stream"]?["events"] == .number("2"))
    }
}

/// `Tests/Servers/graphql_server.py` in its own process: the port it prints, killed when done.
final class GraphQLServer {
    static let python = PythonServer.python
    static let script = FathomBinary.packageRoot + "/Tests/Servers/graphql_server.py"
    let server: PythonServer
    let url: String

    init(_ arguments: [String]) throws {
        server = try PythonServer(script: Self.script, arguments: arguments)
        url = "http://127.0.0.1:\(server.port)"
        // uvicorn prints the port before it accepts: wait until it answers.
        for _ in 0..<100 {
            if (try? Program.run(["curl", "-s", "-o", "/dev/null", url + "/graphql?query=%7Bhello%7D"]))?.status == 0 {
                break
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
