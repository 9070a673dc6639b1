import Foundation
import Testing

/// `fathom query`, `diff` and `patch` through the built binary: output and exit codes.
@Suite struct JSONCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-e2e-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func queryPrintsOneMatchPerLineOrAnArrayOrPaths() throws {
        let doc = try file("doc.json", #"{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]}"#)
        #expect(try FathomBinary.run(["query", "$.users[*].name", doc]).stdout == "\"Ada\"\n\"Grace\"\n")
        #expect(try FathomBinary.run(["query", ".users[?@.id > 1]", doc]).stdout == #"{"id":2,"name":"Grace"}"# + "\n")
        #expect(
            try FathomBinary.run(["query", "$..id", "--paths", doc]).stdout
                == "$['users'][0]['id']\n$['users'][1]['id']\n")
        #expect(try FathomBinary.run(["query", "$..id", "--array", doc]).stdout == "[\n  1,\n  2\n]\n")
        let expressionFile = try file("expr.txt", "$.users[0].name\n")
        #expect(try FathomBinary.run(["query", "-f", expressionFile, doc]).stdout == "\"Ada\"\n")
        let stdin = try FathomBinary.run(["query", "$.users.length"], input: Array(#"{"users":[]}"#.utf8))
        #expect(stdin.status == 0)
        #expect(stdin.stdout.isEmpty)
    }

    @Test func queryExitCodes() throws {
        let doc = try file("doc.json", "[1]")
        #expect(try FathomBinary.run(["query", "$[5]", doc]).status == 0)
        let badJSON = try FathomBinary.run(["query", "$", try file("bad.json", "[1,")])
        #expect(badJSON.status == 1)
        #expect(badJSON.stderr.contains("invalid JSON at line 1, column 4"))
        let badPath = try FathomBinary.run(["query", "$[?@.a ==]", doc])
        #expect(badPath.status == 2)
        #expect(badPath.stderr.hasPrefix("fathom query: invalid JSONPath at column 10"))
    }

    @Test func diffShowsChangesAndExitsLikeDiff() throws {
        let a = try file("a.json", #"{"id":1,"price":1.0,"tags":["x"],"at":"monday"}"#)
        let b = try file("b.json", #"{"id":1,"price":1,"tags":["x","y"],"at":"tuesday"}"#)
        let run = try FathomBinary.run(["diff", a, b, "--ignore", "$.at"])
        #expect(run.status == 1)
        #expect(
            run.stdout
                == "≈ $['price']  1.0 → 1  (same value, different text)\n+ $['tags'][1]  \"y\"\n2 differences: 1 added, 1 number text\n"
        )
        #expect(try FathomBinary.run(["diff", a, a]).status == 0)
        #expect(try FathomBinary.run(["diff", a, a]).stdout == "no differences\n")
        let summary = try FathomBinary.run(["diff", a, b, "--format", "json"])
        #expect(summary.stdout.contains("\"equal\": false"))
        #expect(try FathomBinary.run(["diff", a, try file("broken.json", "{")]).status == 2)
        #expect(try FathomBinary.run(["diff", a, b, "--ignore", "$["]).status == 2)
    }

    @Test func diffPatchThenApplyGivesTheSecondDocument() throws {
        let a = try file("a.json", #"{"users":[{"id":1},{"id":2},{"id":3}],"v":1}"#)
        let b = try file("b.json", #"{"users":[{"id":1},{"id":9},{"id":2},{"id":3}],"v":2}"#)
        let patch = try FathomBinary.run(["diff", a, b, "--format", "patch"])
        #expect(patch.status == 1)
        let patchFile = try file("p.json", patch.stdout)
        let applied = try FathomBinary.run(["patch", a, patchFile])
        #expect(applied.status == 0)
        let check = try FathomBinary.run(["diff", "-", b], input: Array(applied.stdout.utf8))
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func patchThatCannotApplyExitsOneAndNamesTheOperation() throws {
        let doc = try file("doc.json", #"{"a":1}"#)
        let patch = try file("p.json", #"[{"op":"replace","path":"/a","value":2},{"op":"remove","path":"/zz"}]"#)
        let run = try FathomBinary.run(["patch", doc, patch])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "fathom patch: patch operation 1 failed: no member 'zz' at '/zz'\n")
    }
}
