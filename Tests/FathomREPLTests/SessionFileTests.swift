import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

@Suite struct AnalysisParsingTests {
    @Test func parsesResponseCommands() throws {
        #expect(try CommandParser.parse("responses") == .responses)
        #expect(
            try CommandParser.parse("inspect #2 $.items[*].name --paths")
                == .inspect(response: 2, expression: "$.items[*].name", paths: true))
        #expect(try CommandParser.parse("inspect .a.b") == .inspect(response: nil, expression: ".a.b", paths: false))
        #expect(
            try CommandParser.parse("let id = $.data[0].id #3")
                == .capture(name: "id", source: .value("$.data[0].id"), response: 3))
        #expect(try CommandParser.parse("let id=$.id") == .capture(name: "id", source: .value("$.id"), response: nil))
        #expect(
            try CommandParser.parse("let loc = header Location")
                == .capture(name: "loc", source: .header("Location"), response: nil))
        #expect(try CommandParser.parse("let code = status #1") == .capture(name: "code", source: .status, response: 1))
        #expect(
            try CommandParser.parse("diff #1 #4 --body --ignore $.at --ignore $.id")
                == .diff(DiffRequest(old: 1, new: 4, scope: .body, ignore: ["$.at", "$.id"])))
        #expect(try CommandParser.parse("diff") == .diff(DiffRequest()))
        #expect(try CommandParser.parse("volatile $.updatedAt") == .volatile("$.updatedAt"))
        #expect(try CommandParser.parse("save s.fathom --requests-only") == .save(file: "s.fathom", requestsOnly: true))
        #expect(try CommandParser.parse("load s.fathom") == .load("s.fathom"))
        #expect(try CommandParser.parse("record on") == .record(true))
    }

    @Test func parsesExpectations() throws {
        func expectation(_ line: String) throws -> FathomREPL.Expectation {
            guard case .expect(let expectation) = try CommandParser.parse(line) else {
                throw CommandError("not expect")
            }
            return expectation
        }
        #expect(
            try expectation("expect status 200") == FathomREPL.Expectation(subject: .status, op: .equal, operand: "200")
        )
        #expect(
            try expectation("expect status 2xx") == FathomREPL.Expectation(subject: .status, op: .equal, operand: "2xx")
        )
        #expect(
            try expectation("expect status < 500")
                == FathomREPL.Expectation(subject: .status, op: .less, operand: "500"))
        #expect(
            try expectation(#"expect $.name == "Ada""#)
                == FathomREPL.Expectation(subject: .value("$.name"), op: .equal, operand: #""Ada""#))
        #expect(
            try expectation("expect $.tags == [1, 2]")
                == FathomREPL.Expectation(subject: .value("$.tags"), op: .equal, operand: "[1, 2]"))
        #expect(
            try expectation(#"expect $.name ~ "^A""#)
                == FathomREPL.Expectation(subject: .value("$.name"), op: .matches, operand: "^A"))
        #expect(
            try expectation("expect $.x absent")
                == FathomREPL.Expectation(subject: .value("$.x"), op: .absent, operand: nil))
        #expect(
            try expectation("expect header Content-Type ~ json")
                == FathomREPL.Expectation(subject: .header("Content-Type"), op: .matches, operand: "json"))
        #expect(
            try expectation("expect time < 500ms")
                == FathomREPL.Expectation(subject: .time, op: .less, operand: "500ms"))
        #expect(
            try expectation(#"expect body ~ "ok""#)
                == FathomREPL.Expectation(subject: .body, op: .matches, operand: "ok"))
    }

    @Test func reportsWhereAnAnalysisLineIsWrong() {
        func error(_ line: String) -> CommandError? {
            do {
                _ = try CommandParser.parse(line)
                return nil
            } catch { return error }
        }
        #expect(error("inspect $.a[")?.column == 13)
        #expect(error("expect $.a.[0] == 1")?.column == 12)
        #expect(error("expect time == 1s")?.message == "unknown comparison '=='")
        #expect(error("expect status 700")?.message == "invalid status '700'")
        #expect(error("let = $.a")?.message == "invalid variable name '='" || error("let = $.a") != nil)
        #expect(error("let x $.a")?.message == "expected '=' after 'x'")
        #expect(error("diff #0")?.message == "invalid response number '#0'")
        #expect(error("diff #1 #2 #3")?.message == "unexpected '#3'")
        #expect(error("save")?.message == "missing a file name")
        #expect(error("record maybe")?.hint != nil)
    }
}

@Suite struct ExpectationEvaluatorTests {
    static func response(
        status: Int = 200, body: String, headers: [(String, String)] = [], time: Duration = .milliseconds(20)
    )
        throws -> NetworkResponse<Data>
    {
        var fields = NetworkHeaders()
        for (name, value) in headers { fields.add(NetworkHeaders.Name(name), value) }
        let request = try NetworkRequest("http://a.test/x").prepared(baseURL: nil)
        return NetworkResponse(
            status: HTTPStatus(code: status), headers: fields, body: Data(body.utf8), httpVersion: "HTTP/1.1",
            request: request, redirects: [], timing: ResponseTiming(firstByte: time, total: time))
    }

