import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

/// The response archive: every session's exchanges on disk, masked, bounded, read back by `@ID`.
@Suite struct ResponseArchiveTests {
    static func directory() -> String { NSTemporaryDirectory() + "fathom-archive-\(UUID().uuidString)" }

    static func entry(
        _ number: Int, path: String = "/users/1", body: String = #"{"id": 1}"#
    ) throws
        -> ResponseHistory.Entry
    {
        var headers = NetworkHeaders()
        headers.add(.contentType, "application/json")
        let response = NetworkResponse(
            status: .ok, headers: headers, body: Data(body.utf8), httpVersion: "HTTP/1.1",
            request: PreparedRequest(method: .get, url: try RequestURL(parsing: "http://127.0.0.1:8080" + path)),
            timing: ResponseTiming(firstByte: .milliseconds(3), total: .milliseconds(5)))
        return ResponseHistory.Entry(number: number, response: response)
    }

    static func record(
        _ entry: ResponseHistory.Entry, _ archive: ResponseArchive, at: Double = Date().timeIntervalSince1970,
        redactor: Redactor = Redactor()
    ) -> ArchivedResponse {
        ArchivedResponse(
            entry, session: archive.session, at: at, redactor: redactor, bodyLimit: archive.limits.bodyLimit)
    }

    /// Two sessions share the archive: IDs go on from one to the next, and each reads the other's.
    @Test func twoSessionsNumberOnAndReadEachOther() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = ResponseArchive(directory: directory)
        #expect(try first.keep(Self.record(try Self.entry(1), first)) == 1)
        #expect(try first.keep(Self.record(try Self.entry(2, path: "/users/2"), first)) == 2)
        let second = ResponseArchive(directory: directory)
        #expect(first.session != second.session)
        #expect(try second.keep(Self.record(try Self.entry(1, path: "/todos"), second)) == 3)

