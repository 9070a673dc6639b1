import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

/// The executor on a MockTransport: commands in, values out, no server and no console.
@Suite struct ExecutorTests {
    /// An executor whose transport answers every request with what it received, as JSON.
    static func echoing() -> (Executor, MockTransport) {
        let transport = MockTransport()
        transport.register(
            "/",
            .handler { request in
                var headers: [JSON.Member] = []
                for field in request.headers {
                    headers.append(.init(key: field.name.rawName, value: .string(field.value)))
                }
                var body = ""
                if case .bytes(let data)? = request.body { body = String(decoding: data, as: UTF8.self) }
                let echo = JSON.object([
                    .init(key: "method", value: .string(request.method.rawValue)),
                    .init(key: "path", value: .string(request.url.path)),
                    .init(key: "query", value: .string(request.url.query ?? "")),
                    .init(key: "headers", value: .object(headers)), .init(key: "body", value: .string(body)),
                ])
                let status = request.url.path.hasPrefix("/status/") ? Int(request.url.path.dropFirst(8)) ?? 200 : 200
                return .json(echo.formatted(.compactText), status: status)
            })
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        return (executor, transport)
    }

    func run(_ executor: Executor, _ lines: String) async -> [CommandResult] {
        var results: [CommandResult] = []
        for line in lines.split(separator: "\n") { results.append(await executor.run(String(line))) }
        return results
    }

    @Test func aOneLinerSendsWhatItsItemsSay() async throws {
        let (executor, transport) = Self.echoing()
        let results = await run(
            executor,
            """
            base http://api.test/v1
            default header X-Client: fathom
            post /users name=Ada age:=36 X-Trace:abc page==2
            """)
        #expect(results.map(\.outcome) == [.succeeded, .succeeded, .succeeded])
        let request = try #require(transport.requests.last)
        #expect(request.method == .post)
        #expect(request.url.description == "http://api.test/v1/users?page=2")
        #expect(request.headers[NetworkHeaders.Name("X-Client")] == "fathom")
        #expect(request.headers[NetworkHeaders.Name("X-Trace")] == "abc")
        #expect(request.headers[.contentType] == "application/json")
        guard case .bytes(let body)? = request.body else { throw CommandError(.session, "no body") }
        #expect(String(decoding: body, as: UTF8.self) == #"{"name":"Ada","age":36}"#)
        let response = try #require(results.last?.response)
        #expect(response.number == 1)
        #expect(response.shownPath == "/v1/users?page=2")
    }

    @Test func credentialsComeFromTheLibrarysAuthenticators() async throws {
        let (executor, transport) = Self.echoing()
        _ = await run(
            executor,
            """
            base http://api.test
            auth bearer tok-0123456789abcdef
            get /a
            header Authorization: Bearer mine-0123456789
            path /b
            send
            header -Authorization
            auth apikey query api_key k-0123456789
            get /c
            auth basic ada:lovelace-pw
            get /status/401
            """)
        let requests = transport.requests
        #expect(requests[0].headers[.authorization] == "Bearer tok-0123456789abcdef")
        #expect(requests[1].headers[.authorization] == "Bearer mine-0123456789", "the draft's own header wins")
        #expect(requests[2].url.query == "api_key=k-0123456789")
        #expect(requests[3].headers[.authorization] == "Basic \(Data("ada:lovelace-pw".utf8).base64EncodedString())")
        #expect(requests.count == 4, "a 401 with fixed credentials is not sent again")
    }

