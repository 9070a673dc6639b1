import FathomHTTP
import FathomJSON
import Foundation
import Synchronization
import Testing

@testable import FathomREPL

/// `fathom mcp`'s protocol side on its own: JSON-RPC lines in, lines out. (Driven by a client
/// nobody here wrote — Python's `mcp` — in `FathomEndToEndTests/MCPServerTests`.)
@Suite struct MCPServerUnitTests {
    /// A server over a session whose API answers `/users` and `/echo`, the lines it wrote, and
    /// the input's continuation.
    /// What the server wrote, each line read back as JSON.
    final class Written: Sendable {
        private let lines = Mutex<[JSON]>([])
        func append(_ line: JSON) { lines.withLock { $0.append(line) } }
        func withLock<T>(_ body: ([JSON]) -> T) -> T { lines.withLock { body($0) } }
    }

    final class Harness: Sendable {
        let server: MCPServer
        let written = Written()
        let input: AsyncStream<MCPServer.Line>.Continuation
        let lines: AsyncStream<MCPServer.Line>
        let transport = MockTransport()

        init(allowWrites: Bool = false) {
            transport.register("/users", .json(#"{"id": 1, "name": "Ada"}"#))
            transport.register("/echo", .json(#"{"echoed": true}"#))
            var options = Executor.Options(
                environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport)
            options.readOnly = !allowWrites
            let session = AgentSession(
                executor: Executor(options: options), allowWrites: allowWrites,
                transcript: NSTemporaryDirectory() + "mcp-unit-\(UUID().uuidString).fathom")
            (lines, input) = AsyncStream.makeStream(of: MCPServer.Line.self)
            let written = written
            server = MCPServer(session: session, allowWrites: allowWrites, version: "9.9.9") { line in
                written.append((try? JSON(parsing: line)) ?? .string(line))
            }
        }

        func send(_ text: String) { input.yield(.message(Array(text.utf8))) }

        /// Serves the input, the session's API at http://api.test.
        func serve() async -> Task<Void, Never> {
            _ = await server.session.start(with: [.setting("base http://api.test")])
            return Task { await server.serve(lines) }
        }

        /// The message with `id` the server wrote, waiting up to 5 s for it.
        func reply(_ id: Int) async throws -> JSON {
            for _ in 0..<500 {
                if let found = written.withLock({ $0.first { $0["id"] == .number(String(id)) && $0["method"] == nil } })
                {
                    return found
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            throw CommandError(.session, "no reply \(id)")
        }
    }

    @Test func theLifecycleToolsResourcesAndPromptsAnswerAsTheProtocolSays() async throws {
        let harness = Harness()
        let serving = await harness.serve()
        harness.send(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        )
        harness.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        harness.send(#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#)
        harness.send(
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"send","arguments":{"url":"/users"}}}"#)
        harness.send(#"{"jsonrpc":"2.0","id":"five","method":"resources/read","params":{"uri":"fathom://nothing"}}"#)
        harness.send(#"{"jsonrpc":"2.0","id":6,"method":"nope"}"#)
        harness.send("not json")
        harness.send("   ")
        harness.send(
            #"{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"explore","arguments":{"goal":"the users"}}}"#
        )
        harness.input.yield(.overlong)

        let initialized = try await harness.reply(1)
        #expect(initialized["result"]?["protocolVersion"] == .string("2025-06-18"))
        #expect(initialized["result"]?["serverInfo"]?["name"] == .string("fathom"))
        #expect(initialized["result"]?["serverInfo"]?["version"] == .string("9.9.9"))
        #expect(initialized["result"]?["capabilities"]?["tools"] != nil)
        #expect(try await harness.reply(2)["result"] == .object([]))
        guard case .array(let tools)? = try await harness.reply(3)["result"]?["tools"] else {
            throw CommandError(.session, "no tools")
        }
        #expect(tools.compactMap { $0["name"] }.contains(.string("send")))
        let send = try #require(tools.first { $0["name"] == .string("send") })
        #expect(send["annotations"]?["readOnlyHint"] == .bool(true))
        #expect(send["inputSchema"]?["type"] == .string("object"))
        let called = try await harness.reply(4)
        #expect(called["result"]?["isError"] == .bool(false))
        #expect(called["result"]?["structuredContent"]?["ok"] == .bool(true))
        guard case .string(let text)? = called["result"]?["content"]?[0]?["text"] else {
            throw CommandError(.session, "no text")
        }
        #expect(text.contains("200"))
        #expect(harness.transport.requests.count == 1)
        // Errors as JSON-RPC has them: the request's own ID (a string too), a code, one line.
        let missing = try #require(harness.written.withLock { $0.first { $0["id"] == .string("five") } })
        #expect(missing["error"]?["code"] == .number("-32602"))
        #expect(try await harness.reply(6)["error"]?["code"] == .number("-32601"))
        let prompt = try await harness.reply(7)
        guard case .string(let asked)? = prompt["result"]?["messages"]?[0]?["content"]?["text"] else {
            throw CommandError(.session, "no prompt text")
        }
        #expect(asked.contains("the users"))
        harness.input.finish()
        await serving.value
        let errors = harness.written.withLock { $0.filter { $0["id"] == .null } }
        #expect(errors.count == 2, "the line that is not JSON and the overlong one: \(errors)")
        #expect(harness.written.withLock { $0.count } == 9, "no answer to a notification or a blank line")
    }

    /// A write the read-only session refused is put to the client's person; the answer comes
    /// back while the call waits, and an accept sends that one request.
    @Test func aWriteIsAskedAndTheAnswerComesWhileTheCallWaits() async throws {
        let harness = Harness()
        let serving = await harness.serve()
        harness.send(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{"elicitation":{}}}}"#
        )
        #expect(try await harness.reply(1)["result"]?["protocolVersion"] == .string(MCPServer.versions[0]))
        harness.send(
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send","arguments":{"method":"POST","url":"/echo","body":{"a":1}}}}"#
        )
        var question: JSON?
        for _ in 0..<500 where question == nil {
            question = harness.written.withLock { $0.first { $0["method"] == .string("elicitation/create") } }
            if question == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let asked = try #require(question)
        guard case .string(let message)? = asked["params"]?["message"], let id = asked["id"] else {
            throw CommandError(.session, "no question")
        }
        #expect(message.contains("post /echo"))
        #expect(harness.transport.requests.isEmpty, "nothing sent before the answer")
        harness.send(
            #"{"jsonrpc":"2.0","id":\#(String(id.formatted(.compactText).dropLast())),"result":{"action":"accept","content":{}}}"#
        )
        let answered = try await harness.reply(2)
        #expect(answered["result"]?["isError"] == .bool(false), "\(answered)")
        #expect(harness.transport.requests.map(\.method) == [.post])
        harness.input.finish()
        await serving.value
    }

    /// A client that cannot ask gets a refusal at once; the input's end answers a question still open.
    @Test func noElicitationIsANoAndTheInputsEndEndsTheWait() async throws {
        let harness = Harness()
        let serving = await harness.serve()
        harness.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
        harness.send(
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send","arguments":{"method":"DELETE","url":"/users"}}}"#
        )
        let refused = try await harness.reply(2)
        #expect(refused["result"]?["isError"] == .bool(true))
        #expect(harness.transport.requests.isEmpty)
        harness.input.finish()
        await serving.value

        let asking = Harness()
        let served = await asking.serve()
        asking.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"elicitation":{}}}}"#)
        _ = try await asking.reply(1)
        asking.send(
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send","arguments":{"method":"DELETE","url":"/users"}}}"#
        )
        for _ in 0..<500 where asking.written.withLock({ $0.count }) < 2 {
            try await Task.sleep(for: .milliseconds(10))
        }
        asking.input.finish()
        await served.value
        #expect(try await asking.reply(2)["result"]?["isError"] == .bool(true), "the end of input is a no")
        #expect(asking.transport.requests.isEmpty)
    }

    /// Standard input's lines, split whole however the bytes arrive, an overlong one marked.
    @Test func linesAreSplitWholeFromAFile() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let text = "{\"a\":1}\n\n{\"b\":" + String(repeating: "2", count: 100_000) + "}\nlast"
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        let writer = Thread {
            StandardStreams.write(text, to: writeEnd)
            close(writeEnd)
        }
        writer.start()
        var lines: [String] = []
        for await line in MCPServer.lines(from: readEnd) {
            if case .message(let bytes) = line { lines.append(String(decoding: bytes, as: UTF8.self)) }
        }
        close(readEnd)
        #expect(lines.count == 4)
        #expect(lines[0] == "{\"a\":1}" && lines[1].isEmpty && lines[2].count == 100_006 && lines[3] == "last")
    }
}