        #expect(first.index().map(\.id) == [1, 2, 3])
        #expect(
            first.index().map(\.listed) == [
                "GET http://127.0.0.1:8080/users/1 → 200 OK", "GET http://127.0.0.1:8080/users/2 → 200 OK",
                "GET http://127.0.0.1:8080/todos → 200 OK",
            ])
        let read = try #require(second.record(2))
        #expect(read.session == first.session && read.number == 2)
        let entry = try #require(read.entry())
        #expect(entry.reference == .archived(2))
        #expect(entry.response.url.description == "http://127.0.0.1:8080/users/2")
        #expect(entry.response.status.code == 200)
        #expect(entry.response.headers[.contentType] == "application/json")
        #expect(entry.response.timing.total == .milliseconds(5))
        #expect(try read.document() == JSON(parsing: #"{"id": 1}"#))
        #expect(second.record(9) == nil)
        for file in ["index", "records"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + file)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    /// Sessions writing at once never get the same ID: the index is locked while one is taken.
    @Test func sessionsWritingAtOnceGetEveryIDOnce() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entry = try Self.entry(1)
        let ids = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let archive = ResponseArchive(directory: directory)
                    return try (0..<50).map { _ in try archive.keep(Self.record(entry, archive)) }
                }
            }
            return try await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(ids.sorted() == Array(1...200))
        let archive = ResponseArchive(directory: directory)
        #expect(archive.index().map(\.id) == Array(1...200))
        #expect(archive.records(archive.index()).count == 200, "every index line points at its own record")
    }

    /// Past the size, the oldest go; IDs never repeat, even when every record went.
    @Test func theSizeBoundDropsTheOldestAndIDsGoOn() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let limits = ResponseArchive.Limits(bytes: 20_000, age: .seconds(86_400))
        let archive = ResponseArchive(directory: directory, limits: limits)
        let body = "{\"text\": \"" + String(repeating: "x", count: 900) + "\"}"
        for number in 1...100 { _ = try archive.keep(Self.record(try Self.entry(number, body: body), archive)) }
        let size = try #require(FileManager.default.attributesOfItem(atPath: directory + "/records")[.size] as? Int)
        #expect(size <= 20_000)
        let ids = archive.index().map(\.id)
        #expect(ids.last == 100 && ids.count >= 10 && ids.count < 25, "the newest kept: \(ids)")
        #expect(ids == Array(ids.first!...100), "the newest, in order, none lost between")
        #expect(archive.record(ids.first!) != nil && archive.record(1) == nil)
        // A body past an eighth of the bound is not kept; its size is said.
        let big = String(repeating: "y", count: 3000)
        let id = try archive.keep(Self.record(try Self.entry(101, body: big), archive))
        #expect(id == 101)
        let record = try #require(archive.record(101))
        guard case .response(let kept) = record.content else { throw CommandError(.session, "not a response") }
        #expect(!kept.bodyKept && kept.size == 3000 && kept.body.isEmpty)
        #expect(throws: CommandError.self) { try record.document() }
    }

    /// Records older than the age go at a session's first write, and are never listed.
    @Test func theAgeBoundDropsOldRecords() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let limits = ResponseArchive.Limits(bytes: 1 << 20, age: .seconds(3600))
        let earlier = ResponseArchive(directory: directory, limits: limits)
        let now = Date().timeIntervalSince1970
        _ = try earlier.keep(Self.record(try Self.entry(1, path: "/old"), earlier, at: now - 7200))
        _ = try earlier.keep(Self.record(try Self.entry(2, path: "/recent"), earlier, at: now - 60))
        #expect(earlier.index().map(\.id) == [2], "the old one is past the age: never listed")
        let later = ResponseArchive(directory: directory, limits: limits)
        _ = try later.keep(Self.record(try Self.entry(1, path: "/now"), later))
        let records = try String(contentsOfFile: directory + "/records", encoding: .utf8)
        #expect(!records.contains("/old") && records.contains("/recent") && records.contains("/now"))
        #expect(later.index().map(\.id) == [2, 3])
    }

    /// A session that holds the lock and never lets go (a stopped process) costs another at most
    /// ``ResponseArchive/lockWait``, then its write fails; once let go, writes go on.
    @Test func aHeldLockIsWaitedForBoundedly() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let archive = ResponseArchive(directory: directory)
        _ = try archive.keep(Self.record(try Self.entry(1), archive))
        let holder = open(directory + "/index", O_RDWR)
        #expect(flock(holder, LOCK_EX) == 0)
        let started = ContinuousClock.now
        #expect(throws: POSIXError.self) { try archive.keep(Self.record(try Self.entry(2), archive)) }
        let waited = ContinuousClock.now - started
        #expect(waited >= .seconds(1.9) && waited < .seconds(10), "\(waited)")
        flock(holder, LOCK_UN)
        close(holder)
        #expect(try archive.keep(Self.record(try Self.entry(3), archive)) == 2)
    }

    /// A torn or foreign line, or an index that points at the wrong place, is skipped, never misread.
    @Test func aDamagedArchiveIsReadForWhatItHolds() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let archive = ResponseArchive(directory: directory)
        _ = try archive.keep(Self.record(try Self.entry(1), archive))
        _ = try archive.keep(Self.record(try Self.entry(2, path: "/two"), archive))
        let handle = try #require(FileHandle(forWritingAtPath: directory + "/index"))
        handle.seekToEndOfFile()
        handle.write(Data("{\"id\":\n not json\n".utf8))
        handle.closeFile()
        #expect(archive.index().map(\.id) == [1, 2])
        // The records file replaced under the index: offsets point at other records, caught by the ID check.
        let records = try Data(contentsOf: URL(fileURLWithPath: directory + "/records"))
        let lines = records.split(separator: 10)
        try (Data(lines[1]) + Data([10]) + Data(lines[0]) + Data([10])).write(
            to: URL(fileURLWithPath: directory + "/records"))
        #expect(archive.record(1) == nil && archive.record(2) == nil)
        #expect(try archive.keep(Self.record(try Self.entry(3), archive)) == 3, "the next ID after the last good line")
    }

    /// What the screen masks is masked on disk: secret headers, registered secrets in the URL,
    /// headers, request body and response body.
    @Test func aSecretIsNeverStoredInClear() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let secret = "s3cr3t-planted-0123456789"
        let redactor = Redactor()
        redactor.addSecret(secret)
        var requestHeaders = NetworkHeaders()
        requestHeaders.add(.authorization, "Bearer other-token-abcdefghijkl")
        requestHeaders.add(NetworkHeaders.Name("X-Echo"), secret)
        var headers = NetworkHeaders()
        headers.add(.setCookie, "session=cookie-value-abcdef; Path=/")
        headers.add(NetworkHeaders.Name("X-Token"), secret)
        let response = NetworkResponse(
            status: .ok, headers: headers, body: Data("{\"token\": \"\(secret)\"}".utf8),
            request: PreparedRequest(
                method: .post,
                url: try RequestURL(parsing: "http://127.0.0.1/a?api_key=key-value-abcdefgh&q=\(secret)"),
                headers: requestHeaders, body: .bytes(Data("password=\(secret)".utf8))))
        let archive = ResponseArchive(directory: directory)
        _ = try archive.keep(
            ArchivedResponse(
                ResponseHistory.Entry(number: 1, response: response), session: archive.session, at: 0,
                redactor: redactor, bodyLimit: 1 << 20))
        for file in ["index", "records"] {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for piece in TrustTests.pieces(of: secret) + [
                "other-token-abcdefghijkl", "cookie-value-abcdef", "key-value-abcdefgh",
            ] {
                #expect(!text.contains(piece), "\(file) holds \(piece)")
            }
        }
    }

    /// The test on a record's bytes before it is parsed never drops a match: on bodies in any case,
    /// with quotes, escapes, non-ASCII and binary bytes, every search finds with it what it finds
    /// parsing every record.
    @Test func searchingTheBytesFirstFindsWhatParsingEveryRecordFinds() async throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let archive = ResponseArchive(directory: directory)
        let bodies = [
            #"{"name": "Ada Lovelace", "tags": ["Math", "x"]}"#, #"{"name": "GRACE \"Amazing\" Hopper"}"#,
            #"{"city": "Zürich", "note": "line\nbreak"}"#, "plain text with TeaPot inside", "Ünïcode ÉCOLE",
        ]
        for (number, body) in bodies.enumerated() {
            _ = try archive.keep(Self.record(try Self.entry(number + 1, path: "/r/\(number)", body: body), archive))
        }
        var binary = Data([0xFF, 0xFE, 0x00]) + Data("hidden TEXT".utf8)
        binary.append(0xC3)
        let response = NetworkResponse(
            status: .ok, body: binary,
            request: PreparedRequest(method: .get, url: try RequestURL(parsing: "http://127.0.0.1/bin")))
        _ = try archive.keep(
            Self.record(ResponseHistory.Entry(number: 9, response: response), archive))
        let (executor, _) = ExecutorTests.echoing()
        let searches: [ResponsesCommand.Mode] = [
            .text("ada"), .text(#"grace \"amazing\""#), .text("zürich"), .text("teapot"), .text("TEAPOT"),
            .text("hidden text"), .text("ÉCOLE"), .text("r/3"), .text("200 ok"), .text(#"line\nbreak"#),
            .value(FathomREPL.Expectation(subject: .value("$.name"), op: .equal, operand: #""Ada Lovelace""#)),
            .value(FathomREPL.Expectation(subject: .value("$.tags"), op: .contains, operand: #""Math""#)),
            .value(FathomREPL.Expectation(subject: .value("$.name"), op: .startsWith, operand: "GRACE")),
            .value(FathomREPL.Expectation(subject: .value("$.city"), op: .equal, operand: #""Zürich""#)),
        ]
        let all = archive.records(archive.index())
        #expect(all.count == 6)
        for mode in searches {
            let search = try await ArchiveSearch(mode: mode, executor: executor)
            let parsed = all.filter { search.matches($0) }.map(\.id)
            let screened = archive.records(archive.index(), where: search.mayMatch).filter { search.matches($0) }.map(
                \.id)
            #expect(screened == parsed, "\(mode)")
            #expect(!parsed.isEmpty, "\(mode) finds something")
        }
    }

    @Test func sizesAndDaysAsPeopleTypeThem() {
        #expect(ByteSizeText.parse("100MB") == 100 << 20)
        #expect(ByteSizeText.parse("512KiB") == 512 << 10)
        #expect(ByteSizeText.parse("1.5g") == 3 << 29)
        #expect(ByteSizeText.parse("4096") == 4096)
        #expect(ByteSizeText.parse("lots") == nil && ByteSizeText.parse("-1MB") == nil)
        #expect(ByteSizeText.parse("1e300TB") == nil, "past the maximum: refused, not a trap")
        #expect(DurationText.parse("30d") == .seconds(30 * 86_400))
        #expect(DurationText.long(.seconds(30 * 86_400)) == "30 days")
        #expect(DurationText.long(.seconds(3600)) == "1 hour")
    }

    @Test func theConfigSetsItOrTurnsItOff() {
        let off = UserConfig(contents: "archive off\n", path: "/c")
        #expect(off.problems.isEmpty && off.responseArchive(environment: [:]) == nil)
        let set = UserConfig(contents: "archive-size 200MB\narchive-age 7d\n", path: "/c")
        let archive = set.responseArchive(environment: ["XDG_STATE_HOME": "/state"])
        #expect(archive?.limits == ResponseArchive.Limits(bytes: 200 << 20, age: .seconds(7 * 86_400)))
        #expect(archive?.directory == "/state/fathom/responses")
        let bad = UserConfig(contents: "archive maybe\narchive-size 10\narchive-age 1s\n", path: "/c")
        #expect(
            bad.problems == [
                "/c:1: archive is on or off, not 'maybe'",
                "/c:2: archive-size is a size of at least 1MB (as in 100MB), not '10'",
                "/c:3: archive-age is a duration of at least a minute (as in 30d or 12h), not '1s'",
            ])
        #expect(UserConfig.Key.archiveSize.environmentName == "FATHOM_ARCHIVE_SIZE")
    }
}

/// Two sessions on one archive, through the commands: the second lists, searches, shows,
/// inspects and diffs the first's responses.
@Suite struct ArchiveSessionTests {
    static func executor(archive directory: String) -> (Executor, MockTransport) {
        let transport = MockTransport()
        transport.register(
            "/",
            .handler { request in
                let name = request.url.path.hasSuffix("/2") ? "Grace" : "Ada"
                let token = request.headers[NetworkHeaders.Name("X-Echo")] ?? ""
                return .json(
                    #"{"id": 1, "name": "\#(name)", "echo": "\#(token)", "version": "\#(request.url.query ?? "")"}"#)
            })
        var options = Executor.Options(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport)
        options.archive = ResponseArchive(directory: directory)
        return (Executor(options: options), transport)
    }

    @Test func aLaterSessionFindsSearchesShowsAndDiffsAnEarliersResponses() async throws {
        let directory = ResponseArchiveTests.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let secret = "planted-secret-0123456789"
        let (first, _) = Self.executor(archive: directory)
        let earlier = await TrustTests.run(
            first,
            """
            base http://api.test
            secret token = \(secret)
            header X-Echo: {{token}}
            get /users/1 v==1
            get /users/2
            """)
        #expect(earlier.allSatisfy { $0.outcome == .succeeded })
        // Written together at the session's end (as the prompt does when it ends).
        #expect(!FileManager.default.fileExists(atPath: directory + "/index"), "not yet: one write per batch")
        await first.writeArchive()

        let (second, _) = Self.executor(archive: directory)
        let later = await TrustTests.run(
            second,
            """
            base http://api.test
            get /users/1 v==2
            responses --all
            """)
        let listing = TrustTests.text([later[2]], second)
        #expect(listing.contains("@1 "), "\(listing)")
        #expect(listing.contains("GET http://api.test/users/1?v=1 → 200 OK"))
        #expect(listing.contains("@3 ") && listing.contains("#1  GET http://api.test/users/1?v=2"))
        #expect(listing.contains("3 kept in \(directory)"))

        let searched = await TrustTests.run(
            second,
            """
            responses search grace
            responses search $.name == "Ada"
            responses search $.version == "v=1"
            responses search nothing-has-this
            """)
        let found = searched.map { TrustTests.text([$0], second) }
        #expect(found[0].contains("@2 ") && !found[0].contains("@1 ") && found[0].contains("1 of the archive's"))
        #expect(found[1].contains("@1 ") && found[1].contains("@3 ") && !found[1].contains("@2 "))
        #expect(found[2].contains("@1 ") && !found[2].contains("@3 "))
        #expect(found[3].contains("none: 0 of the archive's exchanges match"))

        let read = await TrustTests.run(
            second,
            """
            show @2
            inspect @2 $.name
            diff @1 #1
            diff @1 @2 --body
            show @9
            inspect @0 $.x
            """)
        #expect(read.map(\.outcome) == [.succeeded, .succeeded, .succeeded, .succeeded, .failed, .failed])
        let shown = TrustTests.text([read[0]], second)
        #expect(shown.contains("HTTP/1.1 200 OK") && shown.contains("@2") && shown.contains("\"Grace\""))
        #expect(TrustTests.text([read[1]], second).contains("\"Grace\""))
        let diff = TrustTests.text([read[2]], second)
        #expect(diff.contains("@1 GET /users/1?v=1 → #1 GET /users/1?v=2"), "\(diff)")
        #expect(diff.contains("version") && diff.contains("\"v=1\"") && diff.contains("\"v=2\""), "\(diff)")
        let names = TrustTests.text([read[3]], second)
        #expect(names.contains("@1 GET /users/1?v=1 → @2 GET /users/2") && names.contains("\"Grace\""), "\(names)")
        #expect(TrustTests.text([read[4]], second).contains("no @9 in the response archive"))

        // The secret was masked on the first session's screen: on disk it is masked too.
        for file in ["index", "records"] {
            let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            for piece in TrustTests.pieces(of: secret) { #expect(!text.contains(piece), "\(file) holds \(piece)") }
        }
        #expect(TrustTests.text(earlier + later + searched + read, second).contains(secret) == false)
    }

    /// With no archive, `responses search` searches this session's history, and `@ID` says why not.
    @Test func withoutAnArchiveSearchReadsThisSession() async throws {
        let (executor, _) = ExecutorTests.echoing()
        let results = await TrustTests.run(
            executor,
            """
            base http://api.test
            get /users/1
            get /todos
            responses search todos
            responses search $.path == "/users/1"
            responses --all
            show @1
            """)
        #expect(
            results.map(\.outcome) == [.succeeded, .succeeded, .succeeded, .succeeded, .succeeded, .failed, .failed])
        let todos = TrustTests.text([results[3]], executor)
        #expect(todos.contains("#2") && !todos.contains("#1 "))
        let users = TrustTests.text([results[4]], executor)
        #expect(users.contains("#1") && !users.contains("#2 "))
        #expect(TrustTests.text([results[5]], executor).contains("the response archive is off here"))
    }
}
