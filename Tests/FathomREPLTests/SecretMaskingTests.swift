import FathomDemo
import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

/// A planted secret must never come out: not in output, errors, `show`, `vars`, or the wire log
/// at any level — even when the server echoes it back in headers and body.
@Suite struct SecretMaskingTests {
    static let planted = "planted-Secret-value-7f3a9c"

    @Test(arguments: ["info", "headers", "body"])
    func plantedSecretNeverAppears(logLevel: String) async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let logFile = NSTemporaryDirectory() + "fathom-wire-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: logFile) }

        let session = Transcript(environment: ["FATHOM_SECRET_APIKEY": Self.planted + "-key"])
        let outcomes = await session.run(
            """
            base \(server.baseURL)
            log \(logLevel) \(logFile)
            secret token = \(Self.planted)
            secret apikey
            auth bearer {{token}}
            default header X-Api-Key: {{apikey}}
            vars
            auth
            show request
            post /echo?token={{token}} X-Echo:{{token}} field={{token}} nested:='{"t": "{{token}}"}'
            show #1
            show request
            get /users/{{token}}
            get http://127.0.0.1:9/{{token}}
            get "http://user:{{token}}@127.0.0.1:9/"
            set copy = {{token}}
            set token = \(Self.planted)-rotated
            get /echo?t={{token}}
            auth basic ada:{{copy}}
            show session
            history
            """)
        #expect(outcomes.filter { $0 == .failed }.count == 2)
        let transcript = session.console.stdout + session.console.stderr
        let log = try String(contentsOfFile: logFile, encoding: .utf8)
        #expect(log.contains("request"), "the wire log was written")
        #expect(transcript.contains("••••"), "secrets show masked")
        for text in [transcript, log] {
            #expect(!text.contains(Self.planted), "the planted secret leaked:\n\(text)")
            #expect(!text.contains(String(Self.planted.suffix(12))), "a long piece of the secret leaked")
            let base64 = Data("ada:\(Self.planted)".utf8).base64EncodedString()
            #expect(!text.contains(base64), "basic credentials leaked")
        }
    }

    @Test func credentialsTypedIntoSecretHeadersAreSecrets() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let literal = "literal-header-key-55667788"
        let session = Transcript()
        let outcomes = await session.run(
            """
            base \(server.baseURL)
            header Authorization: Bearer \(literal)
            header
            default header X-API-Key: \(literal)-default
            default
            get /echo Proxy-Authorization:'Basic \(literal)-proxy'
            """)
        #expect(!outcomes.contains(.failed))
        let printed = session.console.stdout + session.console.stderr
        #expect(printed.contains("Bearer ••••7788"))
        #expect(!printed.contains(literal))
        await server.stop()
    }

    @Test func revealPrintsOnlyTheSecretAskedFor() async throws {
        let session = Transcript()
        await session.run("secret token = \(Self.planted)\nvars\nreveal token")
        let lines = session.console.stdout.split(separator: "\n")
        #expect(lines.last == Substring(Self.planted))
        #expect(lines.dropLast().allSatisfy { !$0.contains(Self.planted) })
    }

    /// A server that echoes a secret in a UTF-16 body: the wire log and the recording hold it
    /// masked in that charset too.
    @Test func aSecretEchoedInUTF16IsMaskedInTheLogAndTheRecording() async throws {
        let transport = MockTransport()
        let body = try #require("{\"echo\": \"\(Self.planted)\"}".data(using: .utf16LittleEndian))
        transport.register("/echo", .data(body, contentType: "application/json; charset=utf-16le"))
        let directory = NSTemporaryDirectory() + "fathom-utf16-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        for line in [
            "base http://api.test", "log body \(directory)/wire.log", "secret token = \(Self.planted)", "record on",
            "get /echo X-T:{{token}}", "save \(directory)/s.fathom",
        ] {
            #expect(await executor.run(line).outcome == .succeeded, "\(line)")
        }
        let needles = [String.Encoding.utf8, .utf16LittleEndian].compactMap { Self.planted.data(using: $0) }
        for file in ["wire.log", "s.fathom", "s.recording.json"] {
            let data = try #require(FileManager.default.contents(atPath: "\(directory)/\(file)"), "\(file)")
            for needle in needles { #expect(data.range(of: needle) == nil, "\(file) holds the secret") }
        }
    }
}
