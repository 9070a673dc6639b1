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
}
