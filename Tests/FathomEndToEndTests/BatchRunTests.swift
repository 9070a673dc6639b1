import FathomJSON
import FathomTestSupport
import Foundation
import Testing

/// Batches against the demo API in its own process: the race the demo has on purpose, a rate
/// kept, the summary as JSON, and Ctrl-C on a terminal.
@Suite(.serialized) struct BatchRunTests {
    /// The batch objects a `--output json` run printed.
    private func batches(_ stdout: String) throws -> [JSON] {
        try stdout.split(separator: "\n").map { try JSON(parsing: String($0)) }
            .filter { $0["type"] == .string("batch") }
    }

    @Test func theRaceProbeFindsTwoClasses() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let run = try FathomBinary.run(
            [server.baseURL],
            script: """
                post /accounts/3/withdraw amount:=60 --repeat 2 --concurrency 2
                expect batch classes == 2
                expect batch status 2xx == 100%
                inspect $.classes[*].body.balance
                put /accounts/3 balance:=100
                post /accounts/3/withdraw amount:=60 --repeat 3 --concurrency 1
                expect batch status 200 == 1
                expect batch status 409 == 2
                """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // Two at once both pass the check: the account ends below zero, as the classes show.
        #expect(run.stdout.contains("2 kinds of response, by body:"))
        #expect(run.stdout.contains("~ $['balance']  40 → -20") || run.stdout.contains("~ $['balance']  -20 → 40"))
        #expect(run.stdout.contains("-20"))
        #expect(run.stdout.contains("✓ expect batch status 409 == 2"))
    }

    @Test func aRateIsKeptWithinFivePercent() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let run = try FathomBinary.run(
            [server.baseURL, "--output", "json"],
            script: """
                get /users/1 --repeat 101 --rate 100/s --concurrency 8
                get /users/2 --rate 40/s --duration 1500ms --concurrency 4
                """)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let found = try batches(run.stdout)
        try #require(found.count == 2)
        // 101 requests at 100/s: the last starts at 1 s.
        guard case .number(let first)? = found[0]["durationMs"], let milliseconds = Double(first) else {
            Issue.record("no duration in \(found[0])")
            return
        }
        #expect(abs(milliseconds - 1000) <= 50, "took \(milliseconds) ms")
        #expect(found[0]["completed"] == .number("101"))
        // 40/s for 1.5 s: 60 requests.
        guard case .number(let count)? = found[1]["completed"], let completed = Int(count) else {
            Issue.record("no count in \(found[1])")
            return
        }
        #expect(abs(completed - 60) <= 3, "sent \(completed)")
    }

    @Test func perRequestValuesReachTheServer() throws {
        let server = try DemoServerProcess(accessLog: true)
        defer { server.process.terminate() }
        let directory = NSTemporaryDirectory() + "fathom-batch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "id,role\n1,admin\n3,member\n".write(toFile: directory + "/rows.csv", atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(
            [server.baseURL],
            script: """
                get /users/{{id}} role=={{role}} n=={{$i}} --data rows.csv
                get /echo/{{$random.int 1 3}} --repeat 3
                save batch.fathom
                """, directory: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let requests = server.takeRequests()
        #expect(requests.contains("GET /users/1?role=admin&n=0"))
        #expect(requests.contains("GET /users/3?role=member&n=1"))
        #expect(requests.filter { $0.hasPrefix("GET /echo/") }.count == 3)
        // What `save` writes replays the same batches.
        let saved = try String(contentsOfFile: directory + "/batch.fathom", encoding: .utf8)
        #expect(
            saved.contains("get '/users/{{id}}' 'role=={{role}}' 'n=={{$i}}' --data rows.csv")
                || saved.contains("--data rows.csv"))
        let replay = try FathomBinary.run(["replay", "batch.fathom"], directory: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        let replayed = server.takeRequests()
        #expect(replayed.contains("GET /users/3?role=member&n=1"))
    }

    /// Ctrl-C in the middle of a batch ends every request in flight and keeps the results so far;
    /// the prompt goes on, and `expect batch` reads what arrived.
    @Test func ctrlCEndsABatchAndKeepsWhatArrived() throws {
        let server = try DemoServerProcess()
        defer { server.process.terminate() }
        let state = NSTemporaryDirectory() + "fathom-batch-tmux-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try Tmux(
            "XDG_STATE_HOME=\(state) FATHOM_CONFIG=/nonexistent \(FathomBinary.binary) \(server.baseURL)")
        try terminal.waitFor("/>")
        try terminal.type("get /slow ms==300 --repeat 1000 -c 4")
        try terminal.send("Enter")
        // The progress line: count of the total, a rate, the way out.
        let progress = try terminal.waitFor("/1,000 ·", timeout: 20)
        #expect(progress.contains("Ctrl-C cancels"))
        Thread.sleep(forTimeInterval: 1)
        try terminal.send("C-c")
        let summary = try terminal.waitFor("cancelled after", timeout: 20)
        #expect(summary.contains("in flight abandoned"))
        #expect(summary.contains("status   200 OK ×"))
        try terminal.waitForPrompt()
        try terminal.type("expect batch count > 3")
        try terminal.send("Enter")
        try terminal.waitFor("✓ expect batch count > 3")
    }
}