    func check(_ line: String, _ response: NetworkResponse<Data>) throws -> Bool {
        guard case .expect(let expectation) = try CommandParser.parse(line) else { return false }
        return try ExpectationEvaluator.evaluate(expectation, operand: expectation.operand, response: response) {
            try JSONPath($0).values(in: ExpectationEvaluator.json(response, number: 1))
        }.passed
    }

    @Test func valuesCompareAsJSON() throws {
        let response = try Self.response(
            body: #"{"id": 42, "price": 1.50, "name": "Ada", "tags": ["a", "b"], "none": null}"#)
        #expect(try check("expect $.id == 42", response))
        #expect(try check("expect $.id == 42.0", response))
        #expect(try check("expect $.price == 1.5", response))
        #expect(try check("expect $.price < 2", response))
        #expect(try check("expect $.price >= 1.5", response))
        #expect(try !check("expect $.price > 1.5", response))
        #expect(try check(#"expect $.name == "Ada""#, response))
        #expect(try check("expect $.name == Ada", response))
        #expect(try check("expect $.name != Grace", response))
        #expect(try check(#"expect $.tags == ["a","b"]"#, response))
        #expect(try check("expect $.tags[*] == [\"a\", \"b\"]", response))
        #expect(try check("expect $.none == null", response))
        #expect(try check("expect $.none exists", response))
        #expect(try check("expect $.missing absent", response))
        #expect(try !check("expect $.missing == 1", response))
        #expect(try check("expect $.missing != 1", response))
        #expect(try check("expect $.id ~ ^4", response))
        #expect(try !check("expect $.name < 5", response))
    }

    @Test func statusHeadersBodyAndTime() throws {
        let response = try Self.response(
            status: 404, body: "not here", headers: [("Content-Type", "text/plain"), ("Vary", "a"), ("Vary", "b")],
            time: .milliseconds(120))
        #expect(try check("expect status 404", response))
        #expect(try check("expect status 4xx", response))
        #expect(try check("expect status != 2xx", response))
        #expect(try check("expect status >= 400", response))
        #expect(try !check("expect status 200", response))
        #expect(try check("expect header content-type == text/plain", response))
        #expect(try check("expect header Vary == \"a, b\"", response))
        #expect(try check("expect header X-None absent", response))
        #expect(try check("expect body ~ here$", response))
        #expect(try check("expect body !~ there", response))
        #expect(try check("expect time < 500ms", response))
        #expect(try !check("expect time < 100ms", response))
        #expect(throws: CommandError.self) { try check("expect $.a == 1", response) }
    }
}

@Suite struct SessionFileTests {
    @Test func readsEntriesWithTheirLines() throws {
        let file = try SessionFile.parse(
            """
            # comment
            base http://a.test

            body {"a": 1,
              "b": 2}
            post /x
            body <<EOF
            text
            EOF
            send
            """, path: "s.fathom")
        #expect(file.entries.map(\.line) == [2, 4, 6, 7, 10])
        #expect(file.entries[1].text == "body {\"a\": 1,\n  \"b\": 2}")
    }

    @Test func reportsFileLineAndColumn() {
        func problem(_ text: String) -> String? {
            do {
                _ = try SessionFile.parse(text, path: "s.fathom")
                return nil
            } catch { return error.description }
        }
        #expect(problem("base http://a\nget /a\nexpect $.a ==\n") == "s.fathom:3:14: missing a value to compare with")
        #expect(
            problem("base http://a\nhedaer X: 1") == "s.fathom:2:1: unknown command 'hedaer' — did you mean 'header'?")
        #expect(problem("get /a\nbody <<EOF\ntext\n")?.hasPrefix("s.fathom:2: this body does not end") == true)
        #expect(problem("# only a comment\n") == "s.fathom: no commands in the file, only comments")
    }

    @Test func unreadableFilesAreProblems() throws {
        let directory = NSTemporaryDirectory() + "fathom-sf-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/empty", contents: Data())
        _ = FileManager.default.createFile(
            atPath: directory + "/binary", contents: Data([0x89, 0x50, 0x4E, 0x47, 0, 1]))
        for (name, message) in [
            ("missing", "no such file"), ("empty", "the file is empty"),
            ("binary", "not a text file (binary or not UTF-8)"), ("", "is a directory, not a session file"),
        ] {
            let path = directory + "/" + name
            #expect(throws: SessionFile.Problem.self) { try SessionFile.read(path) }
            do {
                _ = try SessionFile.read(path)
            } catch {
                #expect(error.message == message)
            }
        }
    }
}

@Suite struct SessionWriterTests {
    static let planted = "planted-Secret-value-7f3a9c"

