import FathomHTTP
import FathomJSON
import Foundation
import Synchronization
import Testing

@testable import FathomREPL

/// Batches on a MockTransport: what each request carries, the summary, the history entry.
@Suite struct BatchTests {
    private func run(_ executor: Executor, _ lines: String) async -> [CommandResult] {
        var results: [CommandResult] = []
        for line in lines.split(separator: "\n") { results.append(await executor.run(String(line))) }
        return results
    }

    private func summary(_ result: CommandResult?) throws -> BatchSummary {
        for case .batch(let summary) in result?.outputs ?? [] { return summary }
        throw CommandError(.session, "no batch in \(String(describing: result?.outputs))")
    }

    @Test func aRaceShowsAsClassesOfBodies() async throws {
        let transport = MockTransport()
        let calls = Mutex(0)
        // Every tenth withdrawal sees the balance already spent: the race a batch is for.
        transport.register(
            "/withdraw",
            .handler { _ in
                let call = calls.withLock { count in
                    count += 1
                    return count
                }
                return .json(
                    call % 10 == 0 ? #"{"balance": -50, "at": \#(call)}"# : #"{"at": \#(call), "balance": 50}"#)
            })
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        let results = await run(
            executor,
            """
            base http://bank.test
            volatile $.at
            post /withdraw amount:=50 --repeat 50 -c 8
            expect batch status 2xx == 100%
            expect batch classes == 2
            expect batch count == 50
            expect batch errors == 0
            expect batch p99 > 1h
            """)
        #expect(
            results.map(\.outcome) == [
                .succeeded, .succeeded, .succeeded, .succeeded, .succeeded, .succeeded,
                .succeeded, .checkFailed,
            ])
        let summary = try summary(results[2])
        #expect(summary.completed == 50 && summary.sent == 50)
        #expect(summary.statuses.map(\.code) == [200])
        #expect(summary.classes.map(\.count) == [45, 5])
        // Member order and the volatile `at` make no class of their own; the minority is its difference.
        let diff = try #require(summary.classes[1].diff)
        #expect(diff.changes.map(\.path.description) == ["$['balance']"])
        let text = BatchRenderer(palette: Palette(enabled: false), redactor: Redactor()).render(summary)
        #expect(text.contains("45 × 200 OK  {\"balance\":50}"))
        #expect(text.contains(" 5 × 200 OK  ~ $['balance']  50 → -50"))
        // One entry in the history, read as its summary.
        #expect(await executor.record.responses.exchange(nil, as: BatchSummary.self)?.number == 1)
        let inspected = await executor.run("inspect #1 $.classes[1].body.balance")
        guard case .inspection(let inspection)? = inspected.outputs.first else {
            throw CommandError(.session, "no inspection")
        }
        #expect(inspection.nodes.map(\.value) == [.number("-50")])
        let status = await executor.run("expect status 200")
        #expect(status.outcome == .failed)
        guard case .failure(let failure)? = status.outputs.first, case .command(let error) = failure.reason else {
            throw CommandError(.session, "expected a failure")
        }
        #expect(error.message == "the last entry is batch #1 (50 requests), not one response")
        #expect(transport.requests.count == 50)
    }

