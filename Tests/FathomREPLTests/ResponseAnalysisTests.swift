import FathomDemo
import Foundation
import Testing

@testable import FathomREPL

/// `responses`, `inspect`, `let`, `diff`, `expect` and `volatile` against the demo API; and every
/// bad input the issue names, each one error line with the session going on.
@Suite struct ResponseAnalysisTests {
    @Test func analysingResponses() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let session = Transcript()
        let outcomes = await session.run(
            """
            base \(server.baseURL)
            responses
            get /users per_page==3
            get /users per_page==3 page==2
            responses
            inspect $.data[*].name
            inspect #1 .data[0].email --paths
            inspect #1 "$.data[?@.role == 'admin'].id"
            inspect $.nothing
            let first = $.data[0].id #1
            let link = header Link
            let code = status
            vars
            diff
            diff #1 #2 --body --ignore $.page
            diff #1 --headers
            post /login username=ada password=difference-engine
            let token = $.token
            let session_key = $.token_type
            vars
            get /users/{{first}}
            expect status 200
            expect status 2xx
            expect status != 404
            expect status < 300
            expect $.id == 1
            expect $.id == {{first}}
            expect $.name ~ "^Ada"
            expect $.name !~ "^Grace"
            expect $.email exists
            expect $.phone absent
            expect $.active == true
            expect $.id >= 1
            expect $.id < 2
            expect header Content-Type ~ json
            expect header X-Missing absent
            expect body ~ "lovelace@"
            expect time < 30s
            expect $.name == "Grace Hopper"
            expect $.id > 5
            expect status 4xx
            expect header Content-Type == text/html
            expect $.phone exists
            expect time > 1h
            volatile $.updatedAt
            volatile $.data[*].id
            volatile
            """)
        let failed = outcomes.enumerated().filter { $0.element == .checkFailed }.map(\.offset)
        // The six failing expectations at the end, and nothing else.
        #expect(failed.count == 6)
        try Snapshot.check(session.text, named: "analysis")
        await server.stop()
    }

    @Test func textBodiesDiffLineByLine() async throws {
        let directory = NSTemporaryDirectory() + "fathom-diff-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "one\ntwo\nthree\nfour\n".write(toFile: directory + "/a.txt", atomically: true, encoding: .utf8)
        try "one\n2\nthree\nfour\nfive\n".write(toFile: directory + "/b.txt", atomically: true, encoding: .utf8)
        let session = Transcript()
        await session.run(
            """
            base http://127.0.0.1:9
            mock /a @\(directory)/a.txt
            mock /b @\(directory)/b.txt
            get /a
            get /b
            diff --body
            """)
        #expect(
            session.console.stdout.contains(
                """
                @@ -1,5 +1,6 @@
                 one
                -two
                +2
                 three
                 four
                +five
                """))
    }

    @Test func badInputIsOneErrorAndTheSessionGoesOn() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let directory = NSTemporaryDirectory() + "fathom-bad-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/empty.fathom", contents: Data())
        _ = FileManager.default.createFile(atPath: directory + "/binary.fathom", contents: Data([0x67, 0x65, 0, 0xFF]))
        try "base http://x\nget /a\nexpect $.a ==\n".write(
            toFile: directory + "/broken.fathom", atomically: true, encoding: .utf8)

        let session = Transcript()
        let outcomes = await session.run(
            """
            base \(server.baseURL)
            set kept = yes
            diff
            inspect $.a
            expect status 200
            get /users/1
            diff
            inspect #99 $.a
            let x = $.nothing
            let x = $.*
            let x = header X-None
            expect header
            expect $.a =~ 1
            expect "$[?" == 1
            expect body ~ "("
            expect status 2x
            expect time < soon
            diff #1 #1
            get /status/418
            expect $.type ~ x
            get /redirect/1 Accept:text/plain
            load \(directory)/missing.fathom
            load \(directory)/empty.fathom
            load \(directory)/binary.fathom
            load \(directory)/broken.fathom
            load \(directory)
            get /status/204
            expect $.id == 1
            get http://127.0.0.1:9/
            expect status 200
            let y = status #1
            vars
            responses
            """)
        let errors = session.console.stderr.split(separator: "\n")
        #expect(errors.count == outcomes.filter { $0 == .failed || $0 == .checkFailed }.count)
        try Snapshot.check(session.text.replacingOccurrences(of: directory, with: "<dir>"), named: "analysis-errors")
        // Nothing the broken file held ran, and the session is as it was.
        #expect(session.console.stdout.contains("kept = yes"))
        #expect(!session.console.stdout.contains("http://x"))
        await server.stop()
    }

    @Test func savingIntoAReadOnlyFolderFailsAndKeepsTheOldFile() async throws {
        let directory = NSTemporaryDirectory() + "fathom-ro-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer {
            chmod(directory, 0o755)
            try? FileManager.default.removeItem(atPath: directory)
        }
        try "old\n".write(toFile: directory + "/s.fathom", atomically: true, encoding: .utf8)
        chmod(directory, 0o555)
        // Root writes anywhere it may chmod; sysfs refuses new files even to root.
        let target = getuid() == 0 ? "/sys/fathom-test.fathom" : directory + "/s.fathom"
        let session = Transcript()
        let outcomes = await session.run(
            """
            base http://127.0.0.1:9
            set name = value
            save \(target)
            vars
            """)
        #expect(outcomes == [.succeeded, .succeeded, .failed, .succeeded])
        #expect(
            session.console.stderr
                == "error: cannot write to \(target): permission denied — the file as it was is unchanged\n")
        #expect(try String(contentsOfFile: directory + "/s.fathom", encoding: .utf8) == "old\n")
        #expect(session.console.stdout.contains("name = value"))
    }

    @Test func replayAtThePromptLeavesTheSessionAlone() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let file = NSTemporaryDirectory() + "fathom-prompt-replay-\(UUID().uuidString).fathom"
        try "base {{demo}}\nget /users/1\nexpect $.id == 2\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let session = Transcript()
        await session.executor.define("demo", server.baseURL)
        let outcomes = await session.run("set x = 1\nreplay \(file)\nresponses\nvars")
        #expect(outcomes == [.succeeded, .failed, .succeeded, .succeeded])
        #expect(session.console.stdout.contains("✗ GET /users/1"))
        #expect(session.console.stdout.contains("expect $.id == 2 — expected 2, got 1"))
        #expect(session.console.stdout.contains("no responses yet"))
        #expect(session.console.stdout.contains("x    = 1"))
        await server.stop()
    }
}