    func writer(
        _ lines: [(String, SessionLog.Kind)], variables: Variables = Variables(environment: [:]),
        secrets: [String] = [], requestsOnly: Bool = false
    ) -> SessionWriter.Output {
        var log = SessionLog()
        for (text, kind) in lines { log.append(text, kind: kind, summary: kind == .request ? "GET /x → 200 OK" : nil) }
        return SessionWriter(log: log, variables: variables, secretValues: secrets, requestsOnly: requestsOnly)
            .write(fileName: "s.fathom", redactor: Redactor())
    }

    @Test func writesSettingsThenRequestBlocks() {
        let output = writer([
            ("base http://a.test", .setting), ("path /x", .draft), ("send", .request), ("expect status 200", .followUp),
            ("let id = $.id", .followUp), ("set page = 2", .setting), ("get /y/{{id}}", .request),
            ("path /unsent", .draft),
        ])
        #expect(
            output.text == """
                # Fathom session. Replay it with: fathom replay s.fathom
                base http://a.test

                # GET /x → 200 OK
                path /x
                send
                expect status 200
                let id = $.id
                set page = 2

                # GET /x → 200 OK
                get /y/{{id}}

                """)
        #expect(output.requests == 2)
        let requestsOnly = writer([("base http://a.test", .setting), ("get /x", .request)], requestsOnly: true)
        #expect(!requestsOnly.text.contains("base"))
    }

    @Test func secretsAreWrittenAsReferences() {
        var variables = Variables(environment: [:])
        variables.set("token", Self.planted, secret: true)
        let output = writer(
            [
                ("secret token", .setting), ("auth bearer \(Self.planted)", .setting),
                ("auth basic ada:hunter2!", .setting), ("header Authorization: Bearer \(Self.planted)x", .draft),
                ("get /x?t=\(Self.planted)", .request),
            ], variables: variables, secrets: [Self.planted, "hunter2!", Self.planted + "x"])
        #expect(!output.text.contains(Self.planted))
        #expect(!output.text.contains("hunter2"))
        #expect(output.text.contains("auth bearer {{token}}"))
        #expect(output.text.contains("auth basic ada:{{password}}"))
        #expect(output.text.contains("header Authorization: Bearer {{authorization}}"))
        #expect(output.text.contains("secret password\n"))
        #expect(output.namedSecrets == ["password", "authorization"])
    }

    @Test func theFirstLineSaysHowToReplay() {
        var log = SessionLog()
        log.append("base {{demo}}", kind: .setting)
        log.append("get /users/{{id}}", kind: .request)
        let writer = SessionWriter(
            log: log, variables: Variables(environment: [:]), secretValues: [], requestsOnly: false,
            externalNames: ["demo", "id", "unused"])
        #expect(
            writer.write(fileName: "s.fathom", redactor: Redactor()).text.hasPrefix(
                "# Fathom session. Replay it with: fathom replay --demo --var id=… s.fathom\n"))
    }

    @Test func shortSecretsReplaceOnlyWholeWords() {
        let output = writer([("set a = 1", .setting), ("get /x?pin=1234&page=12345", .request)], secrets: ["1234"])
        #expect(output.text.contains("pin={{secret}}&page=12345"))
    }
}

@Suite struct RecordingTests {
    @Test func roundTripsAndMasksSecretFields() throws {
        let redactor = Redactor()
        redactor.addSecret("s3cr3t-value")
        let body = Recording.body(
            Data(
                #"{"token": "abc", "user": {"password": "pw", "name": "Ada"}, "note": "has s3cr3t-value in it", "n": 1.50}"#
                    .utf8),
            contentType: "application/json", redactor: redactor)
        let recording = Recording(
            session: "s.fathom",
            entries: [
                Recording.Entry(
                    request: 1, line: 4, method: "GET", path: "/a", status: 200, contentType: "application/json",
                    body: body),
                Recording.Entry(
                    request: 3, line: nil, method: "GET", path: "/b", status: 404, contentType: "text/plain",
                    body: .text("gone\n")),
                Recording.Entry(
                    request: 4, line: 9, method: "GET", path: "/c", status: 200, contentType: nil,
                    body: .binary(Data([0, 1, 2]))),
                Recording.Entry(
                    request: 5, line: 9, method: "DELETE", path: "/c", status: 204, contentType: nil, body: .empty),
            ])
        let text = recording.serialized()
        #expect(!text.contains("abc"))
        #expect(!text.contains("\"pw\""))
        #expect(!text.contains("s3cr3t-value"))
        #expect(text.contains("\"n\": 1.50"))
        let path = NSTemporaryDirectory() + "fathom-rec-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Recording.load(path) == recording)
        #expect(Recording.path(forSession: "dir/a.fathom") == "dir/a.recording.json")
        #expect(Recording.path(forSession: "a.txt") == "a.txt.recording.json")
    }

    @Test func rejectsWhatIsNotARecording() throws {
        let path = NSTemporaryDirectory() + "fathom-rec-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"responses": [{"request": 1}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CommandError.self) { try Recording.load(path) }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CommandError.self) { try Recording.load(path) }
    }
}
