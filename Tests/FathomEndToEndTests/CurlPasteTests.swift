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
}
