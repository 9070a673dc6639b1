import FathomHTTP
@_spi(Fathom) import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

/// The tools an agent calls (`fathom mcp`): each call as the lines a person would type, the
/// arguments kept as data, the read-only rule in the pipeline, and the tools' schemas as
/// docs/mcp-tools.json publishes them. (The server itself, driven by Python's MCP client:
/// `FathomEndToEndTests/MCPServerTests`.)
@Suite struct AgentSessionTests {
    static func lines(_ tool: String, _ arguments: String) throws -> [String] {
        guard case .object(let members) = try JSON(parsing: arguments) else { return [] }
        return try AgentLines.lines(for: tool, Dictionary(uniqueKeysWithValues: members.map { ($0.key, $0.value) }))
    }

    @Test func toolCallsAreTheLinesAPersonWouldType() throws {
        #expect(try Self.lines("send", #"{"url": "/users/1"}"#) == ["get /users/1"])
        #expect(
            try Self.lines(
                "send",
                #"{"method": "POST", "url": "/users", "headers": {"X-Trace": "a b"}, "query": {"dry": true}, "body": {"name": "Ada Lovelace", "age": 36, "tags": ["x"]}}"#
            ) == [#"post /users 'X-Trace:a b' dry==true 'name=Ada Lovelace' age:=36 'tags:=["x"]'"#])
        #expect(
            try Self.lines("op", #"{"operationId": "getUser", "parameters": {"id": 2, "q": "x"}}"#) == [
                "op getUser id:=2 q=x"
            ])
        #expect(try Self.lines("inspect", #"{"expression": "$.items[0]", "response": 3}"#) == ["inspect #3 $.items[0]"])
        #expect(try Self.lines("expect", #"{"check": "status 200"}"#) == ["expect status 200"])
        #expect(try Self.lines("describe", #"{"operation": "GET /users/{id}"}"#) == ["describe GET /users/{id}"])
        #expect(try Self.lines("ls", #"{}"#) == ["ls"])
        #expect(
            try Self.lines(
                "graphql",
                #"{"document": "query($id: ID!) {\n user(id: $id) { name }\n}", "variables": {"id": "2", "n": 3}, "endpoint": "/graphql"}"#
            )
                == ["graphql /graphql", "query($id: ID!) {\n user(id: $id) { name }\n} id=2 n:=3"])
        #expect(try Self.lines("call", #"{"method": "GetUser", "request": {"id": 2}}"#) == [#"call GetUser {"id":2}"#])
        #expect(try Self.lines("call", #"{"method": "AddTodos"}"#) == ["call AddTodos []"])
        // A word that would read as an option or a comment is quoted.
        #expect(try Self.lines("send", ##"{"url": "#x"}"##) == ["get '#x'"])
    }

    @Test func argumentsAreDataNeverVariablesOrSeveralLines() {
        #expect(throws: CommandError.self) { try Self.lines("send", #"{"url": "/users/{{token}}"}"#) }
        #expect(throws: CommandError.self) { try Self.lines("send", #"{"url": "/x", "headers": {"A": "{{token}}"}}"#) }
        #expect(throws: CommandError.self) { try Self.lines("expect", #"{"check": "status 200\nsecret x"}"#) }
        #expect(throws: CommandError.self) { try Self.lines("send", #"{"url": "/x", "method": "TRACE"}"#) }
        #expect(throws: CommandError.self) { try Self.lines("send", #"{"url": "/x", "body": {"a": 1}}"#) }
        #expect(throws: CommandError.self) { try Self.lines("send", #"{}"#) }
        #expect(throws: CommandError.self) { try Self.lines("nope", #"{}"#) }
    }

    /// Read-only: every way a request is made refuses a method that may change the server, and
    /// nothing reaches the transport; a safe one goes.
    @Test func aReadOnlySessionSendsNothingThatMayChangeTheServer() async throws {
        let transport = MockTransport()
        transport.register("/users", .json(#"{"id": 1}"#))
        var options = Executor.Options(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport)
        options.readOnly = true
        let executor = Executor(options: options)
        for line in ["base http://127.0.0.1:9", "post /users name=x", "delete /users/1", "method PUT", "send"] {
            _ = await executor.run(Result { () throws(CommandError) in try CommandParser.parse(line) }, text: line)
        }
        #expect(transport.requests.isEmpty)
        let result = await executor.run(
            Result { () throws(CommandError) in try CommandParser.parse("get /users") }, text: "get /users")
        #expect(result.outcome == .succeeded)
        #expect(transport.requests.map(\.method) == [.get])

        let session = AgentSession(
            executor: executor, allowWrites: false,
            transcript: NSTemporaryDirectory() + "/fathom-agent-\(UUID()).fathom")
        let refused = await session.call(
            "send", arguments: #"{"method": "PATCH", "url": "/users/1", "body": {"a": 1}}"#)
        #expect(refused.isError && refused.text.contains("read-only: nothing was sent"), "\(refused.text)")
        #expect(refused.structured.contains(#""ok":false"#), "\(refused.structured)")
        #expect(transport.requests.count == 1)
    }

    /// docs/mcp-tools.json is the tools as `tools/list` gives them (`FATHOM_RECORD_SNAPSHOTS=1`
    /// rewrites it); every schema in it parses.
    @Test func theToolsAsPublished() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/mcp-tools.json")
        let published = AgentTool.published()
        if ProcessInfo.processInfo.environment["FATHOM_RECORD_SNAPSHOTS"] == "1" {
            try published.write(to: path, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOf: path, encoding: .utf8) == published, "re-record with FATHOM_RECORD_SNAPSHOTS=1")
        for tool in AgentTool.all(allowWrites: false) {
            guard case .object = try JSON(parsing: tool.inputSchema) else {
                Issue.record("\(tool.name)'s input schema is not an object")
                continue
            }
        }
    }
}
