import FathomHTTP
@_spi(Fathom) import FathomJSON
import Foundation

/// `expect …`: checks the last response. A failed expectation makes the line fail, but it is no
/// error: the session goes on, and `replay` counts it.
struct ExpectCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "expect",
        synopsis:
            "expect status 200|2xx|NOT_FOUND | EXPR ==|!=|<|<=|>|>=|~|contains|startsWith|endsWith VALUE | EXPR exists|absent | header NAME ~ RE | trailer NAME ~ RE | time < 500ms | body ~ RE | schema | events >= 3 | event EXPR OP VALUE | message [EXPR OP VALUE] | batch p99 < 200ms",
        summary: "check the last response; a failure says expected and actual, and the session goes on",
        details: """
            VALUE is JSON when it parses as JSON (42, "Ada", [1,2], null), else text. `~` matches a \
            regular expression; `!~` must not match. `contains` (text, or an array's element), `startsWith` \
            and `endsWith` test text. `$.items.length()` (or `.count()`) is the size of what the path selects. \
            A header compares as a number with < <= > >= (`expect header X-Total-Count > 20`). `expect schema`: the response keeps its operation's \
            schema in the loaded description (`spec`), or a GraphQL response its operation's types (`graphql`); \
            `expect errors == 0` counts a GraphQL response's `errors`. A streamed response (server-sent events, NDJSON) \
            reads as the JSON array of its events (`expect $[0].data.n == 1`); `expect events >= 3` counts \
            them; `expect event $.data.type == "done"` holds when some event matches. After a batch (`send --repeat`), `expect batch` \
            checks its summary: a latency (min p50 p90 p99 p99.9 max mean, ttfb.p50 ttfb.p99) against a \
            duration, count sent errors classes against a number, rate against 500/s, `status 2xx` \
            against a share (100%) or a count. On a WebSocket (`ws`), `expect message $.type == "echo"` \
            waits for a message that matches (its JSON, or its text as a string), up to the `timeout` (10 s \
            without one), from the one after the last matched on; `expect message` waits for any. \
            After a gRPC call (`call`), `expect status NOT_FOUND` (a name or a code, 0 to 16) checks its status \
            and `expect trailer NAME …` its trailer metadata. `fathom replay` counts failed expectations.
            """,
        completion: .words([
            "status", "header", "trailer", "time", "body", "schema", "events", "errors", "event", "message", "batch",
        ]),
        group: .responses)

    var expectation: Expectation

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        ExpectCommand(expectation: try expect(&arguments))
    }

    var logKind: SessionLog.Kind? { .followUp }

    var readsLastResponse: Bool { true }

    var checksResponseSchema: Bool { expectation.subject == .schema }

    var checksGraphQLErrors: Bool { expectation.subject == .errors }

    var line: String {
        var writer = LineWriter(expectation.each.map { "expect " + $0.rawValue } ?? "expect")
        let expectation = self.expectation
        if expectation.each == .message, expectation.subject == .value("$"), expectation.op == .exists {
            return "expect message"
        }
        switch expectation.subject {
        case .schema: return "expect schema"
        case .status: writer.raw("status")
        case .time: writer.raw("time")
        case .body: writer.raw("body")
        case .header(let name): writer.raw("header " + Quoting.word(name))
        case .trailer(let name): writer.raw("trailer " + Quoting.word(name))
        case .value(let path): writer.word(path, literal: true)
        case .batch(let metric): writer.raw("batch " + metric.text)
        case .events: writer.raw("events")
        case .errors: writer.raw("errors")
        }
        guard let operand = expectation.operand else {
            writer.raw(expectation.op.rawValue)
            return writer.text
        }
        // Read raw to the end of the line; quotes around it are taken off unless it is a value
        // compared with a JSONPath's (JSON), so such an operand is written in quotes.
        let unquoted: Bool
        if case .value = expectation.subject {
            unquoted = expectation.op == .matches || expectation.op == .notMatches
        } else {
            unquoted = true
        }
        if expectation.subject == .status, expectation.op == .equal, Quoting.word(operand) == operand {
            writer.raw(operand)
        } else {
            writer.raw(expectation.op.rawValue)
            writer.raw(unquoted ? SetCommand.value(operand) : operand)
        }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if expectation.each == .message { return try await executor.expectMessage(expectation) }
        try executor.checkLastRequestAnswered()
        if case .batch(let metric) = expectation.subject {
            guard let batch = executor.record.responses.exchange(nil, as: BatchSummary.self)?.exchange else {
                throw CommandError(
                    .expectation, "the last request was not a batch",
                    hint: "send one with `send --repeat N` or `get PATH --repeat N`"
                )
            }
            let operand = try executor.session.variables.expand(expectation.operand ?? "")
            let result = try metric.evaluate(batch, expectation.op, operand)
            return CommandResult(
                result.passed ? .succeeded : .checkFailed, [.expectation(ExpectationOutput(line: "", result: result))])
        }
        let entry = try executor.record.responses.entry(nil)
        if expectation.each == .event { return try Self.anyEvent(expectation, entry, in: executor) }
        if expectation.subject == .schema {
            let result = try Self.schema(entry, in: executor)
            return CommandResult(
                result.passed ? .succeeded : .checkFailed, [.expectation(ExpectationOutput(line: "", result: result))])
        }
        let operand = try expectation.operand.map { try executor.session.variables.expand($0) }
        let result = try ExpectationEvaluator.evaluate(
            expectation, operand: operand, response: entry.response, stream: entry.stream, grpc: entry.grpc
        ) {
            try executor.query($0, in: entry).map(\.value)
        }
        // The executor fills in the line as written and where it came from.
        let output = ExpectationOutput(line: "", result: result)
        return CommandResult(result.passed ? .succeeded : .checkFailed, [.expectation(output)])
    }

    /// `expect event EXPR …`: holds when it holds for some event of the streamed response.
    private static func anyEvent(
        _ expectation: Expectation, _ entry: ResponseHistory.Entry, in executor: isolated Executor
    ) throws -> CommandResult {
        guard case .array(let events)? = entry.stream?.json else {
            throw CommandError(
                .expectation,
                "response #\(entry.number) is not a stream (\(entry.response.contentType ?? "no Content-Type"))",
                hint: "`expect event` reads each event of text/event-stream, NDJSON or JSON sequences")
        }
        let operand = try expectation.operand.map { try executor.session.variables.expand($0) }
        guard case .value(let written) = expectation.subject else {
            throw CommandError(.expectation, "expect event takes EXPR")
        }
        var last: ExpectationResult?
        for event in events {
            let result = try ExpectationEvaluator.evaluateValue(written, expectation.op, operand: operand) {
                try JSONPath(try executor.session.variables.expand($0)).query(event).map(\.value)
            }
            if result.passed {
                return CommandResult(.succeeded, [.expectation(ExpectationOutput(line: "", result: result))])
            }
            last = result
        }
        let result = ExpectationResult(
            passed: false, expected: "an event with " + (last?.expected ?? "a match"),
            actual: "none of \(events.count) event\(events.count == 1 ? "" : "s")"
                + (last.map { " (the last: \($0.actual))" } ?? ""))
        return CommandResult(.checkFailed, [.expectation(ExpectationOutput(line: "", result: result))])
    }

    /// `expect schema`: every violation, in the result, whatever `validate` says.
    private static func schema(
        _ entry: ResponseHistory.Entry, in executor: isolated Executor
    ) throws -> ExpectationResult {
        guard let check = executor.schemaCheck(for: entry, evenWhenOff: true) else { throw Executor.noSpec }
        let expected = "a response that keeps \(check.operation.map { "\($0)'s" } ?? "its operation's") schema"
        guard !check.passed else { return ExpectationResult(passed: true, expected: expected, actual: "it does") }
        let count = check.violations.count
        let actual =
            "\(count) violation\(count == 1 ? "" : "s"): " + check.violations.map(\.description).joined(separator: "; ")
        return ExpectationResult(passed: false, expected: expected, actual: actual)
    }

    /// `EXPR OP VALUE` and the other forms `expect` takes, as `expect` reads them (`responses search`
    /// reads its `$.path == value` with it too).
    static func expect(_ a: inout Arguments) throws(CommandError) -> Expectation {
        let first = try a.word("what to check")
        let subject: Expectation.Subject
        if first.text.lowercased() == "schema", !first.quoted {
            try a.end()
            return Expectation(subject: .schema, op: .equal, operand: nil)
        }
        switch (first.text.lowercased(), first.quoted) {
        case ("batch", false): return try batch(&a)
        case ("event", false), ("message", false):
            let each: Expectation.Each = first.text.lowercased() == "event" ? .event : .message
            if each == .message, a.isEmpty {
                // The next message, whatever it holds.
                return Expectation(subject: .value("$"), op: .exists, operand: nil, each: .message)
            }
            var inner = try expect(&a)
            guard case .value = inner.subject, inner.each == nil else {
                throw CommandError(
                    .expectation, "`expect \(each.rawValue)` takes a JSONPath read in each \(each.rawValue)",
                    column: first.column,
                    hint: each == .event
                        ? "e.g. expect event $.data.type == \"done\"" : "e.g. expect message $.type == \"echo\"")
            }
            inner.each = each
            return inner
        case ("events", false): subject = .events
        case ("errors", false): subject = .errors
        case ("status", false): subject = .status
        case ("time", false): subject = .time
        case ("body", false): subject = .body
        case ("header", false):
            let name = try a.word("a header name")
            try CommandParser.checkHeaderName(name.text, column: name.column)
            subject = .header(name.text)
        case ("trailer", false):
            let name = try a.word("a trailer name")
            try CommandParser.checkHeaderName(name.text, column: name.column)
            subject = .trailer(name.text)
        default:
            let (path, _) = Expectation.counting(first.text)
            try CommandParser.checkPath(Word(path, column: first.column, quoted: first.quoted))
            subject = .value(first.text)
        }
        let allowed: [Expectation.Operator] =
            switch subject {
            case .status, .events, .errors: [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
            case .time: [.less, .lessOrEqual, .greater, .greaterOrEqual]
            case .body: [.equal, .notEqual, .matches, .notMatches, .contains, .startsWith, .endsWith]
            case .header:
                [
                    .equal, .notEqual, .matches, .notMatches, .contains, .startsWith, .endsWith, .less, .lessOrEqual,
                    .greater, .greaterOrEqual, .exists, .absent,
                ]
            case .trailer:
                [.equal, .notEqual, .matches, .notMatches, .contains, .startsWith, .endsWith, .exists, .absent]
            case .value: Expectation.Operator.allCases
            case .schema, .batch: []
            }
        let opColumn = a.column
        guard let opWord = try a.optionalWord() else {
            throw CommandError(
                .expectation, .missing("a comparison"), column: opColumn,
                hint: "one of \(allowed.map(\.rawValue).joined(separator: " "))")
        }
        var op: Expectation.Operator
        var operandText: String
        var operandColumn: Int
        if subject == .status, Expectation.Operator(word: opWord.text) == nil {
            // `expect status 200`
            op = .equal
            operandText = opWord.text
            operandColumn = opWord.column
            try a.end()
        } else {
            guard let parsed = Expectation.Operator(word: opWord.text), allowed.contains(parsed) else {
                throw CommandError(
                    .parse, .unknown(kind: "comparison", word: opWord.text, suggestion: nil), column: opWord.column,
                    hint: "one of \(allowed.map(\.rawValue).joined(separator: " "))")
            }
            op = parsed
            if op == .exists || op == .absent {
                try a.end()
                return Expectation(subject: subject, op: op, operand: nil)
            }
            operandColumn = a.column
            operandText = a.raw.trimmingBlanks
            guard !operandText.isEmpty else {
                throw CommandError(.expectation, .missing("a value to compare with"), column: operandColumn)
            }
            if op == .matches || op == .notMatches || subject != .value(first.text) {
                operandText = CommandParser.unquote(operandText)
            }
        }
        switch subject {
        case .status:
            let known = StatusPattern(operandText) != nil || StatusPattern.grpcCode(operandText) != nil
            guard known, op == .equal || op == .notEqual || Int(operandText) != nil else {
                throw CommandError(
                    .expectation, .invalid(kind: "status", value: operandText), column: operandColumn,
                    hint: "write a code (200), a class (2xx) or a gRPC status (NOT_FOUND, 5)")
            }
        case .time:
            _ = try DurationText.parse(Word(operandText, column: operandColumn), hint: "write 500ms or 2s")
        case .events, .errors:
            let what = subject == .events ? "events" : "errors"
            guard Int(operandText) != nil || operandText.contains("{{") else {
                throw CommandError(
                    .expectation, "'\(operandText)' is not a count of \(what)", column: operandColumn,
                    hint: "write a number: \(what) \(what == "events" ? ">= 3" : "== 0")")
            }
        default:
            if op == .matches || op == .notMatches, !operandText.contains("{{") {
                do {
                    _ = try Regex(operandText)
                } catch {
                    throw CommandError(
                        .expectation, .invalid(kind: "regular expression", value: operandText), column: operandColumn)
                }
            }
        }

        return Expectation(subject: subject, op: op, operand: operandText)
    }

    /// `expect batch METRIC OP VALUE`.
    private static func batch(_ a: inout Arguments) throws(CommandError) -> Expectation {
        let first = try a.word("what of the batch to check: " + BatchMetric.words.joined(separator: " "))
        var text = first.text
        if first.text.lowercased() == "status" { text += " " + (try a.word("a status: 2xx or 200")).text }
        guard let metric = BatchMetric(text) else {
            throw CommandError(
                .parse,
                .unknown(
                    kind: "batch figure", word: text,
                    suggestion: Spelling.closest(to: first.text, among: BatchMetric.words)),
                column: first.column, hint: "one of \(BatchMetric.words.joined(separator: " "))")
        }
        let comparisons: [Expectation.Operator] = [.less, .lessOrEqual, .greater, .greaterOrEqual, .equal, .notEqual]
        let opWord = try a.word("a comparison: < <= > >= == !=")
        guard let op = Expectation.Operator(word: opWord.text), comparisons.contains(op) else {
            throw CommandError(
                .parse, .unknown(kind: "comparison", word: opWord.text, suggestion: nil), column: opWord.column,
                hint: "one of \(comparisons.map(\.rawValue).joined(separator: " "))")
        }
        let operand = try a.word("a value to compare with")
        try a.end()
        if !operand.text.contains("{{"), let hint = metric.check(operand.text) {
            throw CommandError(
                .expectation, "'\(operand.text)' is not a value for batch \(metric.text)", column: operand.column,
                hint: hint)
        }
        return Expectation(subject: .batch(metric), op: op, operand: operand.text)
    }
}
