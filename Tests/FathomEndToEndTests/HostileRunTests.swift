import FathomTestSupport
import Foundation
import Testing

/// "Hostile input, round three" through the binary: usage errors are exit 2 as the table says,
/// a device or a FIFO named as a body is refused at once, a rate out of range still leaves a
/// JUnit report, and `--output json` escapes C1 controls.
@Suite struct HostileRunTests {
    func folder(_ files: [String: String] = [:]) throws -> String {
        let directory = NSTemporaryDirectory() + "fathom-hostile3-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: "\(directory)/\(name)", atomically: true, encoding: .utf8) }
        return directory
    }

    @Test(arguments: [
        ["replay", "--jobs", "0", "a.fathom"], ["replay", "--shard", "5/4", "a.fathom"],
        ["replay", "--bogus", "a.fathom"],
        ["replay", "--timeout", "abc", "a.fathom"], ["--bogus"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let directory = try folder(["a.fathom": "get http://127.0.0.1:9/\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try FathomBinary.run(arguments, directory: directory)
        #expect(run.status == 2, "\(arguments): \(run.status) \(run.stderr)")
        #expect(!run.stderr.isEmpty)
    }

    /// `-d @/dev/zero` and `-d @FIFO` are refused at once, pasted and imported: no wait forever.
    @Test func aDeviceOrAFIFOIsNoBody() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        for source in ["/dev/zero", fifo] {
            let start = Date()
            let run = try FathomBinary.run(
                ["--color", "never"], script: "curl -d @\(source) http://127.0.0.1:9/x\n", directory: directory)
            #expect(Date().timeIntervalSince(start) < 10, "\(source)")
            #expect(run.stderr.contains("not a regular file"), "\(source): \(run.stderr)")
        }
    }

    /// A rate out of range is one line, and a replay of it still writes its JUnit report.
    @Test func aRateOutOfRangeStillWritesTheReport() throws {
        let directory = try folder(["rate.fathom": "get http://127.0.0.1:9/ --rate 1e-10/s --repeat 2\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try FathomBinary.run(["replay", "rate.fathom", "--junit", "junit.xml"], directory: directory)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(
            run.stdout.contains("out of range") || run.stderr.contains("out of range"), "\(run.stdout)\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/junit.xml"))
        let prompt = try FathomBinary.run(["--color", "never"], script: "get http://127.0.0.1:9/ --rate 1e300/s\n")
        #expect(prompt.status == 1 && prompt.stderr.contains("out of range"), "\(prompt.stderr)")
    }

    /// A server's header holding U+009B (CSI to many terminals) is `\u009b` in `--output json`.
    @Test func jsonOutputEscapesC1() throws {
        let server = try FaultServer { _, _ in .response(headers: ["X-Evil: a\u{9B}31mb"], body: "{}", keepAlive: false)
        }
        defer { server.stop() }
        let run = try FathomBinary.run(["--output", "json"], script: "get \(server.baseURL)/x\n")
        #expect(run.stdout.contains(#"a\u009b31mb"#), "\(run.stdout)")
        #expect(!run.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
    }
}
