import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

@Suite struct ImportCommandTests {
    @Test func parsesTheFormatAndFile() throws {
        #expect(try parse("import curl request.sh") == ImportCommand(format: .curl, file: "request.sh"))
        #expect(try parse("import har x.har") == ImportCommand(format: .har, file: "x.har"))
        #expect(parseError("import hra x.har")?.advice == "did you mean 'har'?")
        #expect(try parse("import curl -") == ImportCommand(format: .curl, file: "-"))
    }

    @Test func aCurlFileBecomesTheDraftAndIsSentOnlyBySend() async throws {
        let file = NSTemporaryDirectory() + "fathom-import-\(UUID().uuidString).sh"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try
            "# from the API's docs\ncurl -X PATCH 'http://api.test/users/1' \\\n  -H 'Content-Type: application/json' \\\n  -d '{\"role\": \"admin\"}'\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let transport = MockTransport()
        transport.register("/", .json("{}"))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        let imported = await executor.run("import curl \(file)")
        #expect(imported.outcome == .succeeded, "\(imported.outputs)")
        #expect(transport.requests.isEmpty, "importing sends nothing")
        _ = await executor.run("send")
        let sent = try #require(transport.requests.first)
        #expect(sent.method == .patch)
        #expect(sent.url.description == "http://api.test/users/1")
        guard case .bytes(let body)? = sent.body else { throw CommandError(.session, "no body") }
        #expect(String(decoding: body, as: UTF8.self) == #"{"role": "admin"}"#)
    }
}
