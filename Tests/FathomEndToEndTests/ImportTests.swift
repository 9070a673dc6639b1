import FathomTestSupport
import Foundation
import Testing

/// `fathom import` and `import` at the prompt, against the demo API.
@Suite struct ImportTests {
    static let planted = "import-Token-4d2e9b"

    func har(_ base: String) -> String {
        #"""
        {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
          {"request": {"method": "GET", "url": "\#(base)/users/2", "httpVersion": "HTTP/1.1",
            "headers": [{"name": "Authorization", "value": "Bearer \#(Self.planted)"}, {"name": ":authority", "value": "x"}]}},
          {"request": {"method": "POST", "url": "\#(base)/echo?from=har", "httpVersion": "HTTP/1.1",
            "headers": [{"name": "Content-Type", "value": "application/json"}],
            "postData": {"mimeType": "application/json", "text": "{\"a\": 1}"}}}
        ]}}
        """#
    }

    @Test func aHARBecomesASessionFileThatReplays() throws {
        let server = try DemoServerProcess(accessLog: true)
        let directory = NSTemporaryDirectory() + "fathom-import-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try har(server.baseURL).write(toFile: directory + "/api.har", atomically: true, encoding: .utf8)

        let imported = try FathomBinary.run(["import", directory + "/api.har"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stdout.contains(Self.planted))
        #expect(imported.stdout.contains("secret authorization"))
        try imported.stdout.write(toFile: directory + "/api.fathom", atomically: true, encoding: .utf8)

        let replay = try FathomBinary.run(
            ["replay", directory + "/api.fathom"],
            environment: ["FATHOM_SECRET_AUTHORIZATION": "Bearer \(Self.planted)"])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(server.takeRequests() == ["GET /users/2", #"POST /echo?from=har {"a": 1}"#])

        // At the prompt: the entries run in order, the credential a secret of this session.
        let prompt = try FathomBinary.run(["-c", "import har \(directory)/api.har", "-c", "vars"])
        #expect(prompt.status == 0, "\(prompt.stderr)")
        #expect(prompt.stdout.contains("Grace Hopper"))
        #expect(!prompt.stdout.contains(Self.planted))
        #expect(prompt.stdout.contains("(secret)"))
        #expect(server.takeRequests().count == 2)

        let broken = try FathomBinary.run(["import", "--format", "har", directory + "/api.fathom"])
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("fathom import: \(directory)/api.fathom:1:1: not valid JSON"))
    }

    /// `fathom import -` reads what is piped in (`pbpaste | fathom import -`); a line with two URLs
    /// becomes two requests, and the password stays a reference.
    @Test func importReadsStandardInput() throws {
        let run = try FathomBinary.run(
            ["import", "-"], script: "curl -u ada:stdin-Secret-41 https://api.test/x https://api.test/y -d a=1")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("# Fathom session imported from standard input (curl)."))
        #expect(run.stdout.contains("auth draft basic ada:{{password}}"))
        #expect(run.stdout.contains("path https://api.test/x") && run.stdout.contains("path https://api.test/y"))
        #expect(!run.stdout.contains("stdin-Secret-41"))
    }

    /// A HAR is its own recording: replayed with --compare, today's responses are checked against
    /// the ones it holds, its credentials its own.
    @Test func aHARReplaysAgainstItsOwnResponses() throws {
        let server = try DemoServerProcess(accessLog: true)
        let directory = NSTemporaryDirectory() + "fathom-harcmp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", server.baseURL + "/users/2"]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let body = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        func har(_ body: String) throws -> String {
            let text = String(
                decoding: try JSONSerialization.data(withJSONObject: body, options: .fragmentsAllowed), as: UTF8.self)
            return #"""
                {"log": {"version": "1.2", "entries": [
                  {"request": {"method": "GET", "url": "\#(server.baseURL)/users/2",
                     "headers": [{"name": "Authorization", "value": "Bearer \#(Self.planted)"}]},
                   "response": {"status": 200, "content": {"mimeType": "application/json", "text": \#(text)}}}
                ]}}
                """#
        }
        try har(body).write(toFile: directory + "/same.har", atomically: true, encoding: .utf8)
        let same = try FathomBinary.run(["replay", "--compare", directory + "/same.har"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("1 compared with recordings"))
        #expect(!same.stdout.contains(Self.planted))

        try har(body.replacingOccurrences(of: "Grace Hopper", with: "Grace H.")).write(
            toFile: directory + "/changed.har", atomically: true, encoding: .utf8)
        let changed = try FathomBinary.run(["replay", "--compare", directory + "/changed.har"])
        #expect(changed.status == 1)
        #expect(changed.stdout.contains(#"~ $['name']  "Grace H." → "Grace Hopper""#), "\(changed.stdout)")
        // A field that changes on its own is left out from the command line, as `volatile` in a file.
        let tolerant = try FathomBinary.run(["replay", "--compare", "--volatile", "$.name", directory + "/changed.har"])
        #expect(tolerant.status == 0, "\(tolerant.stdout)\(tolerant.stderr)")
        let bad = try FathomBinary.run(["replay", "--compare", "--volatile", "$[", directory + "/changed.har"])
        #expect(bad.status != 0 && bad.stderr.contains("--volatile '$['"), "\(bad.stderr)")
    }

    /// A Postman collection whose auth is set on the collection, a folder and requests: each
    /// imported request carries exactly the credentials Postman would send, and the replay
    /// expects the status of each request's saved example.
    @Test func postmanAuthResolvesPerRequestAndStatusesAreExpected() throws {
        let server = try FaultServer { path, head in
            path == "/gone" ? .response("404 Not Found", body: "{}") : .response(body: "{}")
        }
        defer { server.stop() }
        let directory = NSTemporaryDirectory() + "fathom-postman-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let base = server.baseURL
        let collection = """
            {"info": {"name": "mixed", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "collection-Token-77"}]},
             "item": [
               {"name": "basic", "request": {"method": "GET", "url": "\(base)/basic",
                 "auth": {"type": "basic", "basic": [{"key": "username", "value": "ada"}, {"key": "password", "value": "pw-Basic-31"}]}},
                 "response": [{"name": "ok", "code": 200}]},
               {"name": "inherits", "request": {"method": "GET", "url": "\(base)/inherits"}},
               {"name": "folder", "auth": {"type": "noauth"}, "item": [
                 {"name": "none", "request": {"method": "GET", "url": "\(base)/none"}},
                 {"name": "gone", "request": {"method": "GET", "url": "\(base)/gone"}, "response": [{"code": 404}]}
               ]}
             ]}
            """
        try collection.write(toFile: directory + "/c.json", atomically: true, encoding: .utf8)
        let imported = try FathomBinary.run(["import", directory + "/c.json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stdout.contains("collection-Token-77") && !imported.stdout.contains("pw-Basic-31"))
        #expect(imported.stdout.contains("auth draft basic ada:{{password}}"))
        #expect(imported.stdout.contains("auth draft bearer {{token}}"))
        #expect(imported.stdout.contains("auth draft none"))
        #expect(imported.stdout.contains("expect status 404"))
        try imported.stdout.write(toFile: directory + "/c.fathom", atomically: true, encoding: .utf8)

        let replay = try FathomBinary.run(
            ["replay", directory + "/c.fathom"],
            environment: ["FATHOM_SECRET_TOKEN": "collection-Token-77", "FATHOM_SECRET_PASSWORD": "pw-Basic-31"])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        let heads = server.requests
        #expect(heads.count == 4)
        func authorization(_ head: String) -> String? {
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("authorization:") }.map(String.init)
        }
        #expect(authorization(heads[0]) == "Authorization: Basic \(Data("ada:pw-Basic-31".utf8).base64EncodedString())")
        #expect(authorization(heads[1]) == "Authorization: Bearer collection-Token-77")
        #expect(authorization(heads[2]) == nil, "noauth on the folder: none")
        #expect(authorization(heads[3]) == nil)
    }

    /// A HAR's recorded statuses become expectations: a replay where the server answers
    /// otherwise fails, instead of passing whatever the status.
    @Test func harStatusesAreExpected() throws {
        let answers = Locked(200)
        let server = try FaultServer { _, _ in
            answers.value == 200 ? .response(body: "{}") : .response("401 Unauthorized", body: "{}")
        }
        defer { server.stop() }
        let directory = NSTemporaryDirectory() + "fathom-harstatus-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let har =
            #"{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"\#(server.baseURL)/a","headers":[]},"response":{"status":200,"content":{"mimeType":"application/json","text":"{}"}}}]}}"#
        try har.write(toFile: directory + "/a.har", atomically: true, encoding: .utf8)
        let imported = try FathomBinary.run(["import", directory + "/a.har"])
        #expect(imported.stdout.contains("send\nexpect status 200"))
        try imported.stdout.write(toFile: directory + "/a.fathom", atomically: true, encoding: .utf8)
        #expect(try FathomBinary.run(["replay", directory + "/a.fathom"]).status == 0)
        answers.withLock { $0 = 401 }
        let failing = try FathomBinary.run(["replay", directory + "/a.fathom"])
        #expect(failing.status == 1, "\(failing.stdout)")
        #expect(failing.stdout.contains("expected 200, got 401"))
    }

    /// A session saved against the demo replays against a demo on another port: the URLs it
    /// sent to are written through `{{demo}}`.
    @Test func aDemoSessionReplaysOnANewPort() throws {
        let directory = NSTemporaryDirectory() + "fathom-demoport-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A curl line as copied from a browser names the demo's address as it is now.
        let first = try FathomBinary.run(
            ["--demo", "--color", "never"],
            script: """
                get /users/1
                import curl -
                curl {{demo}}/users/2 -H 'Accept: application/json'
                send
                curl {{demo}}/users/3
                save \(directory)/demo.fathom
                """)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let saved = try String(contentsOfFile: directory + "/demo.fathom", encoding: .utf8)
        #expect(saved.contains("path {{demo}}/users/2"), "\(saved)")
        // The curl command's URL was the demo's address, expanded: it is saved through `{{demo}}`.
        #expect(saved.contains("path {{demo}}/users/3"), "\(saved)")
        #expect(!saved.contains("http://127.0.0.1:"), "\(saved)")
        let replay = try FathomBinary.run(["replay", "--demo", directory + "/demo.fathom"])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    }
}