    @Test func showRequestPreviewsCredentialsWithoutSending() async throws {
        let (executor, transport) = Self.echoing()
        let results = await run(executor, "base http://api.test\nauth bearer tok-0123456789abcdef\nshow request")
        guard case .request(let preview)? = results.last?.outputs.first else {
            Issue.record("no preview")
            return
        }
        #expect(preview.request.headers[.authorization] == "Bearer tok-0123456789abcdef")
        #expect(transport.requests.isEmpty)
        let text = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor)
            .render(.request(preview)).text
        #expect(text.contains("Authorization: Bearer ••••cdef"))
        #expect(!text.contains("tok-0123456789abcdef"))
    }

    @Test func expectationsAndCapturesAreValues() async throws {
        let (executor, _) = Self.echoing()
        let results = await run(
            executor,
            """
            base http://api.test
            get /users/7
            expect status 2xx
            expect $.path == "/users/8"
            let path = $.path
            """)
        guard case .expectation(let passed)? = results[2].outputs.first,
            case .expectation(let failed)? = results[3].outputs.first,
            case .capture(let capture)? = results[4].outputs.first
        else {
            Issue.record("unexpected outputs \(results.map(\.outputs))")
            return
        }
        #expect(passed.result.passed)
        #expect(passed.line == "expect status 2xx")
        #expect(results[3].outcome == .checkFailed)
        #expect(failed.result.actual == #""/users/7""#)
        #expect(capture.name == "path")
        #expect(capture.value == "/users/7")
    }

    @Test func afterARequestWithNoResponseExpectRefuses() async throws {
        let transport = MockTransport()
        transport.register("/ok", .json("{}"))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        _ = await executor.run("base http://api.test")
        _ = await executor.run("get /ok")
        let missing = await executor.run("get /missing")
        #expect(missing.outcome == .failed)
        let expect = await executor.run("expect status 200")
        guard case .failure(let failure)? = expect.outputs.first, case .command(let error) = failure.reason else {
            Issue.record("expected a failure, got \(expect.outputs)")
            return
        }
        #expect(error.message == "the last request got no response")
    }

    @Test func aFailedLineLeavesTheSessionAsItWas() async throws {
        let (executor, transport) = Self.echoing()
        _ = await run(executor, "base http://api.test\npath /users\nquery page=2")
        let results = await run(executor, "get /x bad:=nope\nquery -missing\nbase ::bad")
        #expect(results.allSatisfy { $0.outcome == .failed })
        #expect(transport.requests.isEmpty)
        _ = await executor.run("send")
        #expect(transport.requests.last?.url.description == "http://api.test/users?page=2")
    }

    @Test func replayAtThePromptIsAFollowUpForTheLoop() async throws {
        let (executor, transport) = Self.echoing()
        await executor.define("demo", "http://api.test")
        let result = await executor.run("replay a.fathom --compare")
        guard case .replay(let files, let compare, let variables)? = result.followUp else {
            Issue.record("no follow-up")
            return
        }
        #expect(files == ["a.fathom"])
        #expect(compare)
        #expect(variables.map(\.name) == ["demo"])
        #expect(transport.requests.isEmpty)
    }
}

/// Bad input the language must refuse at its column rather than trap on, and output it must cut.
@Suite struct HostileInputTests {
    @Test(arguments: [
        "timeout 99999999999999999999s", "timeout 9223372036854775807ms", "expect time < 99999999999999999999ms",
    ])
    func numbersOutOfRangeAreColumnErrors(line: String) {
        let error = parseError(line)
        #expect(error?.message.hasSuffix("is out of range") == true, "\(String(describing: error))")
        #expect(error?.column != nil)
    }

    @Test func aMegabyteLineIsQuotedInPart() {
        let word = String(repeating: "y", count: 1 << 20)
        let line = ErrorRenderer().line(Failure(.command(parseError("get /x \(word)")!)))
        #expect(line.count < 300)
        #expect(line.contains("(1048576 characters)"))
    }

