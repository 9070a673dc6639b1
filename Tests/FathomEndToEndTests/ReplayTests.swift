import FathomTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `save`, `record` and `fathom replay` through the binary, against the demo API in its own process.
@Suite(.serialized) struct ReplayTests {
    static let planted = "planted-Secret-value-7f3a9c"
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "fathom-replay-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    // MARK: - Round trip

    @Test func savedSessionReplaysTheSameRequestsAndResults() throws {
        let server = try DemoServerProcess(accessLog: true)
        let environment = ["FATHOM_SECRET_APIKEY": Self.planted]
        let session = try FathomBinary.run(
            [],
            script: """
                base \(server.baseURL)
                secret apikey
                default header X-Api-Key: {{apikey}}
                post /login username=ada password=difference-engine
                let token = $.token
                auth bearer {{token}}
                get /users per_page==2
                expect status 200
                expect $.data[0].name == "Ada Lovelace"
                expect $.total == 99
                path /users/1/todos
                method POST
                body json title=Replay
                send
                expect status 201
                let todo = $.id
                get /users/1/todos
                expect $[-1].id == {{todo}}
                record on
                header X-Note: with {{apikey}}
                post /echo note={{apikey}} literal=\(Self.planted)
                expect $.body ~ "planted"
                show request
                diff
                save \(directory)/round.fathom
                """, environment: environment, directory: directory)
        #expect(session.status == 1, "one expectation fails on purpose")
        #expect(session.stderr.contains("✗ expect $.total == 99 — expected 99, got 25"))
        let original = server.takeRequests()
        #expect(original.count == 5)
        #expect(original.first == #"POST /login {"username":"ada","password":"difference-engine"}"#)

        let saved = try read("round.fathom")
        #expect(!saved.contains(Self.planted))
        #expect(saved.contains("post /echo note={{apikey}} literal={{apikey}}"))
        #expect(saved.contains("secret apikey"))
        #expect(saved.contains("post /login username=ada password={{password}}"), "a typed password is a secret")
        #expect(!saved.contains("difference-engine"))
        #expect(!saved.contains("show request") && !saved.contains("diff"))

        let junit = directory + "/round.xml"
        let replayEnvironment = environment.merging(["FATHOM_SECRET_PASSWORD": "difference-engine"]) { $1 }
        // By default a file stops at its first failed request, the rest reported as skipped.
        let stopped = try FathomBinary.run(
            ["replay", directory + "/round.fathom"], environment: replayEnvironment, directory: directory)
        #expect(stopped.status == 1)
        #expect(server.takeRequests() == Array(original.prefix(2)))
        #expect(stopped.stdout.contains("5 requests: 1 passed, 1 failed, 3 skipped"), "\(stopped.stdout)")
        #expect(stopped.stdout.contains("--continue-on-error runs the rest"))

        let replay = try FathomBinary.run(
            ["replay", directory + "/round.fathom", "--junit", junit, "--continue-on-error"],
            environment: replayEnvironment, directory: directory)
        #expect(replay.status == 1)
        #expect(server.takeRequests() == original, "the server sees the same requests")
        // The same expectations give the same results: 5 passed, 1 failed, in the same place.
        let passed = session.stdout.components(separatedBy: "✓ expect").count - 1
        let failed = session.stderr.components(separatedBy: "✗ expect").count - 1
        #expect(passed == 5 && failed == 1)
        #expect(replay.stdout.contains("\(passed + failed) expectations (\(failed) failed)"))
        #expect(replay.stdout.contains("expect $.total == 99 — expected 99, got 25"))
        #expect(replay.stdout.contains("round.fathom:"))
        let recording = try read("round.recording.json")
        #expect(recording.contains("\"path\": \"/echo\""))
        for text in [replay.stdout, replay.stderr, try read("round.xml"), recording] {
            #expect(!text.contains(Self.planted))
        }
    }

    // MARK: - Compare

