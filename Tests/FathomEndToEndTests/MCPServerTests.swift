import Foundation
import Testing

/// `fathom mcp` driven by an MCP client nobody here wrote — Python's `mcp` package
/// (`Tests/Servers/mcp_client.py`) — over stdio: the handshake, the tools with their schemas and
/// truthful annotations, 20 calls against the demo (its description loaded), a server of the
/// client's that echoes credentials in UTF-16 and httpbin (a second server that must receive
/// nothing meant for the others), every structuredContent valid against docs/output.schema.json,
/// the read-only rule, and a transcript that `fathom replay` runs to the same statuses. A planted
/// token is in no message the server wrote.
@Suite(
    .enabled(
        if: PythonServer.python != nil && HTTPBin.baseURL != nil,
        "needs FATHOM_PYTHON with mcp and FATHOM_HTTPBIN_URL: run through `make test`"))
struct MCPServerTests {
    static let planted = "mcp-Planted-7f3a9c2e51"

    @Test func anMCPClientNobodyHereWroteDrivesASessionWithEveryGuard() throws {
        let directory = NSTemporaryDirectory() + "fathom-mcp-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let python = try #require(PythonServer.python)
        let httpbin = try #require(HTTPBin.baseURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            FathomBinary.packageRoot + "/Tests/Servers/mcp_client.py", FathomBinary.binary,
            FathomBinary.packageRoot + "/docs/output.schema.json", directory, httpbin, Self.planted,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: stdout) as? [String: Any],
            "\(String(decoding: stdout, as: UTF8.self))")

        #expect(report["protocol"] as? String == "2025-11-25")
        #expect(report["server"] as? String == "fathom")
        let tools = try #require(report["tools"] as? [String: [String: Any]])
        #expect(
            Set(tools.keys) == [
                "send", "op", "graphql", "call", "ls", "describe", "inspect", "expect", "responses", "save",
            ])
        for (name, tool) in tools {
            #expect((tool["input"] as? [String: Any])?["type"] as? String == "object", "\(name)")
            #expect((tool["output"] as? [String: Any])?["required"] as? [String] == ["ok", "outputs"], "\(name)")
            // Read-only as started: nothing may change the server, and the tools say so.
            #expect(tool["readOnly"] as? Bool == true && tool["destructive"] as? Bool == false, "\(name): \(tool)")
        }
        #expect(tools["send"]?["openWorld"] as? Bool == true && tools["ls"]?["openWorld"] as? Bool == false)
        let writeTools = try #require(report["writeTools"] as? [String: Bool])
        #expect(
            writeTools["send"] == true && writeTools["op"] == true && writeTools["graphql"] == true
                && writeTools["call"] == true && writeTools["ls"] == false)
        #expect((report["invalid"] as? [String])?.isEmpty == true, "\(report["invalid"] ?? "")")

        let calls = try #require(report["calls"] as? [[String: Any]])
        #expect(calls.count == 32)
        func call(_ index: Int) -> (error: Bool, text: String, outputs: [[String: Any]]) {
            let call = calls[index]
            return (
                call["error"] as? Bool ?? true, call["text"] as? String ?? "", call["outputs"] as? [[String: Any]] ?? []
            )
        }
        // A GET against the demo: its response object, checked against the description.
        #expect(!call(0).error && call(0).text.contains("200 OK") && call(0).text.contains("schema ✓"), "\(call(0))")
        #expect(call(0).outputs.first?["type"] as? String == "response")
        #expect(!call(2).error && call(2).text.contains("✓ expect $.name == \"Ada Lovelace\""))
        // op with the description loaded; ls and describe read it.
        #expect(!call(6).error && call(6).text.contains("#3"), "\(call(6))")
        #expect(call(8).text.contains("getUser") && call(9).text.contains("GET /users/{id}"))
        // The demo's echo got the bearer token and the API key (its API's): masked in the answer.
        #expect(call(10).text.contains("\"Bearer ••••"), "\(call(10).text)")
        #expect(call(10).text.contains("\"X-Api-Key\",\n      \"••••"), "\(call(10).text)")
        // The UTF-16 server got its own API's basic credentials and echoed them: masked in that
        // charset and that spelling too.
        #expect(!call(12).error && call(12).text.contains("\"Basic ••••"), "\(call(12).text)")
        // httpbin, another origin: no credentials, no default of another API.
        #expect(!call(13).error, "\(call(13))")
        let response = call(13).outputs.first { $0["type"] as? String == "response" }
        let echoed = (response?["body"] as? [String: Any])?["headers"] as? [String: Any] ?? [:]
        #expect(echoed["X-Agent"] as? String == "yes", "\(echoed)")
        #expect(echoed["Authorization"] == nil, "httpbin received credentials meant for another API: \(echoed)")
        // Writes refused without --allow-writes, and sent with it; an argument is never expanded.
        #expect(call(15).error && call(15).text.contains("read-only: nothing was sent"), "\(call(15))")
        #expect(call(16).error && call(16).text.contains("tool arguments are not expanded"), "\(call(16))")
        // A body that would drive a terminal reaches the agent's text without its escapes.
        #expect(!call(20).error && call(20).text.contains("done"), "\(call(20))")
        #expect(!call(20).text.contains("\u{1B}") && !call(20).text.contains("\u{07}"), "\(call(20).text)")
        // GraphQL: a query goes (its endpoint set once, its schema loaded), a mutation does not.
        #expect(!call(21).error && call(21).text.contains("schema ✓"), "\(call(21))")
        #expect(call(22).error && call(22).text.contains("nothing was sent"), "\(call(22))")
        #expect(!call(23).error && call(23).text.contains("200 OK"), "\(call(23))")
        // gRPC: Fathom cannot tell what a method changes — refused read-only, made with --allow-writes.
        #expect(call(24).error && call(24).text.contains("nothing was sent"), "\(call(24))")
        #expect(!call(25).error && call(25).text.contains("fathom.demo.v1.Todos/GetUser"), "\(call(25))")
        #expect(!call(26).error && call(26).text.contains("gRPC OK"), "\(call(26))")
        #expect(!call(27).error && call(27).text.contains("✓ expect status OK"), "\(call(27))")
        // A client that can ask its person (elicitation): accepted, that one request is sent;
        // declined, nothing is.
        let asked = report["asked-accept"] as? [String] ?? []
        #expect(asked.count == 1 && asked[0].contains("POST /echo"), "\(asked)")
        #expect(!call(28).error && call(28).text.contains("200 OK"), "\(call(28))")
        #expect((report["asked-decline"] as? [String])?.count == 1)
        #expect(call(29).error && call(29).text.contains("nothing was sent"), "\(call(29))")
        // `validate strict` in the setup: what the description forbids is refused, the rest sent.
        #expect(call(30).error && !call(30).text.contains("200 OK"), "\(call(30))")
        #expect(call(30).text.contains("per_page"), "\(call(30))")
        #expect(!call(31).error && call(31).text.contains("200 OK"), "\(call(31))")
        #expect(call(19).text.contains("saved"), "\(call(19))")
        #expect(
            (report["resources"] as? [String]) == ["fathom://session", "fathom://description", "fathom://transcript"])
        #expect((report["description"] as? String)?.hasPrefix("3.") == true, "\(report["description"] ?? "")")
        #expect((report["prompts"] as? [String]) == ["explore", "regression"])
        #expect((report["explore"] as? String)?.contains("to find out: who the users are") == true)
        let shown = report["session"] as? String ?? ""
        #expect(shown.contains("auth    bearer {{token}}") && shown.contains("var       token = ••••"), "\(shown)")

        // The transcript: the requests that went, their checks, the token by name; it replays.
        let transcript = try #require(report["transcript"] as? String)
        #expect(transcript.contains("secret token\n"), "\(transcript)")
        #expect(
            transcript.contains("get /users/1\nexpect status 200\nexpect $.name == \"Ada Lovelace\""), "\(transcript)")
        #expect(transcript.contains("op getUser id:=2"), "\(transcript)")
        #expect(!transcript.contains("post"), "\(transcript)")
        let replay = try #require(report["replay"] as? [String: Any])
        #expect(replay["status"] as? Int == 0, "\(replay)")
        #expect((replay["stdout"] as? String)?.contains("8 requests: 8 passed") == true, "\(replay)")
        // The same statuses: each request's, as the transcript's comment has it, in the replay's report.
        for line in transcript.split(separator: "\n") where line.hasPrefix("# ") && line.contains(" → ") {
            let parts = line.dropFirst(2).components(separatedBy: " → ")
            #expect((replay["stdout"] as? String)?.contains("\(parts[0])  \(parts[1])") == true, "\(line)")
        }
        // Recorded beside it: compared on the next run, nothing but volatile fields differ.
        let compare = try #require(report["compare"] as? [String: Any])
        #expect(compare["status"] as? Int == 0, "\(compare)")
        #expect((compare["stdout"] as? String)?.contains("8 compared with recordings") == true, "\(compare)")

        // No message the server wrote holds the token, in any spelling.
        let messages = try String(contentsOfFile: directory + "/server-messages.jsonl", encoding: .utf8)
        #expect(messages.contains("\"jsonrpc\""))
        for spelling in [
            Self.planted, Data(Self.planted.utf8).base64EncodedString(),
            String(decoding: Self.planted.data(using: .utf16LittleEndian)!, as: UTF8.self),
        ] {
            #expect(!messages.contains(spelling), "a message shows the planted token as '\(spelling)'")
        }
        let recording = try String(contentsOfFile: directory + "/agent.recording.json", encoding: .utf8)
        for text in [
            stderr, transcript, recording, replay["stdout"] as? String ?? "", replay["stderr"] as? String ?? "",
        ] {
            #expect(!text.contains(Self.planted), "the token leaked: \(text)")
        }
    }
}