    @Test func eachRequestGetsItsIndexARowAndFreshValues() async throws {
        let (executor, transport) = ExecutorTests.echoing()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-batch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("rows.csv").path
        try "name,note\nAda,\"first, and \"\"best\"\"\"\r\nGrace,second\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        let results = await run(
            executor,
            """
            base http://api.test
            post /people/{{$i}} name={{name}} note={{note}} id={{$uuid}} roll={{$random.int 1 6}} --data \(csv)
            """)
        #expect(results.map(\.outcome) == [.succeeded, .succeeded])
        let bodies = try transport.requests.map { request -> JSON in
            guard case .bytes(let data)? = request.body else { throw CommandError(.session, "no body") }
            return try JSON(parsing: data)
        }
        #expect(Set(transport.requests.map(\.url.path)) == ["/people/0", "/people/1"])
        func string(_ value: JSON?) -> String? {
            if case .string(let text)? = value { return text }
            return nil
        }
        let byName = Dictionary(uniqueKeysWithValues: bodies.map { (string($0["name"]) ?? "", $0) })
        #expect(byName["Ada"]?["note"] == .string("first, and \"best\""))
        #expect(byName["Grace"]?["note"] == .string("second"))
        let ids = bodies.compactMap { string($0["id"]) }
        #expect(Set(ids).count == 2 && ids.allSatisfy { UUID(uuidString: $0) != nil })
        let rolls = bodies.compactMap { string($0["roll"]).flatMap { Int($0) } }
        #expect(rolls.count == 2 && rolls.allSatisfy { (1...6).contains($0) })
    }

    @Test func aBatchCarriesTheAPIsStateAndNoOther() async throws {
        let (executor, transport) = ExecutorTests.echoing()
        let results = await run(
            executor,
            """
            base http://api.test
            auth bearer s3cr3t-token-value
            default header X-Team: core
            get /me --repeat 3 -c 2
            get http://other.test/x --repeat 2
            """)
        #expect(results.map(\.outcome).allSatisfy { $0 == .succeeded })
        let own = transport.requests.filter { $0.url.host == "api.test" }
        let other = transport.requests.filter { $0.url.host == "other.test" }
        #expect(own.count == 3 && other.count == 2)
        #expect(own.allSatisfy { $0.headers[.authorization] == "Bearer s3cr3t-token-value" })
        #expect(own.allSatisfy { $0.headers[NetworkHeaders.Name("X-Team")] == "core" })
        #expect(
            other.allSatisfy { $0.headers[.authorization] == nil && $0.headers[NetworkHeaders.Name("X-Team")] == nil })
    }

    @Test func aRowThatLeadsToAnotherOriginStopsTheBatch() async throws {
        let (executor, transport) = ExecutorTests.echoing()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-batch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("hosts.csv").path
        try "host\napi.test\nevil.test\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let results = await run(
            executor,
            """
            base http://api.test
            auth bearer s3cr3t-token-value
            get http://{{host}}/x --data \(csv)
            """)
        let summary = try summary(results[2])
        #expect(summary.ending == .stopped(index: 1, reason: "request 1 goes to http://evil.test, not http://api.test"))
        #expect(transport.requests.map(\.url.host) == ["api.test"])
    }

    @Test func aBatchWithNoResponseFailsAndKeepsItsSummary() async throws {
        let transport = MockTransport()
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        let results = await run(executor, "base http://api.test\nget /nothing --repeat 3 -c 3")
        let last = try #require(results.last)
        #expect(last.outcome == .failed)
        let summary = try summary(last)
        #expect(summary.errors.map(\.kind) == ["no mock"] && summary.errorCount == 3)
        guard case .failure(let failure)? = last.outputs.last, case .network(.noMock) = failure.reason else {
            throw CommandError(.session, "expected the batch's error, got \(last.outputs)")
        }
        // What happened is kept: the batch is #1, and the draft is as it was.
        #expect(await executor.record.responses.exchange(nil, as: BatchSummary.self)?.number == 1)
        #expect(await executor.session.draft == Draft())
    }

    @Test func aDraftThatCannotBeSentFailsBeforeAnyRequest() async throws {
        let (executor, transport) = ExecutorTests.echoing()
        let results = await run(executor, "base http://api.test\nget /x/{{nope}} --repeat 5")
        #expect(results.last?.outcome == .failed)
        #expect(transport.requests.isEmpty)
        #expect(await executor.record.responses.lastNumber == 0)
    }

    @Test func theSummaryAsJSON() async throws {
        let transport = MockTransport()
        transport.register("/ok", .json(#"{"ok":true}"#))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        let results = await run(executor, "base http://api.test\nget /ok --repeat 4 -c 2 --rate 1000/s")
        let summary = try summary(results.last)
        let json = summary.json
        #expect(json["number"] == .number("1"))
        #expect(json["completed"] == .number("4"))
        #expect(json["status"] == .object([JSON.Member(key: "200", value: .number("4"))]))
        #expect(json["plan"]?["rate"] == .number("1000"))
        #expect(json["plan"]?["concurrency"] == .number("2"))
        #expect(json["latency"]?["p99"] != nil)
        #expect(json["classes"]?[0]?["body"] == .object([JSON.Member(key: "ok", value: .bool(true))]))
        let line = JSONOutputRenderer(redactor: Redactor()).render(.batch(summary))
        #expect(line.hasPrefix(#"{"type":"batch","version":1,"number":1,"#))
    }
}

@Suite struct CSVTableTests {
    @Test func readsQuotesCommasAndLineBreaks() throws {
        let table = try CSVTable(parsing: "\u{FEFF}id,text\r\n1,\"a, \"\"b\"\"\nc\"\n\n2,plain", source: "t.csv")
        #expect(table.columns == ["id", "text"])
        #expect(table.rows == [["1", "a, \"b\"\nc"], ["2", "plain"]])
        #expect(table.row(0) == ["id": "1", "text": "a, \"b\"\nc"])
    }

    @Test func badFilesAreOneClearError() {
        func message(_ text: String) -> String? {
            do {
                _ = try CSVTable(parsing: text, source: "t.csv")
                return nil
            } catch {
                return error.message
            }
        }
        #expect(message("") == "t.csv has no header row")
        #expect(message("a,b\n") == "t.csv has a header and no rows")
        #expect(message("a,b\n1,2,3\n") == "t.csv:2: 3 values for 2 columns")
        #expect(message("a\n\"open\n") == "t.csv:2: a quoted value is never closed")
        #expect(message("a,,c\n1,2,3") == "t.csv:1: column 2 has no name")
    }
}

@Suite struct BuiltInVariableTests {
    @Test func builtInsExpandAndSayWhenUsed() throws {
        let variables = Variables(environment: [:])
        let values = RequestValues(index: 7, row: ["city": "Oslo"])
        let text = try Variables.$request.withValue(values) {
            try variables.expand("/{{$i}}/{{city}}/{{$random.int 5 5}}")
        }
        #expect(text == "/7/Oslo/5")
        let used = values.used.load(ordering: .relaxed)
        #expect(used)
        let plain = RequestValues(index: 1)
        _ = try Variables.$request.withValue(plain) { try variables.expand("/users") }
        let plainUsed = plain.used.load(ordering: .relaxed)
        #expect(!plainUsed)
        // Outside a batch, a request is index 0.
        #expect(try variables.expand("{{$i}}") == "0")
        #expect(throws: CommandError.self) { try variables.expand("{{$random.int 9 1}}") }
        #expect(throws: CommandError.self) { try variables.expand("{{$nope}}") }
    }

    @Test func aTemplatesBlanksKeepItOneWord() throws {
        let words = try Tokenizer.words("get /d/{{$random.int 1 6}} x==1")
        #expect(words.map(\.text) == ["get", "/d/{{$random.int 1 6}}", "x==1"])
        #expect(try Tokenizer.words("a {b} c").map(\.text) == ["a", "{b}", "c"])
    }
}

@Suite struct ShardTests {
    @Test func slicesAreStableAndCoverEveryFileOnce() throws {
        let files = (1...10).map { "f\($0).fathom" }
        var all: [String] = []
        for index in 1...4 {
            let shard = try #require(ReplayRunner.shard("\(index)/4"))
            all += shard.slice(files)
            #expect(shard.slice(files) == shard.slice(files))
        }
        #expect(all.sorted() == files.sorted())
        #expect(ReplayRunner.shard("1/1")?.slice(files) == files)
        for bad in ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "-1/2"] {
            #expect(ReplayRunner.shard(bad) == nil, "\(bad)")
        }
    }
}

