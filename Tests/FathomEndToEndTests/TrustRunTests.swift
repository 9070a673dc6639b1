import FathomDemo
import FathomTestSupport
import Foundation
import Testing

/// "Trust, round three" where a person meets it, through the built binary: the hint after a
/// timed-out one-liner, every subcommand's errors through the sanitiser, the config's comments,
/// `fathom --color never config`, `base` as it expands, an imported header's reference, the
/// tour, `--compare`'s hint, and a script failure's line.
@Suite struct TrustRunTests {
    func directory(_ files: [String: String]) throws -> String {
        let directory = NSTemporaryDirectory() + "fathom-trust-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        return directory
    }

    /// The hint after a timed-out one-liner leads back to it: the failed line changed nothing, so
    /// `send` would send the draft from before it.
    @Test func aTimedOutOneLinerSaysToRunItAgain() throws {
        let demo = try DemoServerProcess()
        let run = try FathomBinary.run(
            ["--color", "never", demo.baseURL],
            script: """
                timeout 200ms
                get /slow?ms=1500
                timeout 5s
                get /slow?ms=10
                """)
        #expect(run.stderr.contains("timed out after 200 ms"), "\(run.stderr)")
        #expect(run.stderr.contains("allow more with `timeout 10s`, then run this line again"), "\(run.stderr)")
    }

