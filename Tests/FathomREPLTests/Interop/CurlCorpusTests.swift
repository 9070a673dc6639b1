import FathomHTTP
import FathomTestSupport
import Foundation
import Testing

@testable import FathomREPL

extension Executor {
    /// The secrets an export names, with their values: what the person running it would set.
    fileprivate func exportSecrets() -> [ExportSecrets.Secret] { ExportCommand.namedSecrets(self).all }
}

/// curlconverter's commands that come with an `http/` oracle (the request curl sends), pasted
/// at the prompt against a loopback server that records what arrives: method, path and query,
/// headers (apart from the defaults each client adds) and body bytes must match the oracle.
@Suite struct CurlCorpusTests {
    static let corpus = TestCorpora.folder("curlconverter")

    /// Headers each client adds on its own, not part of what the line asks for.
    static let defaults: Set<String> = ["host", "user-agent", "content-length", "accept-encoding", "connection"]

    struct Request: Equatable, CustomStringConvertible {
        var method: String
        var target: String
        var headers: [String]
        var body: String

        var description: String { "\(method) \(target) \(headers) \(body.debugDescription)" }

        init(head: String, body: String) {
            let lines = head.components(separatedBy: "\r\n").flatMap { $0.components(separatedBy: "\n") }
            let requestLine = lines.first?.split(separator: " ") ?? []
            method = requestLine.first.map(String.init) ?? ""
            target = requestLine.count > 1 ? String(requestLine[1]) : ""
            if !target.hasPrefix("/") { target = "/" + target }
            headers = lines.dropFirst().compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                guard !Self.isDefault(name, value) else { return nil }
                return "\(name): \(value)"
            }.sorted()
            self.body = body
        }

        static func isDefault(_ name: String, _ value: String) -> Bool {
            CurlCorpusTests.defaults.contains(name) || (name == "accept" && value == "*/*")
        }
    }

    /// The oracle: head, blank line, body.
    static func oracle(_ name: String) throws -> Request {
        let text = try String(contentsOf: corpus.appendingPathComponent("http/\(name).txt"), encoding: .utf8)
        let parts = text.components(separatedBy: "\n\n")
        let body = parts.dropFirst().joined(separator: "\n\n")
        return Request(
            head: parts[0], body: body.hasSuffix("\n") && !body.hasSuffix("\n\n") ? String(body.dropLast()) : body)
    }

    /// The command, as pasted: comments and a shebang dropped. Only loopback traffic leaves this
    /// machine, so the hosts the corpus names map to the recorder (and its SOCKS proxy to a port
    /// where nothing listens), for Fathom and curl alike.
    static func command(_ name: String, port: Int) throws -> String {
        let text = try String(contentsOf: corpus.appendingPathComponent("curl_commands/\(name).sh"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("#") }.joined(separator: "\n")
            .replacingOccurrences(of: "localhost:28139", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "curl httpbin.org/", with: "curl 127.0.0.1:\(port)/")
            .replacingOccurrences(of: "1.1.1.1:8888", with: "127.0.0.1:9")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The same command run by curl itself (through bash, as the corpus writes it, in an empty
    /// directory, as the files it names are not here for Fathom either, and with an empty standard
    /// input): does the first request it sends match?
    static func curlMatches(_ name: String, server: FaultServer) throws -> Bool {
        let before = server.requests.count
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-curl-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.currentDirectoryURL = directory
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["10", "/bin/bash", "-c", try command(name, port: server.port)]
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard server.requests.count > before else { return false }
        let sent = Request(head: server.requests[before], body: String(decoding: server.bodies[before], as: UTF8.self))
        return sent == (try oracle(name))
    }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent("http").path)) ?? [])
            .filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// What happened to one command: sent as the oracle says, sent otherwise, or refused.
    enum Verdict: Equatable {
        case matches
        case differs(String)
        case refused(String)
    }

    static func verdict(_ name: String, server: FaultServer, executor: Executor) async throws -> Verdict {
        let before = server.requests.count
        var assembler = LineAssembler()
        var result: CommandResult?
        for line in try command(name, port: server.port).split(separator: "\n", omittingEmptySubsequences: false) {
            if let entry = assembler.add(String(line)) { result = await executor.run(entry) }
        }
        if let rest = assembler.flush() { result = await executor.run(rest) }
        guard server.requests.count > before else {
            let failure = result?.outputs.compactMap { output -> String? in
                guard case .failure(let failure) = output else { return nil }
                return ErrorRenderer().line(failure)
            }.first
            return .refused(failure ?? "nothing sent")
        }
        let sent = Request(
            head: server.requests[before], body: String(decoding: server.bodies[before], as: UTF8.self))
        let expected = try oracle(name)
        return sent == expected ? .matches : .differs("sent \(sent)\n    oracle \(expected)")
    }

    @Test func theCorpusIsHere() {
        #expect(Self.names.count == 64)
    }

    /// The pass rate, every case named: a request that matches its oracle, or one that does not
    /// (with the difference), or a line refused with its one clear error.
    @Test func pastedCommandsSendWhatCurlSends() async throws {
        let server = try FaultServer { _, _ in .response(body: "ok") }
        defer { server.stop() }
        var matches = 0
        var roundTrips = 0
        var curlMatches = 0
        var report: [String] = []
        for name in Self.names {
            let curlSends = try Self.curlMatches(name, server: server)
            if curlSends { curlMatches += 1 }
            let executor = Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:]))
            switch try await Self.verdict(name, server: server, executor: executor) {
            case .matches:
                matches += 1
                // Round trip: the request exported as curl, run by bash, arrives the same.
                if try await Self.roundTrips(executor, server: server) {
                    roundTrips += 1
                } else {
                    report.append("↺ \(name): the exported command sent another request")
                }
            case .differs(let difference):
                report.append("✗ \(name)\(curlSends ? " (curl matches)" : ""): \(difference)")
            case .refused(let reason):
                report.append("– \(name)\(curlSends ? " (curl matches)" : ""): \(reason)")
                #expect(!reason.contains("\n"), "\(name): one line")
            }
        }
        print(
            "curlconverter: \(matches) of \(Self.names.count) match their oracle (curl \(curlMatches)), "
                + "\(roundTrips) round-trip through export\n" + report.joined(separator: "\n"))
        #expect(matches >= curlMatches, "Fathom \(matches), curl \(curlMatches) of \(Self.names.count)")
        #expect(matches >= Self.expectedMatches, "\(matches) of \(Self.names.count)")
        #expect(roundTrips == matches, "every request that matched comes back the same through `export curl`")
    }

    /// `export curl` of the last response's request, run by bash: does the same request arrive?
    static func roundTrips(_ executor: Executor, server: FaultServer) async throws -> Bool {
        let number = server.requests.count
        guard case .export(let export)? = await executor.run("export curl").outputs.first else { return false }
        let command = export.text
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "curl -s -o /dev/null" + command.dropFirst(4)]
        // The secrets the command names, as the person running it would have them.
        var environment = ["PATH": "/usr/bin:/bin"]
        for secret in await executor.exportSecrets() { environment[DotEnv.secretKey(for: secret.name)] = secret.value }
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        guard server.requests.count == number + 1 else { return false }
        let original = Request(
            head: server.requests[number - 1], body: String(decoding: server.bodies[number - 1], as: UTF8.self))
        let again = Request(head: server.requests[number], body: String(decoding: server.bodies[number], as: UTF8.self))
        return original == again
    }

    /// The floor: raise it when more match.
    static let expectedMatches = 54
}
