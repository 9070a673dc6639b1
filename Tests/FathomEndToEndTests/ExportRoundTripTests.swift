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
            let ran = try Program.run(
                ["bash", "-c", program + " >/dev/null"],
                environment: [
                    "FATHOM_SECRET_TOKEN": Self.secret, "PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(),
                ])
            #expect(ran.status == 0, "\(command)\n\(ran.output)")
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

/// `export swift`: FathomHTTP code that compiles, secrets read from the environment.
@Suite struct SwiftExportTests {
    /// `swiftc -typecheck` against the modules of this build, with the C module maps they need.
    func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let debug = URL(fileURLWithPath: FathomBinary.binary).resolvingSymlinksInPath().deletingLastPathComponent()
        // The build path (`.build`, or another given with --build-path) holds the checkouts.
        let buildPath = debug.deletingLastPathComponent().deletingLastPathComponent()
        var arguments = ["-typecheck", "-I", debug.appendingPathComponent("Modules").path]
        for root in [debug, buildPath.appendingPathComponent("checkouts")] {
            let files = FileManager.default.enumerator(atPath: root.path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix("module.modulemap") else { continue }
                // A Swift target's own generated map would define its module twice.
                if root == debug, file.contains(".build/include/") { continue }
                let path = root.appendingPathComponent(file)
                arguments += [
                    "-Xcc", "-fmodule-map-file=\(path.path)", "-Xcc", "-I", "-Xcc",
                    path.deletingLastPathComponent().path,
                ]
            }
        }
        let file = NSTemporaryDirectory() + "fathom-export-\(UUID().uuidString).swift"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        return try Program.run(["swiftc"] + arguments + [file])
    }

    @Test func anExportedSessionCompiles() throws {
        let server = try DemoServerProcess()
        let secret = "swift-Secret-0c3e5a"
        let run = try FathomBinary.run(
            [server.baseURL],
            script: """
                secret token = \(secret)
                get /users/1 X-Token:{{token}}
                post /echo note="a \\"quote\\" and \\\\ back" count:=2
                auth basic ada:{{token}}
                delete /users/99
                export swift --all
                """)
        #expect(!run.stdout.contains(secret))
        guard let start = run.stdout.range(of: "import FathomHTTP") else {
            Issue.record("no program: \(run.stdout)\(run.stderr)")
            return
        }
        let program = String(run.stdout[start.lowerBound...])
        #expect(program.contains(#"\(secret("TOKEN"))"#))
        #expect(program.contains("let response3 = try await client.send(request3)"))
        let checked = try typecheck(program)
        #expect(checked.status == 0, "\(checked.output)\n\(program)")
    }
}