    /// A small body that prints huge (deep nesting) is cut on screen and written whole to a file.
    @Test func aBodyThatPrintsHugeIsCutAndWrittenWhole() async throws {
        let deep =
            String(repeating: "[", count: 400) + Array(repeating: "1", count: 20_000).joined(separator: ",")
            + String(repeating: "]", count: 400)
        let transport = MockTransport()
        transport.register("/deep", .json(deep))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        _ = await executor.run("base http://api.test")
        let result = await executor.run("get /deep")
        let text = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor)
            .render(try #require(result.outputs.first)).text
        #expect(text.utf8.count < ResponseRenderer.displayLimit + 4096)
        #expect(text.contains("cut at 4 MiB of output: `show #1 > FILE` writes it whole"))
        let file = NSTemporaryDirectory() + "fathom-deep-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let saved = await executor.run("show #1 > \(file)")
        #expect(saved.outcome == .succeeded)
        let written = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(written.count > 12 << 20, "every line of the indentation, past the 4 MiB shown")
        #expect(written.suffix(2) == Data("]\n".utf8))
    }

    @Test func aHexViewMasksASecretAcrossRows() async throws {
        let transport = MockTransport()
        // 14 bytes before the secret put it across the first row's end.
        transport.register(
            "/bin", .data(Data("..............hex-s3cr3t-value....".utf8), contentType: "application/octet-stream"))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        for line in ["base http://api.test", "secret s = hex-s3cr3t-value", "decoder hex"] {
            _ = await executor.run(line)
        }
        let result = await executor.run("get /bin")
        let text = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor)
            .render(try #require(result.outputs.first)).text
        #expect(!text.contains("hex-s"))
        #expect(!text.contains("3cr3t"))
        #expect(!text.contains("68 65 78 2d 73"), "not in the hex column either")
    }
}

extension HostileInputTests {
    @Test func inspectingAValueThatPrintsHugeIsCut() async throws {
        let deep =
            String(repeating: "[", count: 400) + Array(repeating: "1", count: 20_000).joined(separator: ",")
            + String(repeating: "]", count: 400)
        let transport = MockTransport()
        transport.register("/deep", .json(#"{"a":\#(deep)}"#))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        _ = await executor.run("base http://api.test")
        _ = await executor.run("get /deep")
        let result = await executor.run("inspect $.a")
        let text = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor)
            .render(try #require(result.outputs.first)).text
        #expect(text.utf8.count < ResponseRenderer.displayLimit + 4096)
        #expect(text.contains("… cut at 4 MiB of output"))
        let small = await executor.run("inspect $.a[0][0][0]")
        #expect(small.outcome == .succeeded)
    }
}

/// `load`: a file's lines run in this session, each shown as it runs.
@Suite struct LoadTests {
    @Test func aLoadedFileRunsLineByLineAndSaysHowItWent() async throws {
        let directory = NSTemporaryDirectory() + "fathom-load-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "set who = inner\nget /inner\n".write(
            toFile: directory + "/inner.fathom", atomically: true, encoding: .utf8)
        try "base http://api.test\nload \(directory)/inner.fathom\nget /outer\nexpect status 404\n"
            .write(toFile: directory + "/outer.fathom", atomically: true, encoding: .utf8)
        try "load \(directory)/self.fathom\n".write(
            toFile: directory + "/self.fathom", atomically: true, encoding: .utf8)
        let transport = MockTransport()
        transport.register("/", .json(#"{"ok":true}"#))
        let session = Transcript(transport: transport)
        let outcomes = await session.run("load \(directory)/outer.fathom\nvars\nload \(directory)/self.fathom")
        #expect(transport.requests.map(\.url.path) == ["/inner", "/outer"])
        let text = session.text
        #expect(text.contains("loaded \(directory)/inner.fathom: 2 lines"))
        #expect(text.contains("\(directory)/outer.fathom:4: ✗ expect status 404 — expected 404, got 200 OK"))
        #expect(text.contains("loaded \(directory)/outer.fathom: 1 of 4 lines failed"))
        #expect(text.contains("who = inner"), "the loaded file's variables are this session's")
        #expect(text.contains("load is nested more than 8 deep"))
        #expect(outcomes == [.failed, .succeeded, .failed])
    }
}
