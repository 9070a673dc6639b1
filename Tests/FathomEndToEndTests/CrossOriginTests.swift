import FathomTestSupport
import Foundation
import Testing

/// State belongs to the API it was set for. For every way a session can set state — one-liner
/// items, `header`, `default header`, each `auth` kind, `import curl|har|postman`, `env use`,
/// `spec` — a request to a second server on loopback carries none of it, unless shared on
/// purpose (`api share`). The second server records everything it receives.
@Suite struct CrossOriginTests {
    static let planted = "origin-Secret-5b7e21c9d4"

    /// What the other server received, whole.
    static func received(_ server: FaultServer) -> String {
        zip(server.requests, server.bodies).map { $0 + String(decoding: $1, as: UTF8.self) }.joined(separator: "\n")
    }

    /// Runs `lines` at the demo API (the base), then `get OTHER/elsewhere`; returns what the
    /// other server received and the run.
    func run(
        _ lines: [String], files: [String: String] = [:], environment: [String: String] = [:]
    ) throws -> (
        received: String, run: FathomBinary.Run
    ) {
        let demo = try DemoServerProcess()
        let other = try FaultServer { _, _ in .response(body: "{}") }
        defer { other.stop() }
        let directory = NSTemporaryDirectory() + "fathom-origin-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, text) in files {
            try text.replacingOccurrences(of: "DEMO", with: demo.baseURL)
                .write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8)
        }
        let script = (lines + ["get \(other.baseURL)/elsewhere", "expect status 200"]).joined(separator: "\n")
            .replacingOccurrences(of: "DEMO", with: demo.baseURL)
        let run = try FathomBinary.run(
            ["--color", "never", demo.baseURL], script: script, environment: environment, directory: directory)
        #expect(other.requests.count == 1, "\(run.stdout)\(run.stderr)")
        return (Self.received(other), run)
    }

    @Test(arguments: [
        // A one-liner's own items.
        ["get /users X-Api-Key:\(planted)", "get /users api_key==\(planted)"],
        // The draft's header, then a one-liner elsewhere.
        ["header X-Api-Key: \(planted)", "send"],
        // The API's defaults.
        ["default header X-Api-Key: \(planted)", "default query api_key=\(planted)", "get /users"],
        // Each kind of auth.
        ["auth bearer \(planted)", "get /users"],
        ["auth basic ada:\(planted)", "get /users"],
        ["auth apikey header X-Api-Key \(planted)", "get /users"],
        ["auth apikey query api_key \(planted)", "get /users"],
        [
            "secret client_secret = demo-client-secret",
            "auth oauth2 client-credentials /oauth/token fathom-demo {{client_secret}}", "get /me", "expect status 200",
        ],
        // A description, strict.
        ["spec DEMO/openapi.json", "validate strict", "get /users"],
    ])
    func stateSetAtTheBaseStaysThere(lines: [String]) throws {
        let (received, run) = try run(lines)
        #expect(!received.contains(Self.planted), "\(received)")
        #expect(!received.lowercased().contains("authorization"), "\(received)")
        #expect(!received.lowercased().contains("x-api-key") && !received.contains("api_key"), "\(received)")
        #expect(run.status == 0, "the request elsewhere goes, unrefused: \(run.stdout)\(run.stderr)")
        if lines.contains(where: { $0.hasPrefix("auth") || $0.hasPrefix("default") }) {
            #expect(run.stdout.contains("stayed behind"), "the first request there says what stayed behind")
        }
        #expect(!run.stdout.contains("schema ✗"), "the description does not check another origin")
    }

    /// Imports at the prompt carry their own credentials on their own requests, and leave none
    /// on the session for the next request elsewhere.
    @Test(arguments: ["curl", "har", "postman"])
    func importsLeaveNothingBehind(format: String) throws {
        let files = [
            "req.curl": "curl DEMO/echo -H 'Authorization: Bearer \(Self.planted)' -u ada:\(Self.planted)",
            "req.har":
                #"{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"DEMO/echo","headers":[{"name":"Authorization","value":"Bearer \#(Self.planted)"}]}}]}}"#,
            "req.postman":
                #"{"info":{"name":"c","schema":"https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},"auth":{"type":"bearer","bearer":[{"key":"token","value":"\#(Self.planted)"}]},"item":[{"name":"echo","request":{"method":"GET","url":"DEMO/echo"}}]}"#,
        ]
        let lines = ["import \(format) req.\(format)"] + (format == "curl" ? ["send"] : [])
        let (received, run) = try run(lines, files: files)
        #expect(run.stdout.contains("Bearer ••••") || run.stdout.contains("••••"), "the import's own request had it")
        #expect(!received.contains(Self.planted) && !received.lowercased().contains("authorization"), "\(received)")
    }

    /// An environment's secrets and base belong to the API it moves; another origin gets neither.
    @Test func anEnvironmentsCredentialsStayWithItsAPI() throws {
        let files = [
            "fathom.env.json": #"{"local": {"base": "DEMO", "secrets": ["token"]}}"#
        ]
        let (received, _) = try run(
            ["env use local", "auth bearer {{token}}", "get /users"], files: files,
            environment: ["FATHOM_SECRET_TOKEN": Self.planted])
        #expect(!received.contains(Self.planted) && !received.lowercased().contains("authorization"), "\(received)")
    }

    /// Shared on purpose, the other origin gets the API's credentials and defaults too.
    @Test func sharingOnPurposeSends() throws {
        let demo = try DemoServerProcess()
        let other = try FaultServer { _, _ in .response(body: "{}") }
        defer { other.stop() }
        let run = try FathomBinary.run(
            ["--color", "never", demo.baseURL],
            script: """
                auth bearer \(Self.planted)
                default header X-Client: fathom
                api share \(other.baseURL)
                get \(other.baseURL)/shared
                show session
                """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let received = Self.received(other)
        #expect(received.contains("Authorization: Bearer \(Self.planted)") && received.contains("X-Client: fathom"))
        #expect(run.stdout.contains("shared  \(other.baseURL)"))
    }

    /// Switching environments replaces the environment's variables: env a's secret `token` is not
    /// sent to env b's server (b has none), and `vars` no longer lists what only a set.
    @Test func anEnvironmentSwitchLeavesNothingOfTheLastOne() throws {
        let first = try FaultServer { _, _ in .response(body: "{}") }
        let second = try FaultServer { _, _ in .response(body: "{}") }
        defer {
            first.stop()
            second.stop()
        }
        let directory = NSTemporaryDirectory() + "fathom-env-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try """
        {"a": {"base": "\(first.baseURL)", "variables": {"onlya": "1"}, "secrets": ["token"]},
         "b": {"base": "\(second.baseURL)", "variables": {"onlyb": "2"}}}
        """.write(toFile: directory + "/fathom.env.json", atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(
            ["--color", "never"],
            script: """
                env use a
                auth bearer {{token}}
                get /one
                env use b
                vars
                get /two
                auth none
                get /three
                """, environment: ["FATHOM_SECRET_TOKEN": Self.planted], directory: directory)
        #expect(first.requests.count == 1 && Self.received(first).contains("Bearer \(Self.planted)"))
        let received = Self.received(second)
        #expect(second.requests.count == 1, "the request needing {{token}} fails: \(run.stdout)\(run.stderr)")
        #expect(!received.contains(Self.planted) && !received.lowercased().contains("authorization"), "\(received)")
        #expect(run.stderr.contains("unknown variable 'token'"), "\(run.stderr)")
        #expect(run.stdout.contains("environment b (was a)") && run.stdout.contains("no longer set: onlya, token"))
        #expect(!run.stdout.contains("onlya = 1"), "vars lists only b's: \(run.stdout)")
    }

    /// An API is an origin resolved when its base is set: a variable in the base that later names
    /// another server takes requests there, but not the API's credentials or defaults — and says so.
    @Test func aVariableInTheBaseCarriesNoStateElsewhere() throws {
        let first = try FaultServer { _, _ in .response(body: "{}") }
        let second = try FaultServer { _, _ in .response(body: "{}") }
        defer {
            first.stop()
            second.stop()
        }
        let run = try FathomBinary.run(
            ["--color", "never"],
            script: """
                set h = \(first.baseURL.dropFirst("http://".count))
                base http://{{h}}
                auth bearer \(Self.planted)
                default header X-TB: 1
                get /x
                set h = \(second.baseURL.dropFirst("http://".count))
                get /x
                """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(Self.received(first).contains("Bearer \(Self.planted)") && Self.received(first).contains("X-TB: 1"))
        let received = Self.received(second)
        #expect(second.requests.count == 1)
        #expect(!received.contains(Self.planted) && !received.contains("X-TB"), "\(received)")
        #expect(run.stdout.contains("stayed behind"), "\(run.stdout)")
    }

    /// A mock belongs to the API it was set for: a request to another origin goes to the network
    /// (the second server answers it), and a mocked response says `mock`.
    @Test func mocksAnswerOnlyTheirAPI() throws {
        let first = try FaultServer { _, _ in .response(body: "{}") }
        let second = try FaultServer { _, _ in .response(body: #"{"real": true}"#) }
        defer {
            first.stop()
            second.stop()
        }
        let run = try FathomBinary.run(
            ["--color", "never", first.baseURL],
            script: """
                mock /users status 503
                get /users
                get \(second.baseURL)/users
                """)
        #expect(first.requests.isEmpty, "the mock answered its API's request")
        #expect(second.requests.count == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("mock 503"), "\(run.stdout)")
        #expect(run.stdout.contains("\"real\": true"))
        let json = try FathomBinary.run(
            ["--output", "json", first.baseURL], script: "mock /users status 503\nget /users")
        #expect(json.stdout.contains(#""protocol":"mock""#), "\(json.stdout)")
    }

    /// `api unshare` ran under exclusivity checking aborted the process (a closure reading the
    /// session while it was written); `api` lists the shares.
    @Test func apiShareAndUnshare() throws {
        let other = try FaultServer { _, _ in .response(body: "{}") }
        defer { other.stop() }
        let run = try FathomBinary.run(
            [
                "--color", "never", "-c", "base http://127.0.0.1:18001", "-c", "api share \(other.baseURL)", "-c",
                "api",
                "-c", "api unshare \(other.baseURL)", "-c", "api",
            ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("shared with \(other.baseURL)"), "\(run.stdout)")
    }
}
