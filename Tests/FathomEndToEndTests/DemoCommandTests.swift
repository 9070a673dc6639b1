import Foundation
import Testing

/// Runs the built `fathom` binary as a user would.
@Suite struct DemoCommandTests {
    @Test func tourWalksTheLibraryAgainstItsOwnServer() throws {
        let run = try FathomBinary.run(["tour", "--color", "never"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout
        #expect(lines.contains("Fathom demo API at http://127.0.0.1:"))
        #expect(lines.contains("200 OK"))
        #expect(lines.contains("Ada Lovelace, Grace Hopper, Alan Turing"))
        #expect(
            lines.contains("HTTP 401 Unauthorized: this endpoint needs Authorization: Bearer <token> (POST /login)"))
        #expect(lines.contains("201 Created"))
        #expect(lines.contains("10 responses in"))
        #expect(lines.contains("events: tick 1, tick 2, done 3"))
        #expect(lines.contains("4 NDJSON lines"))
        #expect(lines.contains("WebSocket: 4 messages ({\"type\":\"welcome\",\"user\":null}…), closed with 4000"))
        #expect(
            lines.contains("two withdrawals of 60 from 100: {\"id\":2,\"balance\":-20} and {\"id\":2,\"balance\":40}"))
        #expect(lines.contains("Authorization: Bearer ••••"))
        #expect(lines.contains("connection refused to 127.0.0.1:9"))
        #expect(lines.contains("timed out after 300 ms"))
        #expect(lines.contains("header 'X-Note' has a line break in its value"))
        #expect(!lines.contains("\u{1B}["), "no colors with --color never")
        #expect(!lines.contains("demo_"), "the demo token never appears unmasked")
    }

    @Test func helpAndVersion() throws {
        let help = try FathomBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("tour"))
        // The prompt is what `fathom` runs: its options are shown with the subcommands.
        for option in [
            "USAGE: fathom [<url>]", "--demo", "-c <c>", "--spec <spec>", "--output <output>", "--env <env>",
        ] {
            #expect(help.stdout.contains(option), "fathom --help lacks \(option)")
        }
        // The version, and the commit the binary was built from (this checkout's).
        let version = try FathomBinary.run(["--version"])
        let (status, head) = try Program.run(["git", "-C", FathomBinary.packageRoot, "rev-parse", "--short=12", "HEAD"])
        #expect(status == 0)
        let said = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(said.hasPrefix("0.3.0 (commit \(head.trimmingCharacters(in: .whitespacesAndNewlines))"), "\(said)")
    }

    @Test func badFlagIsAOneLineErrorAndExitCode() throws {
        let run = try FathomBinary.run(["--colour", "never"])
        #expect(run.status != 0)
        #expect(run.stderr.hasPrefix("Error: Unknown option '--colour'"))
    }
}
