import FathomHTTP
import FathomJSON
import FathomTestSupport
import Foundation
import Testing

@testable import FathomREPL

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The replay runner on a MockTransport: files in, a report, a JUnit file and an exit status out.
@Suite struct ReplayRunnerTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "fathom-runner-\(UUID().uuidString)"
        // A repository root: the search for fathom.env.json and .env stops here.
        try FileManager.default.createDirectory(atPath: folder + "/.git", withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A transport that answers `/users/N` with a user, `/flaky` after two refusals, and
    /// nothing else (``NetworkError/noMock(path:)``, a runtime error).
    static func transport(name: @escaping @Sendable () -> String = { "Ada" }) -> MockTransport {
        let transport = MockTransport()
        let refusals = Locked(0)
        transport.register(
            "/flaky",
            .handler { request in
                let refused = refusals.withLock { count -> Bool in
                    count += 1
                    return count <= 2
                }
                if refused { throw NetworkError.connectionRefused(host: "127.0.0.1", port: 1) }
                return .json(#"{"ok": true}"#)
            })
        transport.register(
            "/users/",
            .handler { request in
                let id = request.url.path.split(separator: "/").last.map(String.init) ?? "0"
                return .json(#"{"id": \#(id), "name": "\#(name())", "email": "a@example.com"}"#)
            })
        return transport
    }

    func runner(
        _ transport: MockTransport, _ configure: (inout ReplayRunner.Options) -> Void = { _ in }
    ) -> (ReplayRunner, BufferConsole) {
        var options = ReplayRunner.Options()
        options.executor = Executor.Options(
            environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport)
        options.variables = [("base", "http://api.test")]
        configure(&options)
        let console = BufferConsole()
        return (ReplayRunner(options: options, output: console, prompter: NoPrompter()), console)
    }

    /// `classname/name` → `passed`, `failure`, `error` or `skipped`.
    func cases(_ path: String) throws -> [String: String] {
        let xml = try XMLDocument(contentsOf: URL(fileURLWithPath: path))
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

    @Test func aFileStopsAtItsFirstFailureWithTheRestSkipped() async throws {
        let file = try write(
            "users.fathom",
            "base {{base}}\nget /users/1\nexpect $.id == 2\n# name: the second user\nget /users/2\nget /users/3\n")
        let junit = folder + "/junit.xml"
        let (stopping, console) = runner(Self.transport()) { $0.junitPath = junit }
        #expect(await stopping.run(files: [file]) == 1)
        #expect(console.stdout.contains("- the second user (line 5)  not run: line 2 failed"))
        #expect(console.stdout.contains("3 requests: 0 passed, 1 failed, 2 skipped"))
        let className = JUnitReport.className(file)
        #expect(
            try cases(junit) == [
                "\(className)/get /users/1 (line 2)": "failure", "\(className)/the second user (line 5)": "skipped",
                "\(className)/get /users/3 (line 6)": "skipped",
            ])

        let (going, _) = runner(Self.transport()) {
            $0.junitPath = junit
            $0.continueOnError = true
        }
        #expect(await going.run(files: [file]) == 1)
        #expect(try cases(junit).values.sorted() == ["failure", "passed", "passed"])
    }

    @Test func aRuntimeErrorIsAnErrorAndBeatsAFailure() async throws {
        let failing = try write("failing.fathom", "base {{base}}\nget /users/1\nexpect status 500\n")
        let down = try write("down.fathom", "base {{base}}\nget /nothing-here\nexpect status 200\n")
        let junit = folder + "/junit.xml"
        let (runner, console) = runner(Self.transport()) { $0.junitPath = junit }
        #expect(await runner.run(files: [failing, down]) == 3)
        #expect(!console.stdout.contains("the last request got no response"), "its checks are not run")
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(report.contains(#"<testsuites name="fathom replay" tests="2" failures="1" errors="1" time="#))
        #expect(
            report.contains(#"<error message="down.fathom:2: error: no mock response"#)
                || report.contains("type=\"runtime\""))
    }

    @Test func onlyRuntimeErrorsAreRetried() async throws {
        let transport = Self.transport()
        let flaky = try write("flaky.fathom", "base {{base}}\nget /flaky\nexpect $.ok == true\n")
        let (runner, console) = runner(transport) {
            $0.retries = 2
            $0.retryInterval = .milliseconds(1)
        }
        #expect(await runner.run(files: [flaky]) == 0)
        #expect(console.stdout.contains("retried 2×"))
        #expect(transport.requests.count == 3)

        let check = try write("check.fathom", "base {{base}}\nget /users/1\nexpect $.id == 9\n")
        transport.reset()
        let again = Self.transport()
        let (checking, _) = self.runner(again) { $0.retries = 2 }
        #expect(await checking.run(files: [check]) == 1)
        #expect(again.requests.count == 1, "a failed check is not sent again")
    }

    @Test func recordingsAreWrittenAndMatchedByIdentity() async throws {
        let name = Locked("Ada")
        let transport = Self.transport { name.value }
        let file = try write("users.fathom", "# kept as it is\nbase {{base}}\nget /users/1\nget /users/2\n")
        let before = try String(contentsOfFile: file, encoding: .utf8)
        let (recording, console) = runner(transport) { $0.record = true }
        #expect(await recording.run(files: [file]) == 0)
        #expect(console.stdout.contains("recorded 2 responses to"))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        let recorded = try Recording.load(Recording.path(forSession: file))
        #expect(recorded.entries.map(\.identity?.target) == ["/users/1", "/users/2"])

        // A request inserted first changes no other comparison.
        _ = try write("users.fathom", "base {{base}}\nget /users/3\nget /users/1\nget /users/2\n")
        let (comparing, compared) = runner(transport) { $0.compare = true }
        #expect(await comparing.run(files: [file]) == 0)
        #expect(compared.stdout.contains("2 compared with recordings"))
        #expect(compared.stdout.contains("no recorded response for GET /users/3: compared with nothing"))

        // A changed value fails; an added member passes only when additive.
        name.withLock { $0 = "Grace" }
        let (changed, changedConsole) = runner(transport) { $0.compare = true }
        #expect(await changed.run(files: [file]) == 1)
        #expect(changedConsole.stdout.contains(#"~ $['name']  "Ada" → "Grace""#))
        name.withLock { $0 = "Ada" }
        var shrunk = recorded
        for index in shrunk.entries.indices {
            if case .json(.object(let members)) = shrunk.entries[index].body {
                shrunk.entries[index].body = .json(.object(members.filter { $0.key != "email" }))
            }
        }
        try shrunk.serialized().write(toFile: Recording.path(forSession: file), atomically: true, encoding: .utf8)
        let (exact, _) = runner(transport) { $0.compare = true }
        #expect(await exact.run(files: [file]) == 1)
        let (additive, _) = runner(transport) {
            $0.compare = true
            $0.additive = true
        }
        #expect(await additive.run(files: [file]) == 0)
    }

    @Test func aStoppedRunReportsWhatRanAndSkipsTheRest() async throws {
        let transport = MockTransport()
        transport.register("/fast", .json("{}"))
        transport.register(
            "/slow",
            .handler { _ in
                try await Task.sleep(for: .seconds(30))
                return .json("{}")
            })
        let file = try write("slow.fathom", "base {{base}}\nget /fast\nget /slow\nget /fast\n")
        let other = try write("other.fathom", "base {{base}}\nget /fast\n")
        let junit = folder + "/junit.xml"
        let (runner, _) = runner(transport) { $0.junitPath = junit }
        let stop = runner.options.stop
        let task = Task { await runner.run(files: [file, other]) }
        while transport.requests.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        stop.stop(.signal(SIGTERM))
        task.cancel()
        #expect(await task.value == 143)
        let className = JUnitReport.className(file)
        let otherClass = JUnitReport.className(other)
        #expect(
            try cases(junit) == [
                "\(className)/get /fast (line 2)": "passed", "\(className)/get /slow (line 3)": "error",
                "\(className)/get /fast (line 4)": "skipped", "\(otherClass)/get /fast (line 2)": "skipped",
            ])
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("interrupted (SIGTERM)"))
    }

    @Test func commandLineVariablesWinOverEnvironmentsAndSets() async throws {
        let transport = Self.transport()
        _ = try write("fathom.env.json", #"{"ci": {"base": "http://api.test", "variables": {"user": "2"}}}"#)
        let file = try write("who.fathom", "base {{base}}\nset user = 1\nget /users/{{user}}\n")
        func sent(_ configure: (inout ReplayRunner.Options) -> Void) async -> String? {
            transport.reset()
            let reply = Self.transport()
            let (runner, _) = self.runner(reply, configure)
            _ = await runner.run(files: [file])
            return reply.requests.last?.url.path
        }
        #expect(await sent { _ in } == "/users/1")
        #expect(await sent { $0.environment = "ci" } == "/users/2")
        #expect(
            await sent {
                $0.environment = "ci"
                $0.variables.append(("user", "4"))
            } == "/users/4")
    }
}

/// The JUnit report as CI servers read it.
@Suite struct JUnitReportTests {
    @Test func classNamesAreFoldersAndAFileCIToolsDoNotSplit() {
        #expect(JUnitReport.className("tests/api/01-auth.fathom") == "tests.api.01-auth")
        #expect(JUnitReport.className("./v1.2/smoke.test.fathom") == "v1_2.smoke_test")
        #expect(JUnitReport.className("/abs/x.har") == "abs.x")
    }

    @Test func aTestIsNamedByTheFirstTwoWordsOfItsLine() {
        #expect(RequestReport.firstWords("post  /login\tusername=ada\nnext") == "post /login")
        #expect(RequestReport.firstWords("send") == "send")
        #expect(RequestReport.firstWords("  get /x") == "get /x")
        #expect(RequestReport.firstWords("get\n/x") == "get")
    }

    @Test func everyOutcomeHasItsElement() throws {
        let redactor = Redactor()
        redactor.addSecret("s3cr3t-token-value")
        let summary = JUnitSchemaTests.everyOutcome(redactor: redactor)
        #expect(summary.status == 2)
        let xml = JUnitReport.xml(summary)
        #expect(
            xml.contains(
                #"<testsuites name="fathom replay" tests="5" failures="1" errors="2" time="1.000">"#))
        #expect(xml.contains(#"<failure message="tests/a.fathom:3: differs from its recording:" type="recording">"#))
        #expect(xml.contains(#"<error message="interrupted (SIGINT)" type="runtime">"#))
        #expect(xml.contains(#"<skipped message="not run: line 3 failed"/>"#))
        #expect(xml.contains(#"<testcase classname="tests.b" name="file check""#))
        #expect(xml.contains("<system-out>compared with nothing</system-out>"))
        let document = try XMLDocument(xmlString: xml)
        #expect(try document.nodes(forXPath: "//testcase").count == 5)
    }
}

/// The replay's own words: the request lines and the summary.
@Suite struct ReplayRendererTests {
    let renderer = ReplayRenderer(palette: Palette(enabled: false), format: .text)

    @Test func aBrokenSchemaNeverStandsBesideATick() {
        var request = RequestReport(name: "get /u (line 2)", line: 2)
        request.sent = "GET /u"
        request.schema = SchemaCheck(
            operation: "GET /u", violations: [.init(path: "$.id", message: "expected integer, got string")])
        let warned = renderer.request(request, file: "f.fathom", redactor: Redactor())
        #expect(warned.hasPrefix("! GET /u"))
        #expect(warned.contains("$.id: expected integer, got string"))
        request.failures = [.schema(request.schema!)]
        #expect(renderer.request(request, file: "f.fathom", redactor: Redactor()).hasPrefix("✗ GET /u"))
    }

    @Test func theSummaryNamesTheFailingFilesAndLines() {
        var one = FileReport(path: "a.fathom", redactor: Redactor())
        var failed = RequestReport(name: "x", line: 3)
        failed.failures = [.failed(location: "a.fathom:3")]
        var later = RequestReport(name: "y", line: 9)
        later.failures = [.failed(location: "a.fathom:9")]
        one.requests = [failed, later, RequestReport(name: "z", line: 12)]
        let two = FileReport(path: "b.fathom", redactor: Redactor())
        let text = renderer.summary(ReplaySummary(files: [one, two], elapsed: .seconds(2), stopped: nil))
        #expect(text.contains("3 requests: 1 passed, 2 failed"))
        #expect(text.hasSuffix("failing:\n  a.fathom:3, 9\n"))
        let stopped = renderer.summary(ReplaySummary(files: [one], elapsed: .zero, stopped: .maxTime(.seconds(5))))
        #expect(stopped.contains("stopped: the run took longer than --max-time 5 s"))
        #expect(!stopped.contains("stopped: stopped:"), "said once")
    }
}

/// A response against its recording.
@Suite struct RecordingComparisonTests {
    func response(_ body: String, status: Int = 200, path: String = "/u") throws -> NetworkResponse<Data> {
        let request = try NetworkRequest("http://api.test" + path).prepared(baseURL: nil)
        return NetworkResponse(
            status: HTTPStatus(code: status), headers: ["Content-Type": "application/json"], body: Data(body.utf8),
            httpVersion: "HTTP/1.1", request: request)
    }

    @Test func differencesAreStatusTypeAndBody() throws {
        let redactor = Redactor()
        let recording = Recording(session: "s")
        let masker = recording.masker(redactor)
        let recorded = recording.entry(
            RecordedResponse(try response(#"{"a": 1}"#), target: "/u"),
            identity: .init(method: "GET", target: "/u", occurrence: 1), position: 1, line: 2, redactor: redactor)
        #expect(
            RecordingComparison.differences(
                RecordedResponse(try response(#"{"a": 1}"#), target: nil), recorded: recorded, masker: masker,
                volatile: []
            )
            .isEmpty)
        let lines = RecordingComparison.differences(
            RecordedResponse(try response(#"{"a": 2, "b": true}"#, status: 201), target: nil), recorded: recorded,
            masker: masker, volatile: [])
        #expect(lines.contains("status 200 → 201"))
        #expect(lines.contains { $0.contains("~ $['a']  1 → 2") })
        #expect(lines.contains { $0.contains("+ $['b']") })
        #expect(
            RecordingComparison.differences(
                RecordedResponse(try response(#"{"a": 1, "b": true}"#), target: nil), recorded: recorded,
                masker: masker, volatile: [], mode: .additive
            ).isEmpty)
        #expect(
            RecordingComparison.differences(
                RecordedResponse(try response(#"{"a": 9}"#), target: nil), recorded: recorded, masker: masker,
                volatile: ["$.a"]
            ).isEmpty)
    }

    /// A secret changed between recording and run: caught by its digest, never shown.
    @Test func aChangedSecretDiffersByDigest() throws {
        let redactor = Redactor()
        redactor.addSecret("first-secret-value")
        let recording = Recording(session: "s")
        let recorded = recording.entry(
            RecordedResponse(try response(#"{"echo": "first-secret-value"}"#), target: "/u"),
            identity: .init(method: "GET", target: "/u", occurrence: 1), position: 1, line: 2, redactor: redactor)
        redactor.addSecret("second-secret-value")
        let lines = RecordingComparison.differences(
            RecordedResponse(try response(#"{"echo": "second-secret-value"}"#), target: nil), recorded: recorded,
            masker: recording.masker(redactor),
            volatile: [])
        let text = lines.joined(separator: "\n")
        #expect(text.contains("~ $['echo']  \"••••#"), "\(text)")
        #expect(!text.contains("first-secret-value") && !text.contains("second-secret-value"))
    }

    /// A 0.2.0 recording (format 1, no key) kept credentials as plain masks — `"••••"` for a token
    /// and for `token_type` alike: a value it masked is not compared, whatever comes now; the
    /// rest still is.
    @Test func aFormatOneRecordingsMasksAreNotCompared() throws {
        let redactor = Redactor()
        redactor.addSecret("a-new-token-0123456789")
        let old = Recording(session: "s", key: Data())
        let recorded = Recording.Entry(
            request: 1, line: 2, identity: nil, method: "GET", path: "/u", status: 200,
            contentType: "application/json",
            body: .json(
                try JSON(parsing: #"{"token": "••••", "token_type": "••••", "user": "ada", "n": [1, "••••6789"]}"#)))
        let same = RecordingComparison.differences(
            RecordedResponse(
                try response(
                    #"{"token": "a-new-token-0123456789", "token_type": "Bearer", "user": "ada", "n": [1, "x"]}"#),
                target: nil),
            recorded: recorded, masker: old.masker(redactor), volatile: [])
        #expect(same.isEmpty, "\(same)")
        let changed = RecordingComparison.differences(
            RecordedResponse(
                try response(#"{"token": "t", "token_type": "Bearer", "user": "grace", "n": [1, "x"]}"#), target: nil),
            recorded: recorded, masker: old.masker(redactor), volatile: [])
        #expect(changed.contains { $0.contains("$['user']") }, "\(changed)")
        #expect(!changed.contains { $0.contains("token") }, "\(changed)")
    }
}

/// What `fathom replay` is given, as files.
@Suite struct ReplayInputsTests {
    @Test func foldersAndGlobsAreSortedAndRecursive() throws {
        let root = NSTemporaryDirectory() + "fathom-inputs-\(UUID().uuidString)"
        for path in ["b.fathom", "a/z.fathom", "a/y.txt", ".hidden/h.fathom", "c/d/e.fathom"] {
            try FileManager.default.createDirectory(
                atPath: ((root + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: root + "/" + path, contents: Data("get /\n".utf8))
        }
        let (folder, none) = ReplayInputs.expand([root])
        #expect(none.isEmpty)
        #expect(folder == ["a/z.fathom", "b.fathom", "c/d/e.fathom"].map { root + "/" + $0 })
        #expect(ReplayInputs.expand([root + "/*.fathom"]).files == [root + "/b.fathom"])
        #expect(ReplayInputs.expand([root + "/**/*.fathom"]).files == folder)
        #expect(ReplayInputs.expand([root + "/c/**/e.fathom"]).files == [root + "/c/d/e.fathom"])
        let (_, problems) = ReplayInputs.expand([root + "/*.nope"])
        #expect(problems.map(\.reason) == ["matches no files"])
        #expect(ReplayInputs.expand(["no-such.fathom"]).files == ["no-such.fathom"], "read, and refused, as a file")

        // The nearest file up to the repository's root, never past it.
        try FileManager.default.createDirectory(atPath: root + "/c/.git", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root + "/.env", contents: Data())
        #expect(ProjectFiles.nearest(".env", from: root + "/a") == root + "/.env")
        #expect(ProjectFiles.nearest(".env", from: root + "/c/d") == nil)
    }
}
