import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

/// A failure is a value — its domain, its problem and the values that names — and one renderer
/// makes the sentence a person reads and the fields a script reads.
@Suite struct FailureTests {
    /// Lines that fail to parse: the domain, the problem, and the line the renderer makes.
    static let parseFailures: [(line: String, problem: CommandError.Problem, rendered: String)] = [
        (
            "hedaer X: 1", .unknown(kind: "command", word: "hedaer", suggestion: "header"),
            "error at column 1: unknown command 'hedaer' — did you mean 'header'?"
        ),
        (
            "frobnicate", .unknown(kind: "command", word: "frobnicate", suggestion: nil),
            "error at column 1: unknown command 'frobnicate' — type `help` for the list"
        ),
        (
            "timeout 10x", .invalid(kind: "duration", value: "10x"),
            "error at column 9: invalid duration '10x' — write 10s, 500ms or 2m"
        ),
        (
            "inspect", .missing("a JSONPath"),
            "error at column 8: missing a JSONPath — usage: \(InspectCommand.spec.synopsis)"
        ),
        (
            "diff #1 #2 #3", .unexpected(word: "#3"),
            "error at column 12: unexpected '#3' — usage: \(DiffCommand.spec.synopsis)"
        ),
        (
            "export hra", .unknown(kind: "export option", word: "hra", suggestion: "har"),
            "error at column 8: unknown export option 'hra' — did you mean 'har'?"
        ),
    ]

    @Test(arguments: parseFailures.indices)
    func aLineThatDoesNotParseIsAParseFailure(index: Int) throws {
        let (line, problem, rendered) = Self.parseFailures[index]
        let error = try #require(parseError(line), "\(line) parsed")
        #expect(error.domain == .parse, "\(line)")
        #expect(error.problem == problem, "\(line)")
        #expect(error.description == rendered, "\(line)")
    }

    static func executor() -> Executor {
        let transport = MockTransport()
        transport.register("/users", .json(#"{"data": [{"id": 1}]}"#))
        return Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
    }

    /// The failure a line ends with, as a line's error.
    static func failure(of line: String, after setup: [String] = []) async throws -> CommandError {
        let executor = executor()
        for setup in setup { _ = await executor.run(setup) }
        let result = await executor.run(line)
        guard case .failure(let failure)? = result.outputs.first, case .command(let error) = failure.reason else {
            throw CommandError(.session, "\(line) did not fail with a line's error: \(result.outputs)")
        }
        return error
    }

    /// Lines that parse and fail when they run, each in the domain it failed in.
    @Test func aLineThatFailsWhenItRunsSaysWhere() async throws {
        let noResponse = try await Self.failure(of: "expect status 200")
        #expect(noResponse.domain == .session && noResponse.problem == .noResponse)
        #expect(noResponse.description == "error: no response yet — send a request first")

        let unset = try await Self.failure(of: "unset nope", after: ["set nape = 1"])
        #expect(unset.problem == .notFound(kind: "variable", name: "nope", suggestion: "nape"))
        #expect(unset.description == "error: no variable 'nope' — did you mean 'nape'?")

        let variable = try await Self.failure(
            of: "get http://api.test/{{misssing}}", after: ["set missing = 1"])
        #expect(variable.domain == .session)
        #expect(variable.problem == .unknownVariable(name: "misssing", suggestion: "missing"))

        let mock = try await Self.failure(of: "mock /x @/nonexistent-dir/body.json", after: ["base http://api.test"])
        #expect(mock.domain == .file && mock.problem == .cannotRead(path: "/nonexistent-dir/body.json", reason: nil))
    }

    /// A secret with no value is the environment's fault: a replay counts it as a runtime
    /// failure, and the advice names the exact variable to set.
    @Test func aSecretWithNoValueNamesWhereToSetIt() {
        let error = CommandError.noValue(forSecret: "api-key", canBeAsked: false)
        #expect(error.missingSecret == "api-key")
        #expect(Failure(error: error).isRuntime)
        #expect(error.description == "error: secret 'api-key' has no value — set FATHOM_SECRET_API_KEY, add it to .env")
        #expect(!Failure(error: CommandError(.parse, .missing("x"))).isRuntime)
    }

    /// `--output json` carries what the sentence says as fields: a script reads `problem`,
    /// `word` and `suggestion` without parsing `message`.
    @Test func jsonCarriesTheProblemsValues() throws {
        let renderer = JSONOutputRenderer(redactor: Redactor())
        func fields(_ error: CommandError) throws -> [String: Any] {
            let line = renderer.render(.failure(Failure(.command(error))))
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any])
        }
        let unknown = try fields(try #require(parseError("hedaer X: 1")))
        #expect(unknown["kind"] as? String == "command")
        #expect(unknown["domain"] as? String == "parse")
        #expect(unknown["problem"] as? String == "unknown")
        #expect(unknown["what"] as? String == "command")
        #expect(unknown["word"] as? String == "hedaer")
        #expect(unknown["suggestion"] as? String == "header")
        #expect(unknown["hint"] as? String == "did you mean 'header'?")
        #expect(unknown["column"] as? Int == 1)
        #expect(unknown["message"] as? String == "error at column 1: unknown command 'hedaer' — did you mean 'header'?")

        let secret = try fields(.noValue(forSecret: "token"))
        #expect(secret["domain"] as? String == "session" && secret["problem"] as? String == "no_value")
        #expect(secret["secret"] as? String == "token" && secret["typed"] as? Bool == false)

        let refused = try fields(.notSent(["query: page is required", "body: name is required"]))
        #expect(refused["domain"] as? String == "expectation")
        #expect(refused["problems"] as? [String] == ["query: page is required", "body: name is required"])

        let written = try fields(CommandError(.file, .cannotWrite(path: "/x/out.json", reason: "permission denied")))
        #expect(written["file"] as? String == "/x/out.json" && written["cause"] as? String == "permission denied")
    }

    /// A session file's line that does not parse keeps its failure: a replay's `--output json`
    /// says what is wrong with the line as the prompt's does, with where it is.
    @Test func aFilesBadLineKeepsItsProblem() throws {
        let problem = try #require(
            #expect(throws: SessionFile.Problem.self) {
                try SessionFile.parse("base http://x.test\nget /a\nsned /b\n", path: "t.fathom")
            })
        #expect(problem.line == 3 && problem.column == 1)
        #expect(problem.error?.problem == .unknown(kind: "command", word: "sned", suggestion: "send"))
        let line = JSONOutputRenderer(redactor: Redactor()).render(.failure(Failure(.sessionFile(problem))))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "session_file" && object["file"] as? String == "t.fathom")
        #expect(object["domain"] as? String == "parse" && object["problem"] as? String == "unknown")
        #expect(object["word"] as? String == "sned" && object["suggestion"] as? String == "send")
    }

    /// A refused request lists up to 20 problems and counts the rest, in the renderer.
    @Test func aRefusedRequestCountsWhatItDoesNotList() {
        let problems = (1...25).map { "problem \($0)" }
        let message = CommandError.notSent(problems).message
        #expect(message.hasPrefix("not sent: problem 1; problem 2;"))
        #expect(message.hasSuffix("problem 20; and 5 more"))
    }
}
