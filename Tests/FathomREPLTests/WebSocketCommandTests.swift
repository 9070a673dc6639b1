import FathomDemo
import FathomHTTP
import FathomJSON
import FathomTestSupport
import Foundation
import Synchronization
import Testing

@testable import FathomREPL

/// `ws`, `send TEXT`, `ping`, `expect message`, `close` against the demo's `/ws` in this process.
@Suite struct WebSocketCommandTests {
    private func executor() -> Executor {
        Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:]))
    }

    private func run(_ executor: Executor, _ lines: [String]) async -> [CommandResult] {
        var results: [CommandResult] = []
        for line in lines { results.append(await executor.run(line)) }
        return results
    }

    private func texts(_ result: CommandResult) -> String {
        let renderer = OutputRenderer(palette: Palette(enabled: false), redactor: Redactor())
        return result.outputs.map { renderer.render($0).text }.joined()
    }

    @Test func aConversationSendsWaitsAndCloses() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let results = await run(
            executor,
            [
                // The ticks before anything is sent: `expect message` reads on from the last match,
                // and an echo that arrived before them would leave them behind.
                "base \(server.baseURL)", "ws /ws?ticks=2&ms=20", #"expect message $.type == "tick""#,
                "expect message $.n == 2", #"send {"n": 7}"#, "expect message $.data.n == 7", "ping",
                "send plain words",
                #"expect message $.data == "plain words""#, "close 4000 finished",
            ])
        #expect(results.map(\.outcome) == Array(repeating: .succeeded, count: 10), "\(results.map(texts))")
        #expect(texts(results[1]).contains("⇄ ws://127.0.0.1:\(server.port)/ws?ticks=2&ms=20 open"))
        #expect(texts(results[4]) == "→ {\"n\": 7}\n")
        #expect(texts(results[9]).contains("⇄ closed · 4000 · \"finished\""))
        #expect(await (executor.record.conversation as? OpenWebSocket)?.closed?.initiator == .client)
        #expect(executor.feeds.snapshot.current.conversation == nil)
        await server.stop()
    }

    /// After `ws`, `expect` and `let` do not read the response before it as if it were the
    /// WebSocket's; `expect message` reads the WebSocket.
    @Test func aResponseBeforeTheWebSocketIsNotReadAsItsOwn() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let results = await run(
            executor,
            [
                "base \(server.baseURL)", "get /users/1", "ws /ws", "expect status 200", "let id = $.id",
                "expect message",
            ])
        #expect(results.map(\.outcome) == [.succeeded, .succeeded, .succeeded, .failed, .failed, .succeeded])
        #expect(texts(results[3]).contains("the last entry is the WebSocket conversation #2, not a response"))
        #expect(texts(results[4]).contains("$.id matches nothing in #2"), "the conversation is read, not #1")
        // An earlier response, named, is read as ever.
        #expect(await run(executor, ["let id = $.id #1"]).map(\.outcome) == [.succeeded])
        await executor.endConversation()
        await server.stop()
    }

    /// A conversation is an exchange in the history: `inspect`, `let` and `show` read its
    /// messages each way, by number or as the last entry.
    @Test func aConversationsMessagesAreInspectableAndCapturable() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let results = await run(
            executor,
            [
                "base \(server.baseURL)", "get /users/1", "ws /ws", #"expect message $.type == "welcome""#,
                #"send {"n": 7}"#, "expect message $.data.n == 7",
                "let echoed = $.messages[-1].data.data.n", "inspect $.messages[0]",
                #"let sentN = "$.messages[?@.from == 'client'].data.n" #2"#,
                "show #2",
            ])
        #expect(results.map(\.outcome).allSatisfy { $0 == .succeeded }, "\(results.map(texts))")
        #expect(texts(results[2]).contains("open · #2 ·"))
        #expect(await executor.session.variables["echoed"] == "7")
        #expect(await executor.session.variables["sentN"] == "7")
        #expect(texts(results[7]).contains("\"from\": \"server\""), "the greeting: \(texts(results[7]))")
        #expect(texts(results[9]).contains("\"sent\": 1") && texts(results[9]).contains("\"closed\": null"))
        // Still there once it has closed, with how it ended.
        _ = await executor.run("close")
        #expect(
            await executor.run("inspect #2 $.closed.by").outputs.map { texts(CommandResult(.succeeded, [$0])) }
                .joined().contains("client"))
        #expect(await executor.run("expect status 200").outcome == .failed)
        // `responses` lists it in its place among the responses.
        let listed = texts(await executor.run("responses"))
        #expect(listed.contains("#1 GET /users/1"), "\(listed)")
        #expect(listed.contains("#2 WS ws://127.0.0.1:\(server.port)/ws · 2 received, 1 sent"), "\(listed)")
        await server.stop()
    }

    @Test func expectMessageGivesUpAtTheTimeout() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let start = ContinuousClock.now
        // The timeout after the opening: it bounds the opening too, and a busy machine (a parallel
        // test run) can take longer than 300 ms to open.
        let results = await run(
            executor, ["base \(server.baseURL)", "ws /ws", "timeout 300ms", #"expect message $.type == "never""#])
        #expect(results.map(\.outcome) == [.succeeded, .succeeded, .succeeded, .checkFailed])
        let failed = texts(results[3])
        #expect(
            failed.contains(#"expected a message where $.type == "never", got none in 300 ms (1 looked at"#),
            "\(failed)")
        #expect(ContinuousClock.now - start < .seconds(3))
        await executor.endConversation()
        await server.stop()
    }

    @Test func aFailedWsLineChangesNothing() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let results = await run(executor, ["base \(server.baseURL)", "ws /users", "send hello", "ping", "close"])
        #expect(results.map(\.outcome) == [.succeeded, .failed, .failed, .failed, .failed])
        #expect(
            texts(results[1]).contains("answered 400 Bad Request to the upgrade of /users, not 101 Switching Protocols")
        )
        #expect(texts(results[2]).contains("no WebSocket or gRPC stream is open"))
        #expect(await executor.record.conversation == nil)
        #expect(executor.feeds.snapshot.current.conversation == nil)
        // And nothing of it is kept for `save`.
        #expect(await executor.record.log.lines.map(\.command.line) == ["base \(server.baseURL)"])
        await server.stop()
    }

    @Test func theServerClosingOrCuttingEndsTheConversationAndTheSessionGoesOn() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let shown = OutputsSeen()
        executor.feeds.background.listen { shown.append($0) }
        var results = await run(
            executor, ["base \(server.baseURL)", "ws /ws", #"send {"type": "close", "code": 4001, "reason": "bye"}"#])
        #expect(results.map(\.outcome) == [.succeeded, .succeeded, .succeeded])
        try await shown.waitFor { if case .closed = $0.kind { true } else { false } }
        results = await run(executor, ["send again", "ws /ws", #"send {"type": "drop"}"#])
        #expect(results.map(\.outcome) == [.failed, .succeeded, .succeeded])
        #expect(texts(results[0]).contains("was closed by the server (4001)"))
        try await shown.waitFor {
            if case .closed(let close, _, _) = $0.kind { close.initiator == .dropped } else { false }
        }
        let closes = shown.all.compactMap { output -> WebSocketClose? in
            if case .closed(let close, _, _) = output.kind { close } else { nil }
        }
        #expect(closes.map(\.initiator) == [.server, .dropped])
        #expect(closes.first?.code == 4001 && closes.first?.reason == "bye")
        #expect(closes.last?.unfinishedBytes == 12)
        // The session goes on.
        let after = await run(executor, ["get /users/1", "expect status 200"])
        #expect(after.map(\.outcome) == [.succeeded, .succeeded])
        executor.feeds.background.listen(nil)
        await server.stop()
    }

    /// The session's `proxy` carries the WebSocket, as it carries requests.
    @Test func theProxySettingApplies() async throws {
        let server = try await DemoAPI.start()
        let proxy = try TunnelProxy()
        defer { proxy.stop() }
        let executor = executor()
        let results = await run(
            executor,
            ["base \(server.baseURL)", "proxy http://127.0.0.1:\(proxy.port)", "ws /ws", "expect message", "close"])
        #expect(results.map(\.outcome) == Array(repeating: .succeeded, count: 5), "\(results.map(texts))")
        #expect(proxy.requests.value.first?.hasPrefix("CONNECT 127.0.0.1:\(server.port) HTTP/1.1") == true)
        await server.stop()
    }

    /// `log headers` shows what the upgrade carried, masked, and how the conversation ended.
    @Test func theUpgradeIsInTheWireLogMasked() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let directory = NSTemporaryDirectory() + "fathom-ws-log-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let planted = "ws-log-Secret-61d2a9"
        let results = await run(
            executor,
            [
                "base \(server.baseURL)", "secret token = \(planted)", "auth bearer {{token}}",
                "log headers \(directory)/wire.log", "ws /ws", "close 4000",
            ])
        #expect(results.allSatisfy { $0.outcome == .succeeded }, "\(results.map(texts))")
        let log = try String(contentsOfFile: directory + "/wire.log", encoding: .utf8)
        #expect(log.contains("upgrade=websocket"), "\(log)")
        #expect(log.contains("Authorization: Bearer ••••"), "\(log)")
        #expect(log.contains("websocket closed"), "\(log)")
        #expect(!log.contains(planted) && !log.contains(String(planted.suffix(8))))
        await server.stop()
    }

    @Test func aSavedConversationReplaysTheSameLines() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let directory = NSTemporaryDirectory() + "fathom-ws-save-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = [
            "ws /ws", #"send {"a": 1}"#, "expect message $.data.a == 1", "send '-dash first'", "ping",
            "close 4000 done",
        ]
        let results = await run(executor, ["base \(server.baseURL)"] + lines + ["save \(directory)/ws.fathom"])
        #expect(results.allSatisfy { $0.outcome == .succeeded }, "\(results.map(texts))")
        let saved = try String(contentsOfFile: directory + "/ws.fathom", encoding: .utf8)
        #expect(saved.contains(lines.joined(separator: "\n")), "\(saved)")
        // Parsed back, the file holds the same commands.
        let file = try SessionFile.parse(saved, path: "ws.fathom")
        let replayed = file.entries.map(\.command.line).filter { !$0.hasPrefix("base") }
        #expect(replayed == lines)
        await server.stop()
    }

    /// A conversation is recorded as the file's lines made it — each message sent, each one an
    /// `expect message` waited for, the file's own close — and `--compare` checks it; the
    /// greeting and the ticks that only happened to arrive are not compared.
    @Test func aConversationIsRecordedAndCompared() async throws {
        let server = try await DemoAPI.start()
        let directory = NSTemporaryDirectory() + "fathom-ws-record-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/chat.fathom"
        func write(_ value: Int) throws {
            try """
            base {{base}}
            ws /ws?ticks=3&ms=5
            send {"a": \(value)}
            expect message $.data.a == \(value)
            close 4000 done
            get /users/1

            """.write(toFile: file, atomically: true, encoding: .utf8)
        }
        func replay(_ configure: (inout ReplayRunner.Options) -> Void) async -> (Int32, String) {
            var options = ReplayRunner.Options()
            options.executor = Executor.Options(environmentPaths: [], dotEnvPath: nil, environment: [:])
            options.variables = [("base", server.baseURL)]
            configure(&options)
            let console = BufferConsole()
            let status = await ReplayRunner(options: options, output: console, prompter: NoPrompter()).run(files: [file]
            )
            return (status, console.stdout)
        }
        try write(1)
        let (recorded, recordedText) = await replay { $0.record = true }
        #expect(recorded == 0, "\(recordedText)")
        #expect(recordedText.contains("recorded 2 responses to"), "\(recordedText)")
        let recording = try Recording.load(Recording.path(forSession: file))
        let conversation = try #require(recording.entries.first)
        #expect(conversation.method == "WS" && conversation.status == 101)
        #expect(conversation.identity?.target == "/ws", "the query is left out, as for a request")
        #expect(
            conversation.body
                == .json(
                    try JSON(
                        parsing: #"""
                            {"messages": [{"from": "client", "data": {"a": 1}},
                                          {"from": "server", "data": {"type": "echo", "n": 1, "data": {"a": 1}}}],
                             "closed": {"code": 4000}}
                            """#)))

        let (same, sameText) = await replay { $0.compare = true }
        #expect(same == 0, "\(sameText)")
        #expect(sameText.contains("2 compared with recordings"), "\(sameText)")

        try write(2)
        let (changed, changedText) = await replay { $0.compare = true }
        #expect(changed == 1, "\(changedText)")
        #expect(changedText.contains("~ $['messages'][0]['data']['a']  1 → 2"), "\(changedText)")
        await server.stop()
    }

    /// At the prompt, `record on` keeps the conversation as it goes on after its line: `save`
    /// writes it as the file's lines left it.
    @Test func aSavedConversationIsRecordedAsItEnded() async throws {
        let server = try await DemoAPI.start()
        let executor = executor()
        let directory = NSTemporaryDirectory() + "fathom-ws-save-record-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let results = await run(
            executor,
            [
                "base \(server.baseURL)", "record on", "ws /ws", #"send "hello""#, #"expect message $.data == "hello""#,
                "close", "save \(directory)/chat.fathom",
            ])
        #expect(results.allSatisfy { $0.outcome == .succeeded }, "\(results.map(texts))")
        let recording = try Recording.load(directory + "/chat.recording.json")
        #expect(recording.entries.map(\.method) == ["WS"])
        guard case .json(let document)? = recording.entries.first?.body else {
            Issue.record("no JSON in \(recording.entries)")
            return
        }
        #expect(document["messages"]?[1]?["data"]?["data"] == .string("hello"))
        #expect(document["closed"]?["code"] == .number("1000"))
        await server.stop()
    }
}

/// The sink outputs go through while they arrive.
@Suite struct LiveOutputsTests {
    /// Reading the handler must not wrap it once more each time: 200,000 outputs (a long
    /// WebSocket conversation) once overflowed a pool thread's stack through nested thunks.
    @Test func aHandlerCalledMillionsOfTimesStaysFlat() async {
        let live = LiveOutputs()
        let count = Mutex(0)
        live.listen { _ in count.withLock { $0 += 1 } }
        await Task.detached {
            for _ in 0..<200_000 { live.send(.event(.recordingOn)) }
        }.value
        #expect(count.withLock { $0 } == 200_000)
        live.listen(nil)
        #expect(!live.send(.event(.recordingOn)))
    }
}

/// Outputs shown in the background, for a test to wait on.
final class OutputsSeen: Sendable {
    private let outputs = Mutex<[WebSocketOutput]>([])

    func append(_ output: Output) {
        if case .webSocket(let output) = output { outputs.withLock { $0.append(output) } }
    }

    var all: [WebSocketOutput] { outputs.withLock { $0 } }

    func waitFor(_ matches: (WebSocketOutput) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !all.contains(where: matches) {
            guard ContinuousClock.now < deadline else { throw CommandError(.session, "not shown: \(all)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
