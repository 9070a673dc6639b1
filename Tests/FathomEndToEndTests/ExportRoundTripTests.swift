import FathomTestSupport
import Foundation
import Testing

/// `export curl|httpie #N`, run by bash where the secret is in the environment: the server sees
/// the request Fathom sent, again — the same method, target, headers and body bytes.
@Suite struct ExportRoundTripTests {
    static let secret = "roundtrip-Secret-6a2f"

    /// The request line, then the header fields by name (order and the case of names aside).
    func normalized(_ head: String) -> [String] {
        let lines = head.components(separatedBy: "\r\n")
        let fields = lines.dropFirst().filter { !$0.lowercased().hasPrefix("content-length:") }.map { line in
            guard let colon = line.firstIndex(of: ":") else { return line }
            // `Name:` and `Name: ` are the same empty value.
            return line[..<colon].lowercased() + ": "
                + line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return [lines[0]] + fields.sorted()
    }

    @Test(arguments: ["curl", "httpie"])
    func anExportedCommandSendsTheSameRequest(format: String) throws {
        let httpie = ProcessInfo.processInfo.environment["FATHOM_HTTPIE"] ?? "http"
        let server = try FaultServer { _, _ in .response(body: "ok") }
        defer { server.stop() }
        let run = try FathomBinary.run(
            [server.baseURL],
            script: """
                secret token = \(Self.secret)
                header X-Empty:
                post /users?page=2 name=Ada tags:='[1,2]' X-Token:{{token}}
                export \(format) #1
                header -X-Empty
                auth basic ada:{{token}}
                put /form note="it's" X-Trace:abc
                export \(format) #2
                """)
        #expect(run.status == 0, "\(run.stderr)")
        let commands = run.stdout.components(separatedBy: "\n").filter {
            $0.hasPrefix(format == "curl" ? "curl" : "http ")
        }
        #expect(commands.count == 2, "\(run.stdout)")
        #expect(!run.stdout.contains(Self.secret))
        let lines = run.stdout.components(separatedBy: "\n")
        for (index, start) in lines.enumerated() where start.hasPrefix(format == "curl" ? "curl" : "http ") {
            // A curl command goes on over `\` lines.
            var command = start
            var next = index + 1
            while command.hasSuffix("\\"), next < lines.count {
                command += "\n" + lines[next]
                next += 1
            }
            let program =
                format == "curl" ? "curl -s -o /dev/null" + command.dropFirst(4) : httpie + command.dropFirst(4)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", program + " >/dev/null"]
            process.environment = [
                "FATHOM_SECRET_TOKEN": Self.secret, "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(),
            ]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(command)")
        }
        let requests = server.requests
        let bodies = server.bodies
        #expect(requests.count == 4, "\(requests)")
        guard requests.count == 4 else { return }
        for (original, again) in [(0, 2), (1, 3)] {
            #expect(normalized(requests[again]) == normalized(requests[original]), "\(format)")
            #expect(bodies[again] == bodies[original], "\(format)")
        }
    }
}
