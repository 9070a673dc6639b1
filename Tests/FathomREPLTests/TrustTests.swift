import FathomDemo
import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

/// What "Trust, round three" found, each held in process on a MockTransport: secrets masked
/// before anything is cut, a failed line's secrets masked, state that belongs to an API's origin
/// (a variable in the base, a description loaded before a base, mocks), and environments that
/// replace each other's variables.
@Suite struct TrustTests {
    static func executor(
        _ transport: MockTransport, prompter: any SecretPrompter = NoPrompter(), paths: [String] = []
    )
        -> Executor
    {
        Executor(
            options: .init(
                environmentPaths: paths, dotEnvPath: nil, environment: [:], prompter: prompter, transport: transport))
    }

    static func run(_ executor: Executor, _ lines: String) async -> [CommandResult] {
        var results: [CommandResult] = []
        for line in lines.split(separator: "\n") { results.append(await executor.run(String(line))) }
        return results
    }

    static func text(_ results: [CommandResult], _ executor: Executor) -> String {
        let renderer = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor)
        return results.flatMap(\.outputs).map { renderer.render($0).text }.joined()
    }

    /// Every run of eight or more characters of `secret` but its last four (which the mask shows).
    static func pieces(of secret: String) -> [String] {
        let characters = Array(secret)
        var pieces: [String] = []
        for start in 0..<characters.count where start + 8 <= characters.count {
            for end in (start + 8)...characters.count {
                pieces.append(String(characters[start..<end]))
            }
        }
        return pieces
    }

    /// A batch's classes show bodies cut to 100 characters: masked first, so no start of the key
    /// is left beside the `••••cdef` shown elsewhere.
    @Test func batchSummariesMaskBeforeTheyCut() async throws {
        let transport = MockTransport()
        transport.register(
            "/echo",
            .handler { request in
                let key = request.headers["X-Api-Key"] ?? ""
                let padding = String(repeating: "x", count: 80)
                return .json(#"{"padding": "\#(padding)", "key": "\#(key)"}"#)
            })
        let executor = Self.executor(transport)
        let secret = "sk-live-0123456789abcdef"
        let results = await Self.run(
            executor,
            """
            base http://api.test
            secret k = \(secret)
            get /echo X-Api-Key:{{k}} --repeat 2
            auth bearer \(secret)
            show #1
            """)
        #expect(results.allSatisfy { $0.outcome == .succeeded })
        let text = Self.text(results, executor)
        #expect(text.contains("…"), "the class line is cut: \(text)")
        for piece in Self.pieces(of: secret) { #expect(!text.contains(piece), "'\(piece)' shows in \(text)") }
    }

    /// With no base, `auth bearer SECRET` fails, as it must: the secret it declared is masked all
    /// the same, from the failure on (the history file gets the masked line).
    @Test func aFailedLinesSecretIsMasked() async {
        let executor = Self.executor(MockTransport())
        let results = await Self.run(
            executor,
            """
            auth bearer nobase-SECRET-2718
            auth basic ada:nobase-PASSWORD-1414
            proxy ftp://me:proxy-PASS-7777@proxy.test:21
            """)
        #expect(results.allSatisfy { $0.outcome == .failed })
        for secret in ["nobase-SECRET-2718", "nobase-PASSWORD-1414", "proxy-PASS-7777"] {
            #expect(!executor.redactor.redact("typed: \(secret)").contains(secret))
        }
    }

    /// `api unshare` crashed (an overlapping access to the session); now it works, and `api`
    /// lists what the API shares with.
    @Test func apiUnshareWorks() async {
        let executor = Self.executor(MockTransport())
        let results = await Self.run(
            executor,
            """
            base http://127.0.0.1:18001
            api share http://127.0.0.1:18002
            api
            api unshare http://127.0.0.1:18002
            api unshare http://127.0.0.1:18002
            """)
        #expect(results.map(\.outcome) == [.succeeded, .succeeded, .succeeded, .succeeded, .failed])
        #expect(Self.text([results[2]], executor).contains("shared with http://127.0.0.1:18002"))
        // A URL written with a variable shares its expanded origin; a path names no origin.
        let more = await Self.run(
            executor,
            """
            set gateway = http://127.0.0.1:18003
            api share {{gateway}}
            api share /users
            api unshare {{gateway}}
            """)
        #expect(more.map(\.outcome) == [.succeeded, .succeeded, .failed, .succeeded], "\(more.map(\.outputs))")
    }

    /// A description loaded before any base gives the base from its servers only until the person
    /// sets one: then it checks that base's server (a local mock), and one line says it moved.
    @Test func aDescriptionLoadedBeforeTheBaseGoesWithTheBase() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID()).json").path
        // Its server is absolute, as a published description's is (the demo's own is `/`).
        let described = DemoOpenAPI.json.replacingOccurrences(
            of: #""servers": [{"url": "/"}]"#, with: #""servers": [{"url": "https://api.example.com"}]"#)
        try Data(described.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let transport = MockTransport()
        transport.register("/users/1", .json(#"{"id": "one"}"#))
        let executor = Self.executor(transport)
        let results = await Self.run(
            executor,
            """
            spec \(file)
            base http://127.0.0.1:4010
            get /users/1
            expect schema
            """)
        #expect(results.map(\.outcome) == [.succeeded, .succeeded, .succeeded, .checkFailed])
        let text = Self.text(results, executor)
        #expect(text.contains("base https://api.example.com (from the description's servers"), "\(text)")
        #expect(text.contains("moved from") && text.contains("to http://127.0.0.1:4010"), "\(text)")
        #expect(text.contains("schema ✗"), "the response was checked: \(text)")
        #expect(!text.contains("no description loaded"))
    }

    /// A base of the person's own on another origin leaves the API before with its state, and one
    /// line says what stayed and how to take it along (`base --move`).
    @Test func aBaseSaysWhatStayedAndMoveTakesItAlong() async {
        let transport = MockTransport()
        transport.register("/x", .json("{}"))
        let executor = Self.executor(transport)
        let results = await Self.run(
            executor,
            """
            base http://a.test
            auth bearer stays-with-a-0123456
            default header X-Client: fathom
            base http://b.test
            get /x
            base http://a.test
            base --move http://c.test
            get /x
            """)
        #expect(results.allSatisfy { $0.outcome == .succeeded })
        let text = Self.text([results[3]], executor)
        #expect(text.contains("auth (bearer) and 1 default stayed with http://a.test"), "\(text)")
        #expect(text.contains("`base --move URL`"))
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].headers[.authorization] == nil, "b.test gets nothing of a.test's")
        #expect(requests[1].url.host == "c.test" && requests[1].headers[.authorization] != nil)
        #expect(Self.text([results[6]], executor).contains("moved from http://a.test to http://c.test"))
    }

    /// `env use b` asks for a secret b names that nothing gives, and a secret already set by that
    /// name is used as it is.
    @Test func anEnvironmentAsksForItsSecrets() async throws {
        let directory = NSTemporaryDirectory() + "fathom-env-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/fathom.env.json"
        try
            #"{"a": {"base": "http://a.test", "secrets": ["token"]}, "b": {"base": "http://b.test", "secrets": ["key"]}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let asked = Self.executor(
            MockTransport(), prompter: BufferConsole(secretAnswer: "typed-token-998877"), paths: [path])
        let results = await Self.run(asked, "env use a\nsecret key = set-before-112233\nenv use b\nvars")
        #expect(results.allSatisfy { $0.outcome == .succeeded }, "\(Self.text(results, asked))")
        let text = Self.text(results, asked)
        #expect(text.contains("environment a: base http://a.test · secrets token"), "\(text)")
        #expect(text.contains("environment b (was a)") && text.contains("no longer set: token"), "\(text)")
        #expect(await asked.session.variables["key"] == "set-before-112233")
        #expect(await asked.session.variables["token"] == nil)
        let nobody = Self.executor(MockTransport(), paths: [path])
        let refused = await nobody.run("env use a")
        #expect(refused.outcome == .failed)
        #expect(Self.text([refused], nobody).contains("FATHOM_SECRET_TOKEN"))
    }

    /// A request to an operation the description says answers with server-sent events asks for
    /// them (`Accept: text/event-stream`) unless the draft says otherwise; `stream on` asks for
    /// any stream; the User-Agent is the version this is.
    @Test func aStreamIsAskedFor() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID()).json").path
        try Data(DemoOpenAPI.json.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let transport = MockTransport()
        transport.register("/events", .data(Data("data: 1\n\n".utf8), contentType: "text/event-stream"))
        transport.register("/users", .json("{}"))
        transport.register("/other", .json("{}"))
        let executor = Self.executor(transport)
        let results = await Self.run(
            executor,
            """
            base http://api.test
            spec \(file)
            get /events count==1
            get /events Accept:text/plain
            get /users/1
            stream on
            get /other
            """)
        #expect(results.allSatisfy { $0.outcome == .succeeded }, "\(Self.text(results, executor))")
        let accepts = transport.requests.map { $0.headers[.accept] }
        #expect(accepts[0] == "text/event-stream")
        #expect(accepts[1] == "text/plain", "the draft's own wins")
        #expect(accepts[2] == nil)
        #expect(accepts[3]?.hasPrefix("text/event-stream, application/x-ndjson") == true)
        #expect(transport.requests[0].headers[.userAgent] == "fathom/" + FathomVersion.current)
    }

    /// `--output json` keeps an event's data as sent: `data:"x"` and `data:x` read the same as
    /// JSON, and differ in `raw`.
    @Test func streamEventsKeepTheirRawData() throws {
        let renderer = JSONOutputRenderer(redactor: Redactor())
        let quoted = StreamEventOutput(
            index: 1, event: StreamEvent(data: "\"x\""), format: .serverSentEvents, elapsed: nil, violations: nil)
        let bare = StreamEventOutput(
            index: 2, event: StreamEvent(data: "x"), format: .serverSentEvents, elapsed: nil, violations: nil)
        let first = renderer.render(.streamEvent(quoted))
        let second = renderer.render(.streamEvent(bare))
        #expect(first.contains(#""raw":"\"x\"""#), "\(first)")
        #expect(second.contains(#""raw":"x""#), "\(second)")
    }

    /// `describe` at a terminal breaks its lines at blanks, schemas included: no word is split at
    /// the edge (the terminal would split it).
    @Test func describeBreaksLinesAtBlanks() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID()).json").path
        try Data(DemoOpenAPI.json.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let executor = Self.executor(MockTransport())
        let results = await Self.run(executor, "base http://api.test\nspec \(file)\ndescribe createUser")
        let renderer = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor, width: 60)
        let text = results[2].outputs.map { renderer.render($0).text }.joined()
        #expect(text.contains("NewUser { name: string,"), "\(text)")
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            #expect(line.count <= 60 || words.count == 1, "'\(line)' (\(line.count) columns)")
        }
    }
}
