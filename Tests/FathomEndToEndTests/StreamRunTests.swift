import FathomDemo
import FathomJSON
import FathomTestSupport
import Foundation
import Testing

/// Streams against the demo API in its own process: events as they arrive, a limit on an
/// endless stream, the events as JSON, Ctrl-C on a terminal, secrets masked in events, replay.
@Suite struct StreamRunTests {
    @Test func serverSentEventsAndLinesShowAndReadAsArrays() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let run = try FathomBinary.run(
            [server.baseURL, "--color", "never"],
            script: """
                get /events count==4 ms==20
                expect events == 4
                expect $[2].data.note == "data on two lines"
                expect $[0].retry == 3000
                expect $[-1].event == "done"
                expect event $.data.note ~ "two lines"
                expect event $.id == "4"
                get /stream count==3 ms==10
                expect events >= 3
                inspect $[*].n
                """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("HTTP 200 OK · text/event-stream · streaming, Ctrl-C ends it"))
        #expect(run.stdout.contains("3 tick · id 3"))
        #expect(run.stdout.contains("\"note\": \"data on two lines\""))
        #expect(run.stdout.contains("4 events, ended by the server"))
        #expect(run.stdout.contains("{\"n\":2,\"level\":\"info\",\"message\":\"line 2\"}"))
        #expect(run.stdout.contains("1\n2\n3\n"))
    }

    @Test func aLimitEndsAnEndlessStreamAndJSONHasAnObjectPerEvent() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let run = try FathomBinary.run(
            [server.baseURL, "--output", "json"],
            script: """
                stream limit 5
                get /events count==0 ms==10
                expect events == 5
                """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let objects = try run.stdout.split(separator: "\n").map { try JSON(parsing: String($0)) }
        let events = objects.filter { $0["type"] == .string("stream_event") }
        #expect(events.count == 5)
        #expect(events.first?["data"]?["n"] == .number("1"))
        #expect(events.first?["id"] == .string("1"))
        #expect(objects.contains { $0["type"] == .string("stream_head") })
        let response = try #require(objects.first { $0["type"] == .string("response") })
        #expect(response["stream"]?["ending"] == .string("limit"))
        #expect(response["stream"]?["events"] == .number("5"))
    }

    @Test func aSecretIsMaskedInEveryEvent() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let secret = "stream-s3cr3t-0042"
        let run = try FathomBinary.run(
            [server.baseURL],
            script: """
                secret token
                get /stream count==3 ms==5 message=={{token}}
                expect events == 3
                get /stream count==2 ms==5 message=={{token}} --repeat 1
                """, environment: ["FATHOM_SECRET_TOKEN": secret])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))
        #expect(run.stdout.contains("\"message\":\"••••0042\""))
    }

    @Test func aMockAnswersWithARecordedStream() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let directory = NSTemporaryDirectory() + "fathom-stream-mock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "{\"n\":1}\n{\"n\":2}\n".write(toFile: directory + "/feed.ndjson", atomically: true, encoding: .utf8)
        try "event: add\ndata: {\"id\": 7}\n\n".write(
            toFile: directory + "/feed.sse", atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(
            [server.baseURL, "--color", "never"],
            script: """
                mock /feed @feed.ndjson
                mock /changes @feed.sse
                get /feed
                expect events == 2
                expect $[1].n == 2
                get /changes
                expect $[0].event == "add"
                """, directory: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 add"))
    }

    @Test func replayReadsAStreamToItsLimit() throws {
        let directory = NSTemporaryDirectory() + "fathom-stream-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
        base {{demo}}
        stream limit 3
        get /events count==0 ms==10
        expect events == 3
        expect $[1].data.n == 2
        """.write(toFile: directory + "/events.fathom", atomically: true, encoding: .utf8)
        let replay = try FathomBinary.run(["replay", "--demo", "events.fathom"], directory: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("✓ GET /events?count=0&ms=10  200 OK"))
    }

    /// Ctrl-C ends an endless stream and keeps what arrived: the prompt goes on and reads it.
    @Test func ctrlCEndsAStreamAndKeepsItsEvents() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let state = NSTemporaryDirectory() + "fathom-stream-tmux-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try Tmux(
            "XDG_STATE_HOME=\(state) NO_COLOR=1 FATHOM_CONFIG=/nonexistent \(FathomBinary.binary) \(server.baseURL)")
        try terminal.waitFor("/>")
        try terminal.type("get /stream count==0 ms==100")
        try terminal.send("Enter")
        try terminal.waitFor("3 · +", timeout: 20)
        try terminal.send("C-c")
        let ended = try terminal.waitFor("ended by Ctrl-C", timeout: 20)
        #expect(ended.contains("HTTP/1.1 200 OK"))
        try terminal.waitForPrompt()
        try terminal.type("expect events >= 3")
        try terminal.send("Enter")
        try terminal.waitFor("✓ expect events >= 3")
    }
}

/// OpenAPI 3.2's `itemSchema`: each event or line checked against the description.
@Suite struct StreamSchemaTests {
    @Test func eachEventIsCheckedAgainstItsItemSchema() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let directory = NSTemporaryDirectory() + "fathom-itemschema-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The demo's description, with lines allowed only up to n = 1 and events only up to n = 2.
        var text = DemoOpenAPI.json
        text = text.replacingOccurrences(
            of: #""n": {"type": "integer", "minimum": 1}, "level""#,
            with: #""n": {"type": "integer", "maximum": 1}, "level""#)
        text = text.replacingOccurrences(
            of: #""n": {"type": "integer", "minimum": 1}, "of""#, with: #""n": {"type": "integer", "maximum": 2}, "of""#
        )
        #expect(text != DemoOpenAPI.json)
        try text.write(toFile: directory + "/strict.json", atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(
            [server.baseURL, "--spec", "strict.json", "--color", "never"],
            script: """
                get /stream count==3 ms==1
                expect schema
                get /events count==3 ms==1
                expect schema
                """, directory: directory)
        #expect(run.stdout.contains("schema ✗ 2"), "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✗ $[1].n: expected ≤ 1, got 2"))
        #expect(run.stdout.contains("✗ $[2].n: expected ≤ 1, got 3"))
        #expect(run.stdout.contains("✗ $[2].data.n: expected ≤ 2, got 3"))
        #expect(run.stderr.contains("✗ expect schema"))
        // Each event marked as it arrived, what it broke under it.
        #expect(run.stdout.contains("{\"n\":1,\"level\":\"info\",\"message\":\"line 1\"} · schema ✓"))
        #expect(
            run.stdout.contains(
                "{\"n\":2,\"level\":\"info\",\"message\":\"line 2\"} · schema ✗ 1\n  ✗ $.n: expected ≤ 1, got 2"))
        #expect(run.stdout.contains(" · schema ✗ 1\n  {\n    \"n\": 3,"))
        #expect(run.stdout.contains("  }\n  ✗ $.data.n: expected ≤ 2, got 3"))
        let json = try FathomBinary.run(
            [server.baseURL, "--spec", "strict.json", "--output", "json", "-c", "get /stream count==2 ms==1"],
            directory: directory)
        let events = try json.stdout.split(separator: "\n").map { try JSON(parsing: String($0)) }
            .filter { $0["type"] == .string("stream_event") }
        #expect(events.map { $0["schema"]?["valid"] } == [.bool(true), .bool(false)])
    }
}