    @Test func compareCatchesAChangedFieldAndIgnoresVolatileOnes() throws {
        let server = try DemoServerProcess()
        let session = try FathomBinary.run(
            [],
            script: """
                base {{$env.DEMO}}
                post /login username=ada password=difference-engine
                let token = $.token
                auth bearer {{token}}
                volatile $.createdAt
                record on
                post /users/2/todos title=Compare
                expect status 201
                get /users/2
                get /users/9999
                save \(directory)/cmp.fathom
                """, environment: ["DEMO": server.baseURL], directory: directory)
        #expect(session.status == 0, "\(session.stderr)")
        let recordingPath = directory + "/cmp.recording.json"
        let recording = try String(contentsOfFile: recordingPath, encoding: .utf8)
        #expect(recording.contains("\"createdAt\""))
        #expect(recording.contains("\"token\"") == false, "the login was not recorded")
        let line =
            try #require(
                try read("cmp.fathom").split(separator: "\n", omittingEmptySubsequences: false).firstIndex(
                    of: "get /users/2")
            ) + 1
        let fresh = try DemoServerProcess()
        // The password typed into the login line was saved as a reference: the replay reads it.
        #expect(try read("cmp.fathom").contains("password={{password}}"))
        let environment = ["DEMO": fresh.baseURL, "FATHOM_SECRET_PASSWORD": "difference-engine"]
        let clean = try FathomBinary.run(["replay", "--compare", directory + "/cmp.fathom"], environment: environment)
        #expect(clean.status == 0, "createdAt differs but is volatile: \(clean.stdout)")
        #expect(clean.stdout.contains("3 compared with recordings"))

