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