    /// A file with terminal controls in it makes no raw escape reach the terminal through any
    /// subcommand's errors: import, fmt, query, diff, config.
    @Test func everySubcommandsErrorsAreSanitised() throws {
        let escape = "\u{1B}[31mowned\u{07}"
        let folder = try directory([
            "evil.curl": "curl --bogus\(escape) http://127.0.0.1:9/",
            "evil.json": "{\"a\": \(escape)}",
            "config": "color \(escape)\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let runs = [
            try FathomBinary.run(["import", "\(folder)/evil.curl"]),
            try FathomBinary.run(["fmt", "\(folder)/evil.json"]),
            try FathomBinary.run(["query", "$.a", "\(folder)/evil.json"]),
            try FathomBinary.run(["diff", "\(folder)/evil.json", "\(folder)/evil.json"]),
            try FathomBinary.run(["config"], environment: ["FATHOM_CONFIG": "\(folder)/config"]),
            try FathomBinary.run(["replay", "\(folder)/evil.curl"]),
        ]
        for run in runs {
            #expect(run.status != 0 || !run.stderr.isEmpty || !run.stdout.isEmpty)
            #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"), "\(run.stderr)")
            #expect(!run.stdout.contains("\u{1B}") && !run.stdout.contains("\u{07}"), "\(run.stdout)")
        }
        #expect(runs[0].stderr.contains("␛"), "shown as a symbol: \(runs[0].stderr)")
    }

    /// The README's own config sample reads as written: comments after a setting, quoting.
    @Test func theConfigReadsCommentsAsSessionFilesDo() throws {
        let folder = try directory([
            "config": """
            # ~/.config/fathom/config
            timeout 10s
            validate strict        # the mode every API starts with (validate --default strict)
            pager off
            redirects 3
            color never            # color, output, history and archive exist only at start
            output text
            history 5000
            archive-size 200MB     # the response archive: archive off keeps none
            archive-age 7d
            """
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try FathomBinary.run(["config"], environment: ["FATHOM_CONFIG": "\(folder)/config"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("color         never"), "\(run.stdout)")
        #expect(run.stdout.contains("validate      strict"), "\(run.stdout)")
        #expect(run.stdout.contains("archive-age   7d"), "\(run.stdout)")
        // Options before the subcommand's name: the subcommand, not a URL called `config`.
        let flagged = try FathomBinary.run(
            ["--color", "never", "config"], environment: ["FATHOM_CONFIG": "\(folder)/config"])
        #expect(
            flagged.status == 0 && flagged.stdout.contains("color         never   flag --color"), "\(flagged.stdout)")
        // Many unknown keys are a few lines and a count, not megabytes.
        let noisy = try directory(["config": String(repeating: "nonsense 1\n", count: 5000)])
        defer { try? FileManager.default.removeItem(atPath: noisy) }
        let many = try FathomBinary.run(["config"], environment: ["FATHOM_CONFIG": "\(noisy)/config"])
        #expect(many.stderr.split(separator: "\n").count <= 12, "\(many.stderr.prefix(2000))")
        #expect(many.stderr.contains("and 4990 more problems"), "\(many.stderr.suffix(300))")
    }

    /// `base` shows the URL the demo's `{{demo}}` names; a header holding a reference shows it as
    /// written; the tour no longer promises a REPL to come.
    @Test func whatIsShownIsWhatIsMeant() throws {
        let demo = try DemoServerProcess()
        let run = try FathomBinary.run(
            ["--color", "never", "--demo"],
            script: """
                base
                set authorization2 = Bearer x
                header Authorization: {{authorization2}}
                header
                """)
        #expect(run.stdout.contains("\nhttp://127.0.0.1:") && run.stdout.contains(" ({{demo}})\n"), "\(run.stdout)")
        #expect(run.stdout.contains("Authorization: {{authorization2}}"), "\(run.stdout)")
        _ = demo
        let tour = try FathomBinary.run(["tour"])
        #expect(!tour.stdout.contains("will sit on top"), "\(tour.stdout.prefix(400))")
    }

    /// A script's failure says on which line of the script its entry began.
    @Test func aScriptsFailureNamesItsLine() throws {
        let run = try FathomBinary.run(
            ["--output", "json"],
            script: """
                set a = 1
                body {
                  "x": 1
                }
                query =
                """)
        #expect(run.stdout.contains(#""column":7,"line":5"#), "\(run.stdout)")
    }

    /// A WebSocket server that never answers a close: `close`, the end of a script and the end
    /// of a replayed file each end within the close's bound, not at a wall clock's.
    @Test func aCloseNobodyAnswersEndsEverywhere() throws {
        let server = try RogueWebSocketServer(.neverAnswersClose)
        defer { server.stop() }
        let folder = try directory(["open.fathom": "ws \(server.url)\nexpect message\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (arguments, script) in [
            (["--color", "never"], "ws \(server.url)\nclose\n"),
            (["--color", "never"], "ws \(server.url)\n"),
            (["replay", "\(folder)/open.fathom"], ""),
        ] {
            let start = Date()
            let run = try FathomBinary.run(arguments, script: script)
            let took = Date().timeIntervalSince(start)
            #expect(took < 15, "\(arguments): \(took) s\n\(run.stdout)\(run.stderr)")
            #expect(run.status == 0, "\(arguments): \(run.stdout)\(run.stderr)")
        }
    }

    /// A server that breaks RFC 6455 is told so (the close code) and the person reads why.
    @Test func aServerBreakingTheProtocolIsNamed() throws {
        for (misbehaviour, said) in [
            (
                RogueWebSocketServer.Misbehaviour.invalidUTF8,
                "with 1007 invalid data: the server sent a text message that is not UTF-8"
            ),
            (.maskedFrame, "with 1002 protocol error: the server sent a masked frame"),
            (.subprotocol("chat"), "chose the subprotocol 'chat', which Fathom did not offer"),
        ] {
            let server = try RogueWebSocketServer(misbehaviour)
            defer { server.stop() }
            let run = try FathomBinary.run(["--color", "never"], script: "ws \(server.url)\nexpect message\n")
            #expect(run.stderr.contains(said), "\(run.stdout)\(run.stderr)")
        }
    }

    /// 100,000 pings, then a message: `expect message` finds it (starved, it never came). The
    /// flood is kept to what a debug build answers in a few seconds beside the other end-to-end
    /// tests; `WebSocketProtocolTests` holds the coalescing that makes it cheap.
    @Test func aPingFloodDoesNotStarveExpectMessage() throws {
        let server = try RogueWebSocketServer(.pingFlood(100_000))
        defer { server.stop() }
        let run = try FathomBinary.run(
            // A wait long enough for a debug build on a busy machine: starved, it never came at all.
            ["--color", "never"],
            script: "ws \(server.url)\ntimeout 30s\nexpect message $.after == \"pings\"\nclose\n")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ expect message $.after == \"pings\""), "\(run.stdout)\(run.stderr)")
    }

    /// A description loaded before any base (its servers name the API's real host) goes with the
    /// base the person sets next — a local server — and checks its responses; one line says so.
    @Test func aDescriptionLoadedFirstChecksTheBaseSetNext() throws {
        let demo = try DemoServerProcess()
        let described = DemoOpenAPI.json.replacingOccurrences(
            of: #""servers": [{"url": "/"}]"#, with: #""servers": [{"url": "https://api.example.com"}]"#)
        let folder = try directory(["demo.json": described])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try FathomBinary.run(
            ["--color", "never"],
            script: """
                spec demo.json
                base \(demo.baseURL)
                get /users/1
                expect schema
                """, directory: folder)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("moved from https://api.example.com to \(demo.baseURL)"), "\(run.stdout)")
        #expect(run.stdout.contains("schema ✓") && run.stdout.contains("✓ expect schema"), "\(run.stdout)")
    }
}
