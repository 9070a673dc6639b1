import Foundation
import Testing

@testable import FathomREPL

@Suite struct CommandTableTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The README's reference is the table's; `FATHOM_RECORD_SNAPSHOTS=1` rewrites it.
    @Test func readmeReferenceMatchesTheTable() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = "<!-- commands: generated from CommandTable -->\n"
        let end = "<!-- end of commands -->"
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex)
        else {
            Issue.record("README.md has no generated command reference")
            return
        }
        let reference = CommandTable.markdownReference()
        if ProcessInfo.processInfo.environment["FATHOM_RECORD_SNAPSHOTS"] == "1" {
            try (text[..<from.upperBound] + reference + text[to.lowerBound...]).write(
                to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[from.upperBound..<to.lowerBound]) == reference, "re-record with FATHOM_RECORD_SNAPSHOTS=1")
    }

    @Test func namesAreUniqueAndEveryCommandParses() throws {
        let names = CommandTable.names
        #expect(Set(names).count == names.count)
        for spec in CommandTable.all where !["send", "vars", "history", "exit", "reset"].contains(spec.name) {
            // Bare (listing) forms parse or fail with a usage hint, never a crash.
            do {
                _ = try CommandParser.parse(spec.name)
            } catch {
                #expect(error.hint?.hasPrefix("usage: ") == true, "\(spec.name): \(error)")
            }
        }
    }
}
