import Foundation
import Testing

/// Runs the built `fathom` binary as a user would.
@Suite struct DemoCommandTests {
    /// The `fathom` executable beside the test bundle, or `FATHOM_BIN`.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["FATHOM_BIN"] { return path }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        var directory = testBinary.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("fathom").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/fathom").path
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func demoToursTheLibraryAgainstItsOwnServer() throws {
        let run = try Self.run(["--demo", "--color", "never"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout
        #expect(lines.contains("Fathom demo API at http://127.0.0.1:"))
        #expect(lines.contains("200 OK"))
        #expect(lines.contains("Ada Lovelace, Grace Hopper, Alan Turing"))
        #expect(
            lines.contains("HTTP 401 Unauthorized: this endpoint needs Authorization: Bearer <token> (POST /login)"))
        #expect(lines.contains("201 Created"))
        #expect(lines.contains("10 responses in"))
        #expect(lines.contains("Authorization: Bearer ••••"))
        #expect(lines.contains("connection refused to 127.0.0.1:9"))
        #expect(lines.contains("timed out after 300 ms"))
        #expect(lines.contains("a GET request cannot carry a body"))
        #expect(!lines.contains("\u{1B}["), "no colors with --color never")
        #expect(!lines.contains("demo_"), "the demo token never appears unmasked")
    }

    @Test func helpAndVersion() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--demo"))
        let version = try Self.run(["--version"])
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test func badFlagIsAOneLineErrorAndExitCode() throws {
        let run = try Self.run(["--colour", "never"])
        #expect(run.status != 0)
        #expect(run.stderr.hasPrefix("Error: Unknown option '--colour'"))
    }
}
