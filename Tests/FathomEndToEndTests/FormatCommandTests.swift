import Foundation
import Testing

/// `fathom fmt` through the built binary: output, flags and exit codes.
@Suite struct FormatCommandTests {
    @Test func prettyPrintsStandardInputKeepingNumbers() throws {
        let run = try FathomBinary.run(["fmt"], input: Array(#"{"b":[1.0,-0,1e3],"a":"é\u0001"}"#.utf8))
        #expect(run.status == 0)
        #expect(run.stdout == "{\n  \"b\": [\n    1.0,\n    -0,\n    1e3\n  ],\n  \"a\": \"é\\u0001\"\n}\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func compactIndentAndColor() throws {
        let input = Array(#"{"a":[1,{"b":null}]}"#.utf8)
        #expect(try FathomBinary.run(["fmt", "--compact"], input: input).stdout == #"{"a":[1,{"b":null}]}"# + "\n")
        #expect(try FathomBinary.run(["fmt", "--indent", "4"], input: input).stdout.contains("\n        1,"))
        let colored = try FathomBinary.run(["fmt", "--color", "always"], input: input).stdout
        #expect(colored.hasPrefix("\u{1B}[1;39m{"))
        #expect(!(try FathomBinary.run(["fmt", "--color", "never"], input: input).stdout.contains("\u{1B}")))
        // Not a terminal: auto means no colors.
        #expect(!(try FathomBinary.run(["fmt"], input: input).stdout.contains("\u{1B}")))
    }

    @Test func invalidJSONExitsOneWithThePlaceAndNoPartialOutput() throws {
        let run = try FathomBinary.run(["fmt"], input: Array("{\"a\": [1, 2,]}".utf8))
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr
                == "fathom fmt: standard input: invalid JSON at line 1, column 13 (byte 12): expected a value, found ']'\n  {\"a\": [1, 2,]}\n              ^\n"
        )
    }

    @Test func readsFilesAndReportsUnreadableOnes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fmt-\(UUID()).json").path
        try Data("[true]".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try FathomBinary.run(["fmt", path])
        #expect(run.status == 0)
        #expect(run.stdout == "[\n  true\n]\n")
        let missing = try FathomBinary.run(["fmt", "/nonexistent/x.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "fathom fmt: cannot read '/nonexistent/x.json': no such file\n")
        let bad = try FathomBinary.run(["fmt", "--indent", "9"], input: [])
        #expect(bad.status != 0)
        #expect(bad.stderr.hasPrefix("Error: --indent must be between 0 and 7"))
    }

    @Test func emptyInputAndGarbageNeverCrash() throws {
        for input in ["", "   ", "\u{0}", "[[[[", "\"\\ud800\"", String(repeating: "[", count: 100_000)] {
            let run = try FathomBinary.run(["fmt"], input: Array(input.utf8))
            #expect(run.status == 0 || run.status == 1, "\(input.prefix(10))")
        }
    }
}