extension BatchTests {
    /// A rate is an open model: latency counts from each request's time on the schedule, `-c`
    /// defaults to as many in flight as the schedule needs, and a schedule that could not be kept
    /// says so (sent of planned, how late).
    @Test func aRateSaysWhenItsScheduleSlipped() async throws {
        let transport = MockTransport()
        transport.register(
            "/slow",
            .handler { _ in
                try await Task.sleep(for: .milliseconds(50))
                return .status(200)
            })
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        let results = await run(
            executor,
            """
            base http://api.test
            get /slow --rate 100/s --duration 1s -c 1
            get /slow --repeat 3 --rate 10/s
            """)
        let slipped = try summary(results[1])
        #expect(slipped.scheduleSlipped)
        #expect(slipped.options.planned == 100 && slipped.sent < 40, "\(slipped.sent) sent")
        #expect((slipped.maxLag ?? .zero) > .milliseconds(300))
        // The wait counts: p99 from the schedule is far above the server's 50 ms.
        #expect((slipped.latency?.p99 ?? .zero) > .milliseconds(300))
        let text = OutputRenderer(palette: Palette(enabled: false), redactor: Redactor())
            .render(.batch(slipped)).text
        #expect(text.contains("schedule slipped:") && text.contains("of 100 planned requests sent"), "\(text)")
        #expect(text.contains("allow more in flight with `-c N` (now 1)"))
        #expect(text.contains("* from each request's time on the schedule"))
        // Without -c a rate keeps as many in flight as it needs (up to 256), and says its plan.
        let kept = try summary(results[2])
        #expect(kept.options.maxConcurrent == BatchOptions.rateConcurrency)
        #expect(kept.sent == 3)
        guard case .object(let members) = kept.json, let plan = members.first(where: { $0.key == "plan" })?.value,
            case .object(let planMembers) = plan
        else { throw CommandError(.session, "no plan") }
        #expect(planMembers.contains { $0.key == "concurrency" && $0.value == .number("256") })
        #expect(members.contains { $0.key == "planned" } && members.contains { $0.key == "maxLagMs" })
    }
}

extension BatchTests {
    /// `diff` compares any two entries of the history: two batches as their summaries.
    @Test func twoBatchesDiffAsTheirSummaries() async throws {
        let transport = MockTransport()
        transport.register("/a", .json(#"{"ok": true}"#))
        transport.register("/b", .status(503))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        let results = await run(
            executor,
            """
            base http://api.test
            get /a --repeat 2
            get /b --repeat 3
            diff #1 #2 --ignore $.durationMs --ignore $.rate --ignore $.latency --ignore $.firstByte
            diff #1 #2 --headers
            diff #1
            """)
        #expect(results[3].outcome == .succeeded, "\(results[3].outputs)")
        guard case .diff(let diff)? = results[3].outputs.first, case .json(let changes)? = diff.body else {
            throw CommandError(.session, "no diff: \(results[3].outputs)")
        }
        #expect(diff.old.title == "batch GET /a × 2" && diff.new.title == "batch GET /b × 3")
        let patch = changes.patch.json.formatted(.compactText)
        #expect(patch.contains(#""path":"/sent""#) && patch.contains(#""/status/503""#), "\(patch)")
        #expect(results[4].outcome == .failed, "a batch has no headers")
        #expect(results[5].outcome == .succeeded, "the last entry is the batch: compared with it")
    }
}
