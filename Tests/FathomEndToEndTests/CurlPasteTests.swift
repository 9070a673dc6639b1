import FathomTestSupport
import Foundation
import Testing

/// A curl command pasted into Fathom, as a user brings one from docs or devtools.
@Suite struct CurlPasteTests {
    @Test func aPastedCurlBlockIsSentAndSavedWithItsSecretByName() throws {
        let server = try DemoServerProcess(accessLog: true)
        let directory = NSTemporaryDirectory() + "fathom-curl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try FathomBinary.run(
            [],
            script: """
                curl -sS -X POST \\
                  '\(server.baseURL)/echo?page=2' \\
                  -H 'X-Trace: abc' \\
                  -u 'ada:curl-Pass-7e1f2a' \\
                  --data-raw '{
                    "name": "Ada"
                  }'
                expect $.method == "POST"
                save \(directory)/pasted.fathom
                curl \(server.baseURL)/users/1 | jq .
                """, directory: directory)
        #expect(run.status == 1, "the piped line fails")
        #expect(run.stderr.contains("a pipe is not taken: Fathom runs one curl command"))
        #expect(!run.stdout.contains("curl-Pass-7e1f2a") && !run.stderr.contains("curl-Pass-7e1f2a"))
        #expect(run.stdout.contains("ignored (curl's own output and transfer): -s -S"))
        let received = server.takeRequests()
        #expect(received.count == 1, "the piped line sent nothing: \(received)")
        #expect(received.first?.hasPrefix("POST /echo?page=2") == true)
        let saved = try String(contentsOfFile: directory + "/pasted.fathom", encoding: .utf8)
        #expect(!saved.contains("curl-Pass-7e1f2a"))
        #expect(saved.contains("secret password"))

        let replay = try FathomBinary.run(
            ["replay", directory + "/pasted.fathom"], environment: ["FATHOM_SECRET_PASSWORD": "curl-Pass-7e1f2a"])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(server.takeRequests().first?.hasPrefix("POST /echo?page=2") == true)
    }

    /// `import curl -` takes the command pasted after it into the draft without sending it;
    /// `save` writes the lines it became, so the session replays; `import har -` runs a pasted
    /// log's entries. A session file has no paste to read.
    @Test func aCommandPastedAfterImportDashBecomesTheDraft() throws {
        let server = try DemoServerProcess(accessLog: true)
        let directory = NSTemporaryDirectory() + "fathom-paste-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let planted = "pasted-Token-4c19e2"
        let run = try FathomBinary.run(
            ["--color", "never"],
            script: """
                import curl -

                curl -X PUT '\(server.baseURL)/echo?v=1' \\
                  -H 'Authorization: Bearer \(planted)' \\
                  -k --max-time 5 \\
                  --data-raw '{"note":
                    "hi"}'
                show request
                send
                expect $.method == "PUT"
                expect $.body ~ "note"
                import har -
                {"log": {"version": "1.2", "entries": [
                  {"request": {"method": "DELETE", "url": "\(server.baseURL)/echo/har", "headers": []}}
                ]}}
                save \(directory)/pasted.fathom
                """, directory: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("paste the curl command: it ends where the command does"))
        #expect(run.stdout.contains("imported the pasted command into the draft; `send` sends it"))
        #expect(run.stdout.contains("PUT \(server.baseURL)/echo?v=1"))
        #expect(!run.stdout.contains(planted) && !run.stderr.contains(planted))
        #expect(
            server.takeRequests() == ["PUT /echo?v=1 (18 bytes)", "DELETE /echo/har"], "the paste itself sent nothing")
        let saved = try String(contentsOfFile: directory + "/pasted.fathom", encoding: .utf8)
        #expect(!saved.contains(planted) && !saved.contains("import curl -"))
        #expect(
            saved.contains("secret authorization") && saved.contains("insecure on") && saved.contains("timeout 5s"))

        let replay = try FathomBinary.run(
            ["replay", directory + "/pasted.fathom"], environment: ["FATHOM_SECRET_AUTHORIZATION": "Bearer \(planted)"])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(server.takeRequests() == ["PUT /echo?v=1 (18 bytes)", "DELETE /echo/har"])

        try "import curl -\nget /users/1\n".write(
            toFile: directory + "/paste.fathom", atomically: true, encoding: .utf8)
        let file = try FathomBinary.run(["--color", "never"], script: "load \(directory)/paste.fathom\n")
        #expect(
            file.stderr.contains("error: `import … -` reads a paste at the prompt — in a file, name the file to import")
        )
        let broken = try FathomBinary.run(["--color", "never"], script: "import har -\n{\"log\": 3}\nvars\n")
        #expect(broken.stderr.contains("error: the paste is not a HAR log"), "\(broken.stderr)")
    }

    /// A SOCKS5 proxy, set with `proxy socks5://…` or from a curl line's `--socks5-hostname`,
    /// carries the requests; `socks://` (SOCKS4 to curl) is one clear error, nothing sent.
    @Test func requestsGoThroughASOCKS5Proxy() throws {
        let server = try DemoServerProcess(accessLog: true)
        let proxy = try TunnelProxy(.socks5)
        defer { proxy.stop() }
        let port = server.baseURL.split(separator: ":").last!
        let run = try FathomBinary.run(
            ["--color", "never"],
            script: """
                proxy socks5://127.0.0.1:\(proxy.port)
                get http://localhost:\(port)/users/1
                expect status == 200
                proxy off
                curl --socks5-hostname 127.0.0.1:\(proxy.port) http://127.0.0.1:\(port)/users/2
                expect $.id == 2
                curl -x socks://127.0.0.1:\(proxy.port) http://localhost:\(port)/users/3
                """)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(proxy.requests.value == ["SOCKS5 localhost:\(port)", "SOCKS5 127.0.0.1:\(port)"])
        #expect(server.takeRequests() == ["GET /users/1", "GET /users/2"])
        #expect(run.stderr.contains("SOCKS4 is not spoken here — socks5:// if the proxy speaks SOCKS5"))
        #expect(!run.stderr.contains("✗ expect"))
    }

    /// What curl itself would do with these lines: a file part keeps its `;type=` and
    /// `;filename=`, `-X GET -d` is a GET with a body, and several URLs are each sent in turn.
    @Test func filePartsBodiesOnGetAndSeveralURLsGoAsCurlSendsThem() throws {
        let server = try DemoServerProcess()
        let directory = NSTemporaryDirectory() + "fathom-curl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: directory + "/note.txt"))
        let run = try FathomBinary.run(
            ["--color", "never"],
            script: """
                curl -F 'doc=@note.txt;type=text/x-note;filename=renamed.txt' \(server.baseURL)/echo
                expect $.body ~ "name=.doc.; filename=.renamed.txt."
                expect $.body ~ "Content-Type: text/x-note"
                curl -X GET \(server.baseURL)/echo -d q=1
                expect $.method == "GET"
                expect $.body == "q=1"
                curl \(server.baseURL)/echo/a \(server.baseURL)/echo/b
                expect $.path == "/echo/b"
                """, directory: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("the curl line has 2 URLs: each is sent in turn, as curl does"))
        #expect(run.stdout.components(separatedBy: "200 OK").count == 5, "\(run.stdout)")
    }
}
