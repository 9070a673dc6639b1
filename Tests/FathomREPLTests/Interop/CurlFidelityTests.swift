import FathomTestSupport
import Foundation
import Testing

@testable import FathomREPL

/// A header a person wrote on a curl line goes as written, and an upload carries no Content-Type
/// curl would not send: what a loopback server receives from a pasted line.
@Suite struct CurlFidelityTests {
    func received(_ line: (Int) -> String, files: [String: String] = [:]) async throws -> String {
        let server = try FaultServer { _, _ in .response(body: "ok") }
        defer { server.stop() }
        let directory = NSTemporaryDirectory() + "fathom-curl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, text) in files { try text.write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        let executor = Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:]))
        await executor.resolveFiles(under: directory)
        let result = await executor.run(line(server.port))
        #expect(result.outcome == .succeeded, "\(result.outputs)")
        return server.requests.joined(separator: "\n").lowercased()
    }

    @Test func anAcceptEncodingWrittenWithCompressedGoesAsWritten() async throws {
        let head = try await received {
            "curl --compressed -H 'Accept-Encoding: gzip, deflate, br' http://127.0.0.1:\($0)/x"
        }
        #expect(head.contains("accept-encoding: gzip, deflate, br\r\n"), "\(head)")
    }

    @Test func aHostWrittenByHandIsSent() async throws {
        let head = try await received { "curl -H 'Host: api.example.com' http://127.0.0.1:\($0)/x" }
        #expect(head.contains("host: api.example.com\r\n"), "\(head)")
        #expect(!head.contains("host: 127.0.0.1"), "\(head)")
    }

    @Test func anUploadHasNoContentTypeOfItsOwn() async throws {
        let head = try await received(
            { "curl -T file.txt http://127.0.0.1:\($0)/upload/" }, files: ["file.txt": "hello"])
        #expect(head.hasPrefix("put /upload/file.txt"), "\(head)")
        #expect(!head.contains("content-type"), "\(head)")
        #expect(head.contains("content-length: 5"), "\(head)")
    }

    /// The upload as a session file writes it, and reads back the same.
    @Test func anUploadWritesItsLine() throws {
        let command = BodyCommand(body: .upload("file.txt"))
        #expect(command.line == "body upload @file.txt")
        #expect(try CommandParser.parse(command.line)?.isEqual(to: command) == true)
    }
}
