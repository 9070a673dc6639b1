import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

/// A failed line changes nothing: for every registered command, a line that fails when it runs
/// leaves the session equal to what it was (the executor puts back its copy).
@Suite struct FailedLineTests {
    /// The state every case starts from: an API with auth and a default, variables, a draft with
    /// headers, a response, a setting changed.
    static let setup = [
        "base http://api.test", "auth bearer tok-0123456789", "default header X-Client: fathom", "set a = 1",
        "get /users", "header X-Trace: t", "query page=2", "timeout 5s", "path /nothing",
    ]

    /// Lines that fail when they run, by command. A command whose run cannot fail is `[]` with
    /// the reason in a comment; a command missing here fails ``everyCommandIsCovered()``.
    static let failing: [String: [String]] = [
        "base": ["base {{missing}}", "base ftp://x", "base --move {{missing}}"],
        "path": [],  // sets the draft's target, whatever it is
        "cd": [],  // moves the draft's path, whatever it is
        "method": [],  // sets the draft's method
        "query": ["query a=1 -nothere"],
        "header": [],  // sets or removes a draft header
        "body": ["body {\"a\": }", "body json a:={bad", "body example"],
        "send": ["send", "send --repeat 3 --data /nonexistent.csv", "send hello", "send @/nonexistent.txt"],
        "ws": ["ws ws://127.0.0.1:9/ws", "ws {{missing}}", "ws ftp://x/ws"],
        "ping": ["ping"],  // no WebSocket is open
        "close": ["close", "close 4000 bye"],  // no WebSocket is open
        "show": ["show #99", "show #1 > /nonexistent-dir/out.json"],
        "reset": [],  // a fresh draft
        "get": ["get /fail X-Other:1", "get {{missing}}", "get /x/{{missing}} --repeat 2 X-Other:1"],
        "post": ["post /fail name=Ada"],
        "put": ["put /fail a=1"],
        "patch": ["patch /fail a=1"],
        "delete": ["delete /fail"],
        "head": ["head /fail"],
        "options": ["options /fail"],
        "curl": ["curl -k -L --max-time 3 -x socks4://p http://x.test/", "curl -u ada:pw -k http://x.test/fail"],
        "import": ["import curl /nonexistent.curl", "import har /nonexistent.har"],
        "export": ["export curl #99"],
        "api": ["api share notaurl", "api unshare http://other.test"],
        "default": ["default header X: 1"],  // in a session with no base (below)
        "auth": [
            "auth bearer {{missing}}", "auth basic ada", "auth aws-sigv4 --service s3",
            "auth aws-sigv4 --region r --service s --profile nobody-has-this-profile",
            // No terminal to authorize at, and no token in the environment.
            "auth oauth2 device /device /token cli", "auth oauth2 authorization-code /authorize /token cli",
        ],
        "graphql": [
            "graphql /graphql", "graphql --schema /nonexistent/schema.graphql", "graphql --schema /etc/hostname",
        ],
        "grpc": [
            "grpc 127.0.0.1:9 --plaintext", "grpc {{missing}}", "grpc 127.0.0.1:9 --protoset /nonexistent.protoset",
            "grpc 127.0.0.1:9 --protoset /etc/hostname",
        ],
        "grpcurl": [
            "grpcurl -plaintext 127.0.0.1:9 list", "grpcurl -plaintext {{missing}} pkg.S/M",
            "grpcurl -protoset /nonexistent.protoset 127.0.0.1:9 pkg.S/M",
        ],
        "call": ["call GetUser", "call pkg.Users/GetUser {\"id\": {{missing}}}"],  // no gRPC services loaded
        "mutation": ["{ users { id } }", "query @/nonexistent/ops.graphql", "{ users { id } } filter:=nojson"],
        "cert": ["cert /nonexistent/client.pem", "cert --ca /nonexistent/ca.pem", "cert /etc/hostname"],
        "set": ["set b = {{missing}}"],
        "unset": ["unset nothere"],
        "vars": [],  // lists
        "secret": ["secret nothere", "secret s = {{missing}}"],
        "reveal": ["reveal nothere"],
        "env": ["env use nothere"],
        "decoder": [],  // sets a mode
        "log": ["log body /nonexistent-dir/wire.log"],
        "timeout": [],  // sets a duration
        "redirects": [],  // sets a count
        "insecure": [],  // sets a switch
        "proxy": ["proxy socks4://p:1080"],
        "cookies": [],  // sets a switch or clears the jar
        "mock": ["mock /x @/nonexistent.json"],
        "pager": [],  // sets a mode
        "responses": [],  // lists
        "inspect": ["inspect #99 $.a"],
        "let": ["let x = $.nothing", "let x = header X-None"],
        "diff": ["diff #1 #1"],
        "expect": ["expect $.a == {{missing}}", "expect batch p99 < 200ms", "expect events > 1", "expect message"],
        "volatile": [],  // adds a path
        "stream": [],  // sets a setting; a bad one does not parse
        "spec": ["spec /nonexistent.yaml"],
        "ls": ["ls"],
        "describe": ["describe getUser"],
        "op": ["op getUser id=1"],
        "validate": ["validate strict"],  // in a session with no base (below)
        "save": ["save /nonexistent-dir/s.fathom"],
        "load": ["load /nonexistent.fathom"],
        "replay": [],  // hands the files to the loop
        "record": [],  // sets a switch
        "help": [],  // shows
        "history": [],  // lists
        "exit": [],  // ends the loop
    ]

