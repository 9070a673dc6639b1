import FathomTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `fathom replay` as a CI job runs it: from a repository's root, with JUnit reports, exit codes
/// that tell a regression from an outage, paths and environments from the files' folders.
@Suite(.serialized) struct CIRunnerTests {
    static let password = "difference-engine"

    /// A repository: `.git`, and whatever each test writes.
    let root: String

    init() throws {
        root = NSTemporaryDirectory() + "fathom-ci-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
    }

    func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    func replay(
        _ arguments: [String], environment: [String: String] = [:], directory: String? = nil
    ) throws -> FathomBinary.Run {
        try FathomBinary.run(["replay"] + arguments, environment: environment, directory: directory ?? root)
    }

    /// The test cases of a JUnit file, as `classname/name` → what happened (`passed`,
    /// `failure`, `error`, `skipped`).
    func cases(_ relative: String) throws -> [String: String] {
        let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: root + "/" + relative))
        var cases: [String: String] = [:]
        for case let element as XMLElement in try xml.nodes(forXPath: "//testcase") {
            let key =
                (element.attribute(forName: "classname")?.stringValue ?? "") + "/"
                + (element.attribute(forName: "name")?.stringValue ?? "")
            cases[key] =
                element.children?.compactMap { ($0 as? XMLElement)?.name }.first { $0 != "system-out" } ?? "passed"
        }
        return cases
    }

    // MARK: - 1. Nothing passes silently

    /// Fields named like secrets are compared as they are; a secret of the session is kept as a
    /// keyed digest, so a change is caught and the value is never written.
    @Test func aComparisonSeesTrueValuesAndSecretsByDigest() throws {
        let server = try DemoServerProcess()
        try write(
            "auth.fathom",
            """
            base {{demo}}
            secret password
            secret apikey
            # name: log in
            post /login username=ada password={{password}}
            volatile $.token
            post /echo key={{apikey}}
            volatile $.headers

            """)
        let before = try read("auth.fathom")
        let environment = ["FATHOM_SECRET_PASSWORD": Self.password, "FATHOM_SECRET_APIKEY": "key-one-0123456789"]
        let recorded = try replay(
            ["--record", "--var", "demo=\(server.baseURL)", "auth.fathom"], environment: environment)
        #expect(recorded.status == 0, "\(recorded.stdout)")
        #expect(recorded.stdout.contains("recorded 2 responses to auth.recording.json"))
        #expect(try read("auth.fathom") == before, "--record never touches the session file")
        let recording = try read("auth.recording.json")
        #expect(recording.contains(#""token_type": "Bearer""#), "a field is not hidden for its name")
        #expect(recording.contains("••••#"), "the echoed key is a digest")
        #expect(!recording.contains("key-one-0123456789") && !recording.contains(Self.password))

        #expect(
            try replay(["--compare", "--var", "demo=\(server.baseURL)", "auth.fathom"], environment: environment).status
                == 0)

        // `token_type` going from Bearer to Digest is a difference.
        try write("auth.recording.json", recording.replacingOccurrences(of: "\"Bearer\"", with: "\"Digest\""))
        let changed = try replay(
            ["--compare", "--var", "demo=\(server.baseURL)", "auth.fathom"], environment: environment)
        #expect(changed.status == 1)
        #expect(changed.stdout.contains(#"~ $['token_type']  "Digest" → "Bearer""#), "\(changed.stdout)")

        // A secret whose value changed differs by its digest; neither value is shown.
        try write("auth.recording.json", recording)
        let rotated = try replay(
            ["--compare", "--var", "demo=\(server.baseURL)", "auth.fathom"],
            environment: environment.merging(["FATHOM_SECRET_APIKEY": "key-two-0123456789"]) { $1 })
        #expect(rotated.status == 1)
        #expect(rotated.stdout.contains("$['body']") && rotated.stdout.contains("••••#"), "\(rotated.stdout)")
        for text in [rotated.stdout, rotated.stderr] {
            #expect(!text.contains("key-one-0123456789") && !text.contains("key-two-0123456789"))
        }
    }

    // MARK: - 2. Stable, complete reports

    /// A wrong password fails the first request: the report lists the same tests as a green
    /// run, the rest skipped, and CI history sees one failure, not N renamed tests.
    @Test func testNamesAreTheSameOnAGreenRunAndARedOne() throws {
        let server = try DemoServerProcess()
        try write(
            "tests/api/01-auth.fathom",
            """
            base {{demo}}
            secret password
            # name: log in as Ada
            post /login username=ada password={{password}}
            expect status 200
            let token = $.token
            auth bearer {{token}}
            get /me
            expect $.id == 1
            path /users/{{me}}
            set me = 2
            send

            """)
        try write("tests/api/02-users.fathom", "base {{demo}}\nget /users/1\nexpect status 200\n")
        let arguments = ["--var", "demo=\(server.baseURL)", "tests/api", "--junit", "reports/junit.xml"]
        let green = try replay(arguments, environment: ["FATHOM_SECRET_PASSWORD": Self.password])
        #expect(green.status == 0, "\(green.stdout)")
        let greenCases = try cases("reports/junit.xml")
        #expect(
            greenCases == [
                "tests.api.01-auth/log in as Ada (line 4)": "passed", "tests.api.01-auth/get /me (line 8)": "passed",
                "tests.api.01-auth/send (line 12)": "passed", "tests.api.02-users/get /users/1 (line 2)": "passed",
            ])

        let red = try replay(arguments, environment: ["FATHOM_SECRET_PASSWORD": "wrong"])
        #expect(red.status == 1)
        let redCases = try cases("reports/junit.xml")
        #expect(Set(redCases.keys) == Set(greenCases.keys), "the same tests, whatever happened")
        #expect(redCases["tests.api.01-auth/log in as Ada (line 4)"] == "failure")
        #expect(redCases["tests.api.01-auth/get /me (line 8)"] == "skipped")
        #expect(redCases["tests.api.01-auth/send (line 12)"] == "skipped")
        #expect(redCases["tests.api.02-users/get /users/1 (line 2)"] == "passed")
        let junit = try read("reports/junit.xml")
        #expect(junit.contains(#"failures="1" errors="0" skipped="2""#))
        #expect(red.stdout.contains("failing:\n  tests/api/01-auth.fathom:4\n"))

        // Nobody answering is an error, not a failure.
        let down = try replay(
            ["--var", "demo=http://127.0.0.1:9", "tests/api", "--junit", "reports/junit.xml"],
            environment: ["FATHOM_SECRET_PASSWORD": Self.password])
        #expect(down.status == 3)
        let downCases = try cases("reports/junit.xml")
        #expect(Set(downCases.keys) == Set(greenCases.keys))
        #expect(downCases["tests.api.02-users/get /users/1 (line 2)"] == "error")
    }

    /// A report is written on every exit, replacing the last one: on exit 2 an `<error>` per
    /// broken file; on SIGINT and SIGTERM the results so far; on `--max-time` the same.
    @Test func aReportIsWrittenOnEveryExit() throws {
        try write("reports/junit.xml", "<testsuites name=\"last green run\"/>\n")
        try write("a.fathom", "get http://127.0.0.1:9/\nexpect $.id =! 1\n")
        try write("b.fathom", "body @missing.json\n")
        let broken = try replay(["a.fathom", "b.fathom", "--junit", "reports/junit.xml"])
        #expect(broken.status == 2)
        let report = try read("reports/junit.xml")
        #expect(!report.contains("last green run"))
        #expect(report.contains(#"errors="2""#))
        #expect(report.contains("a.fathom:2:13: unknown comparison"))
        #expect(report.contains("b.fathom:1: no such file: missing.json"))
        #expect(try cases("reports/junit.xml") == ["a/file check": "error", "b/file check": "error"])

        let server = try DemoServerProcess(accessLog: true)
        try write(
            "slow.fathom", "base \(server.baseURL)\nget /users/1\nget /slow ms==20000\nget /users/2\n")
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FathomBinary.binary)
            process.arguments = ["replay", "slow.fathom", "--junit", "reports/junit.xml"]
            process.currentDirectoryURL = URL(fileURLWithPath: root)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Until the slow request is on the server.
            var seen: [String] = []
            for _ in 0..<100 where !seen.contains(where: { $0.hasPrefix("GET /slow") }) {
                seen += server.takeRequests()
            }
            #expect(seen.contains { $0.hasPrefix("GET /slow") })
            let sent = Date()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationStatus == status)
            #expect(Date().timeIntervalSince(sent) < 5, "the slow request is cancelled, not waited for")
            #expect(
                try cases("reports/junit.xml") == [
                    "slow/get /users/1 (line 2)": "passed", "slow/get /slow (line 3)": "error",
                    "slow/get /users/2 (line 4)": "skipped",
                ])
            #expect(
                try read("reports/junit.xml").contains(
                    signal == SIGINT ? "interrupted (SIGINT)" : "interrupted (SIGTERM)"))
        }

        let limited = try replay(["slow.fathom", "--max-time", "500ms", "--junit", "reports/junit.xml"])
        #expect(limited.status == 3)
        #expect(limited.stdout.contains("stopped: the run took longer than --max-time 500 ms"))
        #expect(!limited.stdout.contains("stopped: stopped:"), "said once")
        #expect(try cases("reports/junit.xml")["slow/get /slow (line 3)"] == "error")
    }

    // MARK: - 3. Distinct outcomes

    @Test func exitCodesTellARegressionFromAnOutage() throws {
        let server = try DemoServerProcess()
        try write("pass.fathom", "get \(server.baseURL)/users/1\nexpect status 200\n")
        try write("fail.fathom", "get \(server.baseURL)/users/1\nexpect status 201\n")
        try write("down.fathom", "get http://127.0.0.1:9/users/1\nexpect status 200\n")
        try write("syntax.fathom", "get /users/1\nexpect $.id =! 1\n")
        #expect(try replay(["pass.fathom"]).status == 0)
        #expect(try replay(["fail.fathom"]).status == 1)
        #expect(try replay(["down.fathom"]).status == 3)
        #expect(try replay(["fail.fathom", "down.fathom"]).status == 3, "an outage explains the checks it broke")
        #expect(try replay(["pass.fathom", "syntax.fathom"]).status == 2)

        // Exit 2 as NDJSON: on standard output, with the problem's parts as fields.
        let json = try replay(["--output", "json", "syntax.fathom", "nowhere/*.fathom"])
        #expect(json.status == 2)
        #expect(json.stderr.isEmpty)
        let objects = json.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let syntax = try #require(objects.first { ($0["file"] as? String) == "syntax.fathom" })
        #expect(syntax["line"] as? Int == 2 && syntax["column"] as? Int == 13)
        #expect(syntax["reason"] as? String == "unknown comparison '=!'")
        #expect((syntax["hint"] as? String)?.contains("one of") == true)
        let glob = try #require(objects.first { ($0["file"] as? String) == "nowhere/*.fathom" })
        #expect(glob["reason"] as? String == "matches no files")
        #expect(objects.last?["type"] as? String == "replay_summary" && objects.last?["status"] as? Int == 2)

        // The report's folder is made; a report path that cannot be written is a problem before
        // anything is sent, not a foreign error after a passing run.
        #expect(try replay(["pass.fathom", "--junit", "out/deep/junit.xml"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: root + "/out/deep/junit.xml"))
        try write("file-not-folder", "x")
        let unwritable = try replay(["pass.fathom", "--junit", "file-not-folder/junit.xml"])
        #expect(unwritable.status == 2)
        #expect(
            unwritable.stderr.contains("--junit file-not-folder/junit.xml: file-not-folder is a file, not a folder"))
        #expect(!unwritable.stderr.contains("NSPOSIXErrorDomain"))
    }

    // MARK: - 4. Paths from the file

    @Test func pathsAndEnvironmentsResolveFromTheFilesFolder() throws {
        let server = try DemoServerProcess(accessLog: true)
        try write("fathom.env.json", #"{"ci": {"base": "\#(server.baseURL)", "variables": {"user": "2"}}}"#)
        try write(".env", "FATHOM_SECRET_PASSWORD=\(Self.password) # the demo's\n")
        // A file a loaded file loads is read from the loaded file's folder.
        try write("tests/api/lib/headers.fathom", "header X-Suite: ci\n")
        try write(
            "tests/api/lib/login.fathom",
            "load headers.fathom\nsecret password\npost /login username=ada password={{password}}\nlet token = $.token\nauth bearer {{token}}\n"
        )
        try write("tests/api/payload.json", #"{"title": "From the folder"}"#)
        try write(
            "tests/api/10-todos.fathom",
            """
            load lib/login.fathom
            path /users/{{user}}/todos
            method POST
            body @payload.json
            send
            expect status 201
            expect $.title == "From the folder"

            """)
        // From the repository's root, and from anywhere else: the same files, env and .env.
        let fromRoot = try replay(["--env", "ci", "tests/api/*.fathom"])
        #expect(fromRoot.status == 0, "\(fromRoot.stdout)\(fromRoot.stderr)")
        #expect(fromRoot.stdout.contains("tests/api/10-todos.fathom"))
        #expect(!fromRoot.stdout.contains("lib/login.fathom\n"), "a glob of one folder does not go down")
        let elsewhere = try replay(
            ["--env", "ci", root + "/tests/api/10-todos.fathom"], directory: NSTemporaryDirectory())
        #expect(elsewhere.status == 0, "\(elsewhere.stdout)\(elsewhere.stderr)")
        #expect(server.takeRequests().filter { $0.hasPrefix("POST /users/2/todos") }.count == 2)

        // Named instead of found.
        try write("config/other.env.json", #"{"ci": {"base": "http://127.0.0.1:9"}}"#)
        try write("config/other.env", "FATHOM_SECRET_PASSWORD=wrong\n")
        let named = try replay(["--env", "ci", "--env-file", "config/other.env.json", "tests/api/10-todos.fathom"])
        #expect(named.status == 3, "the named file's base: nobody answers")
        let dotenv = try replay(["--env", "ci", "--dotenv", "config/other.env", "tests/api/10-todos.fathom"])
        #expect(dotenv.status == 1, "the named .env's wrong password: the login's token is missing")
        _ = server.takeRequests()

        // A missing file is found before anything is sent, with its line.
        try write("tests/broken/x.fathom", "base \(server.baseURL)\nget /users/1\nbody @nope.json\nsend\n")
        let broken = try replay(["tests/broken"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("tests/broken/x.fathom:3: no such file: nope.json"))
        #expect(broken.stderr.contains("a relative name is read from the session file's folder"))
        #expect(server.takeRequests().isEmpty)
    }

    // MARK: - 5. Variables

    @Test func variablesHaveAClearPrecedence() throws {
        let server = try DemoServerProcess(accessLog: true)
        try write("fathom.env.json", #"{"ci": {"base": "\#(server.baseURL)", "variables": {"user": "2"}}}"#)
        try write("who.fathom", "base \(server.baseURL)\nset user = 1\nget /users/{{user}}\n")
        func user(_ arguments: [String], _ environment: [String: String] = [:]) throws -> String? {
            let run = try replay(arguments + ["who.fathom"], environment: environment)
            #expect(run.status == 0, "\(run.stdout)")
            return server.takeRequests().last
        }
        #expect(try user([]) == "GET /users/1", "the file's own default")
        #expect(try user(["--env", "ci"]) == "GET /users/2", "the environment beats the file's set")
        #expect(try user(["--env", "ci"], ["FATHOM_VAR_user": "3"]) == "GET /users/3")
        #expect(try user(["--env", "ci", "--var", "user=4"], ["FATHOM_VAR_user": "3"]) == "GET /users/4")

        // .env as dotenv reads it: quotes, an inline comment, export.
        try write(
            ".env", "export FATHOM_SECRET_APIKEY=\"key with spaces\"  # the key\nFATHOM_SECRET_OTHER=plain # note\n")
        try write(
            "echo.fathom", "base \(server.baseURL)\nsecret apikey\nsecret other\npost /echo k={{apikey}} o={{other}}\n")
        let echoed = try replay(["echo.fathom"])
        #expect(echoed.status == 0, "\(echoed.stdout)\(echoed.stderr)")
        #expect(server.takeRequests() == [#"POST /echo {"k":"key with spaces","o":"plain"}"#])
        #expect(!echoed.stdout.contains("key with spaces"))

        // A missing secret names the variable to set.
        try write("missing.fathom", "secret api_token\nget \(server.baseURL)/users/1\n")
        let missing = try replay(["missing.fathom"])
        #expect(missing.status == 2)
        #expect(
            missing.stderr.contains("secret 'api_token' has no value — set FATHOM_SECRET_API_TOKEN, add it to .env"))
    }

    // MARK: - 6. Runner controls

    @Test func timeoutsRetriesAndFolders() throws {
        let server = try DemoServerProcess(accessLog: true)
        try write("slow.fathom", "base \(server.baseURL)\ntimeout 60s\nget /slow ms==3000\n")
        let started = Date()
        let timedOut = try replay(["--timeout", "300ms", "slow.fathom"])
        #expect(timedOut.status == 3)
        #expect(timedOut.stdout.contains("timed out after 300 ms"), "\(timedOut.stdout)")
        #expect(timedOut.stdout.contains("allow more with `--timeout 10s`"), "the option, not a line --timeout beats")
        #expect(Date().timeIntervalSince(started) < 2.5, "--timeout beats the file's own")
        _ = server.takeRequests()

        // A listener whose queue is full never completes a connection: the connect timeout ends it.
        let listener = try Sockets.Unresponsive()
        defer { listener.close() }
        try write("stuck.fathom", "get http://127.0.0.1:\(listener.port)/\n")
        let connecting = Date()
        let stuck = try replay(["--connect-timeout", "300ms", "stuck.fathom"])
        #expect(stuck.status == 3)
        #expect(stuck.stdout.contains("timed out after 300 ms connecting —"), "\(stuck.stdout)")
        #expect(stuck.stdout.contains("allow more with `--connect-timeout 10s`"))
        #expect(Date().timeIntervalSince(connecting) < 5)

        // --retry: again when nothing answered, never for a failed check.
        try write("down.fathom", "get http://127.0.0.1:9/\n")
        let retried = try replay(["--retry", "2", "--retry-interval", "50ms", "down.fathom"])
        #expect(retried.status == 3)
        #expect(retried.stdout.contains("retried 2×"))
        try write("check.fathom", "get \(server.baseURL)/users/1\nexpect status 201\n")
        #expect(try replay(["--retry", "2", "--retry-interval", "50ms", "check.fathom"]).status == 1)
        #expect(server.takeRequests() == ["GET /users/1"])

        // A folder: every .fathom file under it, sorted, recursively.
        try write("suite/b.fathom", "get \(server.baseURL)/users/2\n")
        try write("suite/a/z.fathom", "get \(server.baseURL)/users/1\n")
        try write("suite/c.txt", "not a session\n")
        let folder = try replay(["suite"])
        #expect(folder.status == 0)
        #expect(server.takeRequests() == ["GET /users/1", "GET /users/2"])
        let glob = try replay(["suite/**/*.fathom"])
        #expect(glob.status == 0)
        #expect(server.takeRequests() == ["GET /users/1", "GET /users/2"])
    }

    // MARK: - 7. Recordings

    @Test func recordingsKeepUp() throws {
        let server = try DemoServerProcess()
        let base = "--var"
        let demo = "demo=\(server.baseURL)"
        try write(
            "users.fathom",
            """
            # The users we know.
            base {{demo}}
            get /users/1
            get /users/2

            """)
        #expect(try replay(["--record", base, demo, "users.fathom"]).status == 0)
        #expect(try read("users.fathom").hasPrefix("# The users we know."), "the file as it was")
        #expect(try replay(["--compare", base, demo, "users.fathom"]).status == 0)

        // A request inserted before the others: they are still compared with their own.
        try write("users.fathom", "# The users we know.\nbase {{demo}}\nget /users/3\nget /users/1\nget /users/2\n")
        let inserted = try replay(["--compare", base, demo, "users.fathom"])
        #expect(inserted.status == 0, "\(inserted.stdout)")
        #expect(inserted.stdout.contains("2 compared with recordings"))
        #expect(inserted.stdout.contains("no recorded response for GET /users/3: compared with nothing"))

        // An added field: a difference, unless --compare additive.
        let recording = try read("users.recording.json")
        let shrunk = recording.replacingOccurrences(
            of: #"(?m)^ *"email": "[^"]*",\n"#, with: "", options: .regularExpression)
        #expect(shrunk != recording)
        try write("users.recording.json", shrunk)
        let exact = try replay(["--compare", base, demo, "users.fathom"])
        #expect(exact.status == 1)
        #expect(exact.stdout.contains("+ $['email']"))
        #expect(try replay(["--compare", "additive", base, demo, "users.fathom"]).status == 0)

        // --record brings the recording up to date with the file.
        #expect(try replay(["--record", base, demo, "users.fathom"]).status == 0)
        #expect(try replay(["--compare", base, demo, "users.fathom"]).stdout.contains("3 compared with recordings"))
    }

    // MARK: - 8. Expectations

    @Test func expectationsCISuitesNeed() throws {
        let server = try DemoServerProcess()
        try write(
            "checks.fathom",
            """
            get \(server.baseURL)/users per_page==2
            expect $.data.length() == 2
            expect $.data.count() < 3
            expect $.data[0].name startsWith "Ada"
            expect $.data[0].name endsWith Lovelace
            expect $.data[0].name contains "Love"
            expect $.data[0] contains email
            expect header X-Total-Count > 20
            expect header X-Total-Count <= 25

            """)
        let passing = try replay(["checks.fathom"])
        #expect(passing.status == 0, "\(passing.stdout)")
        #expect(passing.stdout.contains("8 expectations"))
        try write(
            "failing.fathom",
            "get \(server.baseURL)/users per_page==2\nexpect header X-Total-Count > 1000\nexpect $.data.length() == 5\n"
        )
        let failing = try replay(["failing.fathom"])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("expected > 1000, got 25"), "\(failing.stdout)")
        #expect(failing.stdout.contains("expected 5, got 2"))
    }
}
