import FathomTestSupport
import Foundation
import Testing

/// WebSockets with the binary against the demo API in its own process: a conversation in a
/// script, close codes and a cut connection, credentials only for their own API, save and
/// replay, `--output json`, and the prompt under tmux with messages arriving mid-line.
@Suite struct WebSocketRunTests {
    static let planted = "ws-Secret-8c41d07e2a"

    @Test func aScriptConversesAndAFailedExpectationFailsIt() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let directory = NSTemporaryDirectory() + "fathom-ws-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "from a file".write(toFile: directory + "/message.txt", atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(
            [server.baseURL, "--color", "never"],
            script: """
                ws /ws?ticks=2&ms=20
                send {"hello": 1}
                expect message $.data.hello == 1
                expect message $.type == "tick"
                ping
                send @message.txt
                expect message $.data == "from a file"
                close 4000 bye
                get /users/1
                expect status 200
                """, directory: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("⇄ ws://127.0.0.1:\(server.port)/ws?ticks=2&ms=20 open"))
        #expect(run.stdout.contains("→ {\"hello\": 1}"))
        #expect(run.stdout.contains("\"type\": \"welcome\""))
        #expect(run.stdout.contains("✓ expect message $.data == \"from a file\""))
        #expect(run.stdout.contains("⇄ closed · 4000 · \"bye\""))

        let failing = try FathomBinary.run(
            [server.baseURL, "--color", "never"],
            script: """
                ws /ws
                timeout 300ms
                expect message $.type == "never"
                """)
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("expected a message where $.type == \"never\", got none in 300 ms"))
    }

    @Test func theServerClosingAndACutConnectionAreOneLineEach() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let run = try FathomBinary.run(
            [server.baseURL, "--color", "never"],
            script: """
                ws /ws
                send {"type": "close", "code": 4001, "reason": "enough"}
                expect message $.type == "nothing after the close"
                ws /ws
                send {"type": "drop"}
                expect message $.type == "nothing after the cut"
                get /users/1
                expect status 200
                """)
        #expect(run.stdout.contains("⇄ closed by the server · 4001 · \"enough\""), "\(run.stdout)\(run.stderr)")
        let cut = run.stderr.split(separator: "\n").filter { $0.contains("was cut off") }
        #expect(cut.count == 1, "\(run.stderr)")
        #expect(cut.first?.contains("in the middle of a message (12 B never finished)") == true)
        // The two expectations failed (nothing came before the end); the session went on.
        #expect(run.stderr.contains("got none before the WebSocket closed"))
        #expect(run.stdout.contains("✓ expect status 200"))
        #expect(run.status == 1)
    }

    /// The upgrade carries its API's credentials and defaults; a WebSocket to another origin
    /// carries none of them, and no output shows the secret.
    @Test func credentialsGoOnlyToTheirOwnAPI() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let other = try FaultServer { _, _ in .response("404 Not Found", body: "{}") }
        defer { other.stop() }
        let run = try FathomBinary.run(
            [server.baseURL, "--color", "never"],
            script: """
                post /login username=ada password=difference-engine
                let token = $.token
                auth bearer {{token}}
                secret planted
                default header X-Planted: {{planted}}
                ws /ws
                expect message $.user == "ada"
                send {"echo": "{{planted}}"}
                expect message $.type == "echo"
                close
                ws ws://127.0.0.1:\(other.port)/ws
                """, environment: ["FATHOM_SECRET_PLANTED": Self.planted])
        #expect(run.stdout.contains("✓ expect message $.user == \"ada\""), "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("to the upgrade of /ws, not 101 Switching Protocols"))
        let received = other.requests.joined(separator: "\n")
        #expect(received.lowercased().contains("upgrade: websocket"), "\(received)")
        #expect(!received.lowercased().contains("authorization"))
        #expect(!received.contains(Self.planted) && !received.contains("X-Planted"))
        #expect(!run.stdout.contains(Self.planted) && !run.stderr.contains(Self.planted))
        #expect(run.stdout.contains("→ {\"echo\": \"••••"))
    }

    @Test func aSavedConversationReplays() throws {
        let directory = NSTemporaryDirectory() + "fathom-ws-replay-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let session = try FathomBinary.run(
            ["--demo", "--color", "never"],
            // The tick comes 300 ms after the upgrade, well after the echo of `send`: `expect
            // message` reads on from the last message it matched, so the order is the test's.
            script: """
                ws /ws?ticks=1&ms=300
                send {"step": 1}
                expect message $.data.step == 1
                expect message $.type == "tick"
                close
                get /users/1
                save session.fathom
                """, directory: directory)
        #expect(session.status == 0, "\(session.stdout)\(session.stderr)")
        let saved = try String(contentsOfFile: directory + "/session.fathom", encoding: .utf8)
        #expect(saved.contains("ws /ws?ticks=1&ms=300\nsend {\"step\": 1}\nexpect message $.data.step == 1"))
        let replay = try FathomBinary.run(["replay", "--demo", "session.fathom"], directory: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("✓ WS ws://127.0.0.1:"))
        #expect(replay.stdout.contains("2 requests: 2 passed · 2 expectations"))
        // A replay whose message never comes fails, and says which.
        try saved.replacingOccurrences(of: "$.data.step == 1", with: "$.data.step == 2")
            .write(toFile: directory + "/broken.fathom", atomically: true, encoding: .utf8)
        let broken = try FathomBinary.run(
            ["replay", "--demo", "--timeout", "500ms", "broken.fathom"], directory: directory)
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("expect message $.data.step == 2"), "\(broken.stdout)\(broken.stderr)")
    }

    /// Each step of a conversation is an object (`websocket`), and follows docs/output.schema.json.
    @Test func jsonOutputHasAnObjectPerStep() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let run = try FathomBinary.run(
            [server.baseURL, "--output", "json"],
            script: """
                ws /ws
                send {"n": 1}
                expect message $.type == "echo"
                ping
                close 4000
                """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let objects = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let steps = objects.filter { $0["type"] as? String == "websocket" }.compactMap { $0["event"] as? String }
        #expect(steps.first == "open" && steps.last == "close", "\(steps)")
        #expect(Set(steps) == ["open", "sent", "message", "ping", "close"])
        let echo = try #require(
            objects.first { ($0["data"] as? [String: Any])?["type"] as? String == "echo" })
        #expect(echo["n"] as? Int == 2 && echo["ms"] != nil)
    }

    /// At the prompt: messages arrive while a line is typed, print above it, and the line goes
    /// on; Ctrl-D closes the WebSocket and the main prompt comes back.
    @Test func messagesPrintAboveTheLineBeingTyped() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let state = NSTemporaryDirectory() + "fathom-ws-tmux-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try Tmux(
            "XDG_STATE_HOME=\(state) NO_COLOR=1 FATHOM_CONFIG=/nonexistent \(FathomBinary.binary) \(server.baseURL)")
        try terminal.waitFor("/>")
        try terminal.type("ws /ws?ticks=3&ms=400")
        try terminal.send("Enter")
        try terminal.waitFor("ws 127.0.0.1:\(server.port)/ws?ticks=3&ms=400>")
        try terminal.type("send half a li")
        // The ticks arrive meanwhile: above the prompt, which keeps what was typed.
        let screen = try terminal.waitFor("\"n\": 3", timeout: 20)
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(lines.last == "ws 127.0.0.1:\(server.port)/ws?ticks=3&ms=400> send half a li", "\(screen)")
        try terminal.type("ne")
        try terminal.send("Enter")
        try terminal.waitFor("\"data\": \"half a line\"")
        try terminal.send("C-d")
        let closed = try terminal.waitFor("⇄ closed · 1000 normal closure")
        #expect(closed.contains("5 messages received"))
        try terminal.waitForPrompt("/>")
        try terminal.type("get /users/1")
        try terminal.send("Enter")
        try terminal.waitFor("\"name\": \"Ada Lovelace\"")
    }
}
