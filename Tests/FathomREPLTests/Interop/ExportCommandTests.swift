import FathomHTTP
import FathomTestSupport
import Foundation
import Testing

@testable import FathomREPL

@Suite struct ExportCommandTests {
    @Test func parsesTheFormatAndAResponse() throws {
        #expect(try parse("export curl") == ExportCommand(format: .curl, response: nil))
        #expect(try parse("export httpie #3") == ExportCommand(format: .httpie, response: 3))
        #expect(try parse("export swift --all") == ExportCommand(format: .swift, response: nil, all: true))
        #expect(try parse("export har s.har") == ExportCommand(format: .har, response: nil, all: true, file: "s.har"))
        #expect(parseError("export har")?.message == "missing a file")
        #expect(parseError("export hra")?.advice == "did you mean 'har'?")
    }

    /// Sent by Fathom, exported, run by bash: the server sees the same request twice, and the
    /// command holds no secret.
    @Test(arguments: [
        ["post /users name=Ada tags:='[1,2]' X-Token:{{token}} page==2"],
        ["auth basic ada:{{token}}", "put /files/1 note='it'\"'\"'s' X-Trace:abc"],
        ["body form a=1 b='two words' c={{token}}", "method PATCH", "path /form", "send"],
        ["body multipart note=hi file@\(#filePath)", "method POST", "path /upload", "send"],
        ["header Accept: text/plain", "head /h"],
    ])
    func anExportedCommandSendsTheSameRequest(lines: [String]) async throws {
        let server = try FaultServer { _, _ in .response(body: "ok") }
        defer { server.stop() }
        let secret = "export-Secret-3b9d71"
        let executor = Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:]))
        for line in ["base \(server.baseURL)", "secret token = \(secret)"] + lines {
            let result = await executor.run(line)
            #expect(result.outcome == .succeeded, "\(line): \(result.outputs)")
        }
        let exported = await executor.run("export curl #1")
        guard case .export(let export)? = exported.outputs.first else {
            Issue.record("no command: \(exported.outputs)")
            return
        }
        let command = export.text
        #expect(!command.contains(secret))
        #expect(command.contains("${FATHOM_SECRET_TOKEN}") || !lines.joined().contains("{{token}}"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", command.replacingOccurrences(of: "curl", with: "curl -s -o /dev/null", options: .anchored),
        ]
        process.environment = ["FATHOM_SECRET_TOKEN": secret, "PATH": "/usr/bin:/bin"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(command)")
        #expect(server.requests.count == 2, "\(command)")
        guard server.requests.count == 2 else { return }
        /// The request line, then the header fields by name (order and the case of names aside).
        func normalized(_ head: String) -> [String] {
            let lines = head.components(separatedBy: "\r\n")
            let fields = lines.dropFirst().filter { !$0.lowercased().hasPrefix("content-length:") }.map { line in
                guard let colon = line.firstIndex(of: ":") else { return line }
                return line[..<colon].lowercased() + line[colon...]
            }
            return [lines[0]] + fields.sorted()
        }
        #expect(normalized(server.requests[1]) == normalized(server.requests[0]), "\(command)")
        #expect(server.bodies[1] == server.bodies[0], "\(command)")
    }

    /// The exporters on their own: method, URL, headers and body as the tool writes them, a
    /// secret by name, `--compressed` when the request asks for compression.
    @Test func curlAndHTTPieWriteTheRequest() throws {
        var request = try NetworkRequest("https://api.test/users?page=2", method: .post)
            .header(NetworkHeaders.Name("X-Token"), "tok-Secret-1234")
            .header(.acceptEncoding, "gzip")
            .body(Data(#"{"a": "it's"}"#.utf8))
            .prepared()
        request.headers.add(.authorization, "Basic \(Data("ada:pw-Secret-99".utf8).base64EncodedString())")
        let secrets = ExportSecrets([
            .init(value: "tok-Secret-1234", name: "token"), .init(value: "pw-Secret-99", name: "password"),
        ])
        let curl = try CurlExport(secrets: secrets).command(for: request)
        #expect(curl.contains("-X POST 'https://api.test/users?page=2' --compressed \\\n"), "\(curl)")
        #expect(curl.contains(#"-H "X-Token: ${FATHOM_SECRET_TOKEN}""#))
        #expect(curl.contains(#"-u "ada:${FATHOM_SECRET_PASSWORD}""#))
        #expect(curl.contains(#"--data-binary '{"a": "it'\''s"}'"#))
        #expect(!curl.contains("tok-Secret-1234") && !curl.contains("pw-Secret-99"))
        let httpie = try HTTPieExport(secrets: secrets).command(for: request)
        #expect(httpie.hasPrefix("http --ignore-stdin -a \"ada:${FATHOM_SECRET_PASSWORD}\" --raw"), "\(httpie)")
        #expect(httpie.contains("POST 'https://api.test/users?page=2'"))
        #expect(httpie.contains(#""X-Token:${FATHOM_SECRET_TOKEN}""#))
        let plain = try CurlExport(secrets: ExportSecrets([])).command(
            for: try NetworkRequest.get("http://a.test/").prepared())
        #expect(!plain.contains("--compressed"))
    }
}