    /// Commands whose failing lines need a session without a base URL (so without an API).
    static let withoutBase: Set<String> = ["default", "validate"]

    @Test func everyCommandIsCovered() {
        let names = Set(CommandRegistry.all.map(\.name))
        #expect(names.subtracting(Self.failing.keys).isEmpty, "commands with no failing lines")
    }

    static func executor() -> Executor {
        let transport = MockTransport()
        transport.register("/users", .json(#"{"data": [{"id": 1}]}"#))
        return Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
    }

    @Test(arguments: failing.sorted { $0.key < $1.key }.flatMap { name, lines in lines.map { (name, $0) } })
    func aFailedLineChangesNothing(name: String, line: String) async throws {
        let executor = Self.executor()
        for setup in Self.withoutBase.contains(name) ? ["set a = 1"] : Self.setup {
            #expect(await executor.run(setup).outcome == .succeeded, "\(setup)")
        }
        let before = await executor.session
        let logged = await executor.record.log
        let result = await executor.run(line)
        #expect(result.outcome == .failed, "\(line) should fail: \(result.outputs)")
        // Put back whole: no field of the session is an exception.
        #expect(await executor.session == before, "\(line) changed the session")
        #expect(await executor.record.log == logged, "\(line) was logged")
        // What truly happened is kept, in the record: a line that meant to send a request and got
        // no response says so, so that `expect` after it does not read an older response.
        if try #require(try CommandParser.parse(line)).sendsRequest {
            #expect(await !executor.record.lastRequestAnswered)
        }
    }

    /// A description with `GET /users` and `GET /users/{id}`, in a file of its own.
    static func descriptionFile() throws -> String {
        let path = NSTemporaryDirectory() + "fathom-failed-\(UUID().uuidString).json"
        let document = """
            {"openapi": "3.1.0", "info": {"title": "Users", "version": "1"},
             "paths": {"/users": {"get": {"operationId": "listUsers", "responses": {"200": {"description": "ok"}}}},
                       "/users/{id}": {"get": {"operationId": "getUser",
                         "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
                         "responses": {"200": {"description": "ok"}}}}}}
            """
        try Data(document.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The same with a description loaded, checked strictly: what a description holds (its
    /// coverage, its structure check's findings, arriving while the line runs) is put back or
    /// kept as every other part is.
    @Test(arguments: failing.sorted { $0.key < $1.key }.flatMap { name, lines in lines.map { (name, $0) } })
    func aFailedLineChangesNothingWithADescriptionLoaded(name: String, line: String) async throws {
        let executor = Self.executor()
        let spec = try Self.descriptionFile()
        defer { try? FileManager.default.removeItem(atPath: spec) }
        for setup in Self.setup.filter({ !$0.hasPrefix("path") }) + ["spec \(spec)", "validate warn", "get /users"] {
            #expect(await executor.run(setup).outcome == .succeeded, "\(setup)")
        }
        _ = await executor.run("path /nothing")
        let before = await executor.session
        let coverage = await executor.record.coverage
        let result = await executor.run(line)
        guard result.outcome == .failed else { return }
        #expect(await executor.session == before, "\(line) changed the session")
        // Coverage only grows: a response that arrived during the failed line counts.
        for (id, calls) in coverage {
            for (operation, statuses) in calls {
                #expect(await executor.record.coverage[id]?[operation]?.isSuperset(of: statuses) == true)
            }
        }
    }

    /// The curl line of the issue: its settings came before the proxy it could not take.
    @Test func aCurlLineThatFailsLeavesNoSettingBehind() async throws {
        let executor = Self.executor()
        _ = await executor.run("base http://api.test")
        let result = await executor.run("curl -k -L -u ada:pw-0123 -x socks4://p http://x.test/")
        #expect(result.outcome == .failed)
        let session = await executor.session
        #expect(!session.settings.insecure)
        #expect(session.settings.redirectLimit == 5)
        #expect(session.draft == Draft())
        #expect(await executor.record.log.lines.map(\.text) == ["base http://api.test"])
        #expect(session.currentAPI?.auth == AuthSpec.none)
    }

    /// What truly happened stays: a response that arrived before the line failed.
    @Test func aResponseThatArrivedIsKept() async throws {
        let executor = Self.executor()
        _ = await executor.run("base http://api.test")
        let result = await executor.run("curl -k http://api.test/users http://api.test/fail")
        #expect(result.outcome == .failed)
        let session = await executor.session
        #expect(await executor.record.responses.lastNumber == 1, "the first URL's response is kept")
        #expect(!session.settings.insecure, "the line's setting is not")
    }
}
