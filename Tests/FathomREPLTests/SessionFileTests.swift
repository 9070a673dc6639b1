import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

@Suite struct SessionFileTests {
    @Test func readsEntriesWithTheirLines() throws {
        let file = try SessionFile.parse(
            """
            # comment
            base http://a.test

            body {"a": 1,
              "b": 2}
            post /x
            body <<EOF
            text
            EOF
            send
            """, path: "s.fathom")
        #expect(file.entries.map(\.line) == [2, 4, 6, 7, 10])
        #expect(file.entries[1].text == "body {\"a\": 1,\n  \"b\": 2}")
    }

    @Test func reportsFileLineAndColumn() {
        func problem(_ text: String) -> String? {
            do {
                _ = try SessionFile.parse(text, path: "s.fathom")
                return nil
            } catch { return error.description }
        }
        #expect(problem("base http://a\nget /a\nexpect $.a ==\n") == "s.fathom:3:14: missing a value to compare with")
        #expect(
            problem("base http://a\nhedaer X: 1") == "s.fathom:2:1: unknown command 'hedaer' — did you mean 'header'?")
        #expect(problem("get /a\nbody <<EOF\ntext\n")?.hasPrefix("s.fathom:2: this body does not end") == true)
        #expect(problem("# only a comment\n") == "s.fathom: no commands in the file, only comments")
    }

    @Test func unreadableFilesAreProblems() throws {
        let directory = NSTemporaryDirectory() + "fathom-sf-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/empty", contents: Data())
        _ = FileManager.default.createFile(
            atPath: directory + "/binary", contents: Data([0x89, 0x50, 0x4E, 0x47, 0, 1]))
        for (name, message) in [
            ("missing", "no such file"), ("empty", "the file is empty"),
            ("binary", "not a text file (binary or not UTF-8)"), ("", "is a directory, not a session file"),
        ] {
            let path = directory + "/" + name
            #expect(throws: SessionFile.Problem.self) { try SessionFile.read(path) }
            do {
                _ = try SessionFile.read(path)
            } catch {
                #expect(error.message == message)
            }
        }
    }
}