        // A changed field is a failure shown as a diff.
        try recording.replacingOccurrences(of: "Grace Hopper", with: "Grace H.").write(
            toFile: recordingPath, atomically: true, encoding: .utf8)
        let third = try DemoServerProcess()
        let changed = try FathomBinary.run(
            ["replay", "--compare", directory + "/cmp.fathom", "--junit", directory + "/cmp.xml"],
            environment: ["DEMO": third.baseURL, "FATHOM_SECRET_PASSWORD": "difference-engine"])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("✗ GET /users/2"))
        #expect(changed.stdout.contains(#"~ $['name']  "Grace H." → "Grace Hopper""#))
        #expect(!changed.stdout.contains("createdAt"))

        // Without the volatile mark the timestamp is a difference too.
        let file = try read("cmp.fathom").replacingOccurrences(of: "volatile $.createdAt\n", with: "")
        try write("cmp.fathom", file)
        let fourth = try DemoServerProcess()
        let strict = try FathomBinary.run(
            ["replay", "--compare", directory + "/cmp.fathom"],
            environment: ["DEMO": fourth.baseURL, "FATHOM_SECRET_PASSWORD": "difference-engine"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("$['createdAt']"))
        // A value that changes on every run: the failure says how to leave it out.
        #expect(strict.stdout.contains("`volatile $['createdAt']` in the file leaves it out"), "\(strict.stdout)")

        // JUnit: a test case per request, the failure counted and explained.
        let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: directory + "/cmp.xml"))
        let root = try #require(xml.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "0")
        // The file stops at the failed request: the one after it is skipped, not missing. The
        // count is on the file's <testsuite>; junit-10.xsd allows none on <testsuites>.
        #expect(root.attribute(forName: "skipped") == nil)
        let suite = try #require(try xml.nodes(forXPath: "//testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "skipped")?.stringValue == "1")
        let cases = try xml.nodes(forXPath: "//testcase")
        #expect(cases.count == 4)
        #expect(try xml.nodes(forXPath: "//testcase/skipped").count == 1)
        let failures = try xml.nodes(forXPath: "//testcase/failure")
        #expect(failures.count == 1)
        let failure = try #require(failures.first as? XMLElement)
        // FILE:LINE first, as an expectation's failure has it: a reporter annotates the line.
        #expect(
            failure.attribute(forName: "message")?.stringValue?.hasSuffix("cmp.fathom:17: differs from its recording:")
                == true)
        #expect(failure.stringValue?.contains("Grace Hopper") == true)
        // Named from the file as written, with its line: the same name on a green run.
        #expect(
            (failure.parent as? XMLElement)?.attribute(forName: "name")?.stringValue == "get /users/2 (line \(line))")
    }

    // MARK: - Exit codes and problems found before sending

    @Test func exitCodesAndProblemsBeforeAnyRequest() throws {
        let server = try DemoServerProcess(accessLog: true)
        try write("good.fathom", "base \(server.baseURL)\nget /users/1\nexpect $.id == 1\n")
        try write("bad-expect.fathom", "base \(server.baseURL)\nget /users/1\nexpect $.id == 2\n")
        try write("syntax.fathom", "base \(server.baseURL)\nget /users/1\nexpect $.id =! 2\nget /users/2\n")
        try write("secret.fathom", "base \(server.baseURL)\nsecret api_token\nget /users/1\n")
        _ = FileManager.default.createFile(atPath: directory + "/empty.fathom", contents: Data())
        _ = FileManager.default.createFile(atPath: directory + "/binary.fathom", contents: Data([0x1F, 0x8B, 0, 0]))

        func replay(_ arguments: [String], environment: [String: String] = [:]) throws -> FathomBinary.Run {
            try FathomBinary.run(["replay"] + arguments, environment: environment, directory: directory)
        }
        #expect(try replay(["good.fathom"]).status == 0)
        // A request with no response fails, and its checks do not read the older response.
        try write(
            "refused.fathom", "base \(server.baseURL)\nget /users/1\nget http://127.0.0.1:9/\nexpect status 200\n")
        let refused = try replay(["refused.fathom"])
        #expect(refused.status == 3, "a runtime error, not a failed check")
        #expect(refused.stdout.contains("connection refused to 127.0.0.1:9"))
        #expect(!refused.stdout.contains("the last request got no response"), "its checks are not run")
        // A request that failed is named by its line: masked like everything else.
        try write(
            "literal.fathom",
            "base http://127.0.0.1:9\nauth bearer \(Self.planted)\nget http://127.0.0.1:9/?t=\(Self.planted)\n")
        let literal = try replay(["literal.fathom", "--junit", "literal.xml"])
        #expect(literal.status == 3)
        #expect(literal.stdout.contains("✗ get http://127.0.0.1:9/?t=••••"))
        for text in [literal.stdout, literal.stderr, try read("literal.xml")] { #expect(!text.contains(Self.planted)) }
        #expect(try replay(["good.fathom", "bad-expect.fathom"]).status == 1)
        _ = server.takeRequests()

        // Exit 2, FILE:LINE:COLUMN, and nothing sent — not even from the good file named first.
        let syntax = try replay(["good.fathom", "syntax.fathom"])
        #expect(syntax.status == 2)
        #expect(syntax.stderr.contains("syntax.fathom:3:13: unknown comparison '=!'"))
        for (arguments, message) in [
            (["missing.fathom"], "missing.fathom: no such file"),
            (["empty.fathom"], "empty.fathom: the file is empty"),
            (["binary.fathom"], "binary.fathom: not a text file"),
            (["secret.fathom"], "secret.fathom:2: secret 'api_token' has no value — set FATHOM_SECRET_API_TOKEN"),
        ] {
            let run = try replay(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
        #expect(server.takeRequests().isEmpty)
        // A file without a recording is compared with nothing and says so; the run goes on.
        let unrecorded = try replay(["good.fathom", "--compare"])
        #expect(unrecorded.status == 0)
        #expect(unrecorded.stdout.contains("no recording (good.recording.json): compared with nothing"))
        _ = server.takeRequests()
        let withSecret = try replay(["secret.fathom"], environment: ["FATHOM_SECRET_API_TOKEN": "t0ken-value"])
        #expect(withSecret.status == 0)
        #expect(try replay(["secret.fathom", "--var", "api_token=x"]).status == 0)
    }

    @Test func failFastAndQuiet() throws {
        let server = try DemoServerProcess()
        try write("one.fathom", "base \(server.baseURL)\nget /users/1\nexpect status 500\nget /users/2\n")
        try write("two.fathom", "base \(server.baseURL)\nget /users/3\n")
        let all = try FathomBinary.run(["replay", "one.fathom", "two.fathom"], directory: directory)
        #expect(all.status == 1)
        // The file stops at its failed request; the other file runs.
        #expect(all.stdout.contains("- get /users/2 (line 4)  not run: line 2 failed"))
        #expect(all.stdout.contains("✓ GET /users/3"))
        #expect(all.stdout.contains("2 files · 3 requests: 1 passed, 1 failed, 1 skipped"))
        #expect(all.stdout.contains("failing:\n  one.fathom:2\n"))
        let going = try FathomBinary.run(
            ["replay", "--continue-on-error", "one.fathom", "two.fathom"], directory: directory)
        #expect(going.stdout.contains("✓ GET /users/2") && going.stdout.contains("2 passed, 1 failed"))

        let fast = try FathomBinary.run(["replay", "--fail-fast", "one.fathom", "two.fathom"], directory: directory)
        #expect(fast.status == 1)
        #expect(!fast.stdout.contains("GET /users/2") && !fast.stdout.contains("GET /users/3"))
        #expect(
            fast.stdout.contains(
                "- get /users/3 (line 2)  not run: --fail-fast stopped the run after one.fathom failed"))

        let quiet = try FathomBinary.run(["replay", "--quiet", "one.fathom", "two.fathom"], directory: directory)
        #expect(
            quiet.stdout.split(separator: "\n").count == 5,
            "the failed request, its failure, the summary, the failing file and line")
        #expect(quiet.stdout.contains("✗ GET /users/1"))

        // --env: an environment's base URL and variables before the file's first line.
        try write("fathom.env.json", #"{"local": {"base": "\#(server.baseURL)", "variables": {"id": "4"}}}"#)
        try write("env.fathom", "get /users/{{id}}\nexpect $.name == \"Katherine Johnson\"\n")
        let environment = try FathomBinary.run(["replay", "--env", "local", "env.fathom"], directory: directory)
        #expect(environment.status == 0, "\(environment.stdout)")
        let unknown = try FathomBinary.run(["replay", "--env", "nowhere", "env.fathom"], directory: directory)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--env nowhere: no environment 'nowhere' — known: local"))
    }

    // MARK: - Interrupted save

    @Test func anInterruptedSaveLeavesThePreviousFileIntact() throws {
        let path = directory + "/kept.fathom"
        try write("kept.fathom", "# the previous session\nbase http://127.0.0.1:9\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FathomBinary.binary)
        process.environment = ProcessInfo.processInfo.environment.merging(["FATHOM_TEST_STOP_BEFORE_RENAME": "1"]) {
            $1
        }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("base http://127.0.0.1:8\nset a = b\nsave \(path)\n".utf8))
        try input.fileHandleForWriting.close()
        // Wait until the process has stopped itself between writing and renaming.
        var state = ""
        for _ in 0..<500 where state != "T" {
            Thread.sleep(forTimeInterval: 0.02)
            let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
            state = stat.split(separator: ")").last.map { String($0.dropFirst().prefix(1)) } ?? ""
        }
        #expect(state == "T")
        let temporary = "\(path).tmp-\(process.processIdentifier)"
        #expect(try String(contentsOfFile: temporary, encoding: .utf8).contains("base http://127.0.0.1:8"))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(try read("kept.fathom") == "# the previous session\nbase http://127.0.0.1:9\n")

        let again = try FathomBinary.run([], script: "base http://127.0.0.1:8\nset a = b\nsave \(path)\n")
        #expect(again.status == 0)
        #expect(try read("kept.fathom").contains("base http://127.0.0.1:8"))
    }

    // MARK: - Sessions/

    static var sessionFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: repository + "/Sessions")) ?? [])
            .filter { $0.hasSuffix(".fathom") }.sorted()
    }

    /// Every file in Sessions/ replays green with the very command its header gives (its
    /// environment variables included; httpbin's address where it says PORT).
    @Test(arguments: sessionFiles)
    func sessionsReplayGreenWithTheirOwnCommand(name: String) throws {
        let text = try String(contentsOfFile: Self.repository + "/Sessions/" + name, encoding: .utf8)
        let header = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("#") && $0.contains("fathom replay") },
            "\(name) has no replay command in its header")
        var words = header.dropFirst().split(separator: " ").map(String.init)
        var environment: [String: String] = [:]
        while let first = words.first, first.contains("="), first != "fathom" {
            let parts = first.split(separator: "=", maxSplits: 1)
            environment[String(parts[0])] = String(parts[1])
            words.removeFirst()
        }
        #expect(words.first == "fathom" && words.dropFirst().first == "replay", "\(header)")
        var arguments = Array(words.dropFirst().prefix { $0 != "runs" })
        if arguments.contains(where: { $0.contains("PORT") }) {
            guard let httpbin = HTTPBin.baseURL else { return }  // run through `make test`
            arguments = arguments.map { $0.replacingOccurrences(of: "http://127.0.0.1:PORT", with: httpbin) }
        }
        let run = try FathomBinary.run(arguments, environment: environment, directory: Self.repository)
        #expect(run.status == 0, "\(header)\n\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ passed"))
    }

    @Test func tourRunsAsAScriptToo() throws {
        let run = try FathomBinary.run(
            ["--demo"],
            input: Array(try Data(contentsOf: URL(fileURLWithPath: Self.repository + "/Sessions/tour.fathom"))))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("✓ expect $.name == \"Grace Hopper\""))
    }

}
