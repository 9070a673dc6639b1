import Foundation
import Testing

/// `--output json`: one JSON object per output on its own line, for scripts; masked as the text is.
@Suite struct OutputJSONTests {
    static let planted = "planted-secret-4f9d2c7a1b"

    /// Each line of standard output as a JSON object.
    func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line)")
        }
    }

    /// Every kind of object a session prints, each checked against docs/output.schema.json by
    /// ``FathomBinary/run(_:input:environment:directory:)`` (as every `--output json` run is).
    @Test func everyKindOfObjectFollowsTheDocumentedSchema() throws {
        let server = try DemoServerProcess()
        let directory = NSTemporaryDirectory() + "fathom-kinds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try FathomBinary.run(
            ["--output", "json", server.baseURL],
            script: """
                secret token = \(Self.planted)
                default header X-Client: fathom
                auth bearer {{token}}
                spec \(server.baseURL)/openapi.json
                get /users per_page==2
                get /users/1
                let id = $.id
                expect status 200
                expect $.id == 2
                inspect $.name
                diff
                responses
                vars
                timeout
                base
                record on
                show request
                show session
                export curl
                describe getUser
                ls /users
                help send
                reveal token
                api
                get http://127.0.0.1:9/nothing
                get /users/9999
                save \(directory)/kinds.fathom
                body example
                frobnicate
                """)
        #expect(!run.stdout.contains(Self.planted.dropLast(4)) || run.stdout.contains("\"type\":\"revealed\""))
        let types = Set(try objects(run.stdout).compactMap { $0["type"] as? String })
        for type in [
            "event", "response", "capture", "expectation", "inspection", "diff", "listing", "setting", "request",
            "session", "export", "operation", "help", "revealed", "failure",
        ] {
            #expect(types.contains(type), "no \(type) object")
        }
        // A network failure's parts are fields, not only a sentence.
        let refused = try objects(run.stdout).first { $0["kind"] as? String == "network" }
        #expect(refused?["error"] as? String == "connection_refused", "\(refused ?? [:])")
        #expect(refused?["host"] as? String == "127.0.0.1" && refused?["port"] as? Int == 9)
        let replay = try FathomBinary.run(
            ["replay", "--output", "json", "--var", "base=\(server.baseURL)", directory + "/kinds.fathom"],
            environment: ["FATHOM_SECRET_TOKEN": Self.planted])
        let replayTypes = Set(try objects(replay.stdout).compactMap { $0["type"] as? String })
        #expect(replayTypes.isSuperset(of: ["replay_request", "replay_summary"]), "\(replay.stdout)")
    }

    @Test func aScriptPrintsOneObjectPerOutput() throws {
        let server = try DemoServerProcess()
        let run = try FathomBinary.run(
            ["--output", "json", server.baseURL],
            script: """
                secret token = \(Self.planted)
                get /users/1
                expect status 200
                expect $.name == "Grace"
                let name = $.name
                header X-Token: {{token}}
                post /echo note={{token}}
                get /nope/404
                frobnicate /x
                base
                """)
        #expect(run.status == 1, "an expectation and a line failed")
        #expect(!run.stdout.contains(Self.planted), "the planted secret never appears")
        #expect(!run.stderr.contains(Self.planted))
        #expect(run.stderr.isEmpty, "in JSON mode failures are objects on standard output")
        let objects = try objects(run.stdout)
        #expect(
            objects.map { $0["type"] as? String } == [
                "response", "expectation", "expectation", "capture", "response", "response", "failure", "setting",
            ])

        let user = objects[0]
        #expect(user["number"] as? Int == 1)
        #expect(user["method"] as? String == "GET")
        #expect(user["url"] as? String == "\(server.baseURL)/users/1")
        #expect(user["status"] as? Int == 200)
        #expect(user["reason"] as? String == "OK")
        let headers = try #require(user["headers"] as? [[String]])
        #expect(headers.contains(["Content-Type", "application/json"]))
        let body = try #require(user["body"] as? [String: Any])
        #expect(body["name"] as? String == "Ada Lovelace", "a JSON body is JSON, not a string")
        #expect((user["time_ms"] as? Double).map { $0 > 0 } == true)

        #expect(objects[1]["passed"] as? Bool == true)
        #expect(objects[1]["text"] as? String == "expect status 200")
        #expect(objects[2]["passed"] as? Bool == false)
        #expect(objects[2]["expected"] as? String == #""Grace""#)
        #expect(objects[2]["actual"] as? String == #""Ada Lovelace""#)

        #expect(objects[3]["name"] as? String == "name")
        #expect(objects[3]["value"] as? String == "Ada Lovelace")
        #expect(objects[3]["secret"] as? Bool == false)

        // The demo echoes the request: the secret comes back in a header and the body, masked.
        let echo = objects[4]
        #expect(echo["status"] as? Int == 200)
        #expect(echo.description.contains("••••"), "the echoed secret is masked")

        #expect(objects[5]["status"] as? Int == 404)
        let failure = objects[6]
        #expect(
            failure["message"] as? String
                == "error at column 1: unknown command 'frobnicate' — type `help` for the list")
        #expect(failure["reason"] as? String == "unknown command 'frobnicate'")
        #expect(failure["hint"] as? String == "type `help` for the list")
        #expect(failure["column"] as? Int == 1)
        #expect(objects[7]["name"] as? String == "base")
        #expect(objects[7]["value"] as? String == server.baseURL)
    }

    @Test func aReplayReportsRequestsAndASummary() throws {
        let server = try DemoServerProcess()
        let directory = NSTemporaryDirectory() + "fathom-json-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/check.fathom"
        try """
        base {{base}}
        secret token
        get /users/2 X-Token:{{token}}
        expect status 200
        expect $.id == 3
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(
            ["replay", "--output", "json", "--var", "base=\(server.baseURL)", file],
            environment: ["FATHOM_SECRET_TOKEN": Self.planted])
        #expect(run.status == 1)
        #expect(!run.stdout.contains(Self.planted))
        let objects = try objects(run.stdout)
        #expect(
            objects.map { $0["type"] as? String } == [
                "response", "expectation", "expectation", "replay_request", "replay_summary",
            ])
        let failed = objects[2]
        #expect(failed["passed"] as? Bool == false)
        #expect(failed["file"] as? String == file)
        #expect(failed["line"] as? Int == 5)
        let request = objects[3]
        #expect(request["name"] as? String == "get /users/2 (line 3)", "the file as written: the same on every run")
        #expect(request["sent"] as? String == "GET /users/2")
        #expect(request["outcome"] as? String == "failed")
        #expect(request["status"] as? Int == 200)
        #expect(request["expectations"] as? Int == 2)
        #expect(request["failed_expectations"] as? Int == 1)
        #expect((request["failures"] as? [String])?.first?.contains("expected 3, got 2") == true)
        let summary = objects[4]
        #expect(summary["passed"] as? Bool == false)
        #expect(summary["status"] as? Int == 1)
        #expect(summary["requests"] as? Int == 1)
        let failing = summary["failing"] as? [[String: Any]]
        #expect(failing?.first?["file"] as? String == file && failing?.first?["lines"] as? [Int] == [3])
    }
}
