import Foundation
import Testing

/// The README's examples run as written.
@Suite struct ReadmeTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// Every line the README shows typed at the demo's prompt (`GET 127.0.0.1:40415/> …`, 40416
    /// for its gRPC service, a WebSocket's `ws 127.0.0.1:40415/ws> …` or a gRPC stream's
    /// `grpc Todos/Chat> …`), in order, in one
    /// `fathom --demo` session: each succeeds, and says what the README says it does.
    @Test func everyPromptLineRunsAgainstTheDemo() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let prompt = try Regex(
            #"^(?:(?:[A-Z]+|ws) 127\.0\.0\.1:4041[56]/\S*|grpc [\w.]+/\w+)( \[[^\]]*\])?> (.+)$"#)
        var lines: [String] = []
        for line in text.split(separator: "\n") {
            if let match = try prompt.wholeMatch(in: String(line)), let command = match.output[2].substring {
                lines.append(String(command))
            }
        }
        #expect(lines.count >= 5, "the README's prompt lines: \(lines)")
        // The demo on a free port, as `fathom --demo` starts it: the README's 40415 stands for it.
        let demo = try DemoServerProcess()
        let port = demo.baseURL.split(separator: ":").last.map(String.init) ?? ""
        // Its gRPC service as `fathom --demo` names it; the README's 40416 stands for its port.
        let grpcPort = demo.grpcTarget.split(separator: ":").last.map(String.init) ?? ""
        let script =
            ["base \(demo.baseURL)", "spec \(demo.baseURL)/openapi.json", "set grpc = \(demo.grpcTarget)"]
            + lines.map {
                $0.replacingOccurrences(of: ":40415", with: ":\(port)").replacingOccurrences(
                    of: ":40416", with: ":\(grpcPort)")
            }
        let session = try FathomBinary.run(["--color", "never"], script: script.joined(separator: "\n"))
        #expect(session.status == 0, "\(session.stdout)\(session.stderr)")
        #expect(session.stderr.isEmpty, "\(session.stderr)")
        #expect(
            session.stdout.contains(
                "is not http://127.0.0.1:\(port): its auth (bearer) and its description's checks stayed behind"))
    }
}
