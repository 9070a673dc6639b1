import Foundation
import Testing

/// Writes that fail — a full disk, a closed pipe — never crash Fathom.
@Suite struct BrokenOutputTests {
    /// `fathom … > /dev/full`: one line on standard error and status 1, not a trap.
    @Test func aFullStandardOutputEndsCleanly() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FathomBinary.binary)
        process.arguments = ["-c", "help"]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "no signal")
        #expect(process.terminationStatus == 1)
        #expect(stderr == "fathom: cannot write to standard output: No space left on device\n")
    }

    /// A closed pipe (`| head -c 10`) ends Fathom quietly with status 1, not by SIGPIPE.
    @Test func aClosedPipeEndsQuietly() throws {
        let file = NSTemporaryDirectory() + "fathom-pipe-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try ("[" + Array(repeating: "[1, 2, 3]", count: 400_000).joined(separator: ",") + "]")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c",
            "'\(FathomBinary.binary)' fmt '\(file)' 2>/tmp/fathom-pipe-err | head -c 10 >/dev/null; "
                + "echo ${PIPESTATUS[0]}; cat /tmp/fathom-pipe-err",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text == "1\n", "status 1 and nothing on standard error, not 141 (SIGPIPE): \(text)")
    }

    /// A wire log that cannot be written is turned off with one warning; the session goes on.
    @Test func aWireLogThatCannotBeWrittenIsTurnedOff() throws {
        let server = try DemoServerProcess()
        let run = try FathomBinary.run(
            [server.baseURL, "-c", "log body /dev/full", "-c", "get /users/1", "-c", "log", "-c", "get /users/2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr
                == "warning: the wire log cannot be written to /dev/full: no space left on device — the wire log is off\n"
        )
        #expect(run.stdout.contains("Ada Lovelace") && run.stdout.contains("Grace Hopper"))
        #expect(run.stdout.contains("\noff\n"), "log says it is off")
    }
}
