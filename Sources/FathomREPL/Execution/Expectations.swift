import FathomGRPC
@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// One `expect` line: a subject, a comparison, and what it is compared with.
struct Expectation: Equatable, Sendable {
    /// `$.data.length()` (or `.count()`) as the path it counts and `true`; any other path as it is.
    static func counting(_ expression: String) -> (path: String, counted: Bool) {
        for suffix in [".length()", ".count()"] where expression.hasSuffix(suffix) && expression.count > suffix.count {
            return (String(expression.dropLast(suffix.count)), true)
        }
        return (expression, false)
    }

    enum Subject: Equatable, Sendable {
        case status
        /// A JSONPath over the body.
        case value(String)
        case header(String)
        /// A gRPC call's trailer metadata (`expect trailer NAME …`).
        case trailer(String)
        case time
        case body
        /// The response against its operation in the loaded description (`expect schema`).
        case schema
        /// A figure of the last batch's summary (`expect batch p99 < 200ms`).
        case batch(BatchMetric)
        /// How many events a streamed response held (`expect events >= 3`).
        case events
        /// How many `errors` a GraphQL response carries (`expect errors == 0`).
        case errors
    }

    enum Operator: String, CaseIterable, Equatable, Sendable {
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case less = "<"
        case greaterOrEqual = ">="
        case greater = ">"
        case matches = "~"
        case notMatches = "!~"
        case contains
        case startsWith
        case endsWith
        case exists
        case absent

        /// The operator written `word`, case aside (`startswith` is `startsWith`).
        init?(word: String) {
            guard let found = Self.allCases.first(where: { $0.rawValue.lowercased() == word.lowercased() }) else {
                return nil
            }
            self = found
        }

        /// `contains`, `startsWith` or `endsWith`: a test on text (or, for `contains`, an array).
        var isTextTest: Bool { self == .contains || self == .startsWith || self == .endsWith }
    }

    var subject: Subject
    var op: Operator
    /// As written (variables not yet expanded); `nil` for `exists` and `absent`.
    var operand: String?
    /// What a JSONPath is read in, when not the response's body.
    enum Each: String, Sendable {
        /// `expect event EXPR …`: each event of a streamed response; holds when it holds for one.
        case event
        /// `expect message EXPR …`: each WebSocket message from the last one matched on, waiting
        /// for new ones up to the timeout; holds at the first that matches.
        case message
    }

    /// Where the JSONPath is read, when not in the response's body.
    var each: Each?
}

/// A status code (`200`) or a class of them (`2xx`).
struct StatusPattern: Equatable {
    let code: Int?
    let statusClass: Int?

    init?(_ text: String) {
        let lowered = text.lowercased()
        if lowered.count == 3, lowered.hasSuffix("xx"), let first = lowered.first?.wholeNumberValue,
            (1...5).contains(first)
        {
            (code, statusClass) = (nil, first)
        } else if let number = Int(text), (100...599).contains(number) {
            (code, statusClass) = (number, nil)
        } else {
            return nil
        }
    }

    func matches(_ status: Int) -> Bool {
        if let code { return status == code }
        return status / 100 == statusClass
    }

    /// The gRPC status `text` names: `NOT_FOUND` (any case) or its code, 0 to 16.
    static func grpcCode(_ text: String) -> Int? {
        if let number = Int(text) { return (0...16).contains(number) ? number : nil }
        return GRPCStatus.code(named: text.uppercased())
    }
}

/// The outcome of one `expect` line.
struct ExpectationResult: Sendable, Equatable {
    var passed: Bool
    /// What was expected and what the response had, as a person reads them.
    var expected: String
    var actual: String
}

/// Evaluates expectations against a response. Values in `operand` are already expanded.
enum ExpectationEvaluator {
    /// - Parameter values: The values a JSONPath selects in the response's body (the executor's,
    ///   which expands variables and parses a body once).
    static func evaluate(
        _ expectation: Expectation, operand: String?, response: NetworkResponse<Data>, stream: ParsedStream? = nil,
        grpc: GRPCCallRecord? = nil, values: (String) throws -> [JSON]
    ) throws -> ExpectationResult {
        let op = expectation.op
        switch expectation.subject {
        case .status where grpc != nil && StatusPattern.grpcCode(operand ?? "") != nil:
            // A gRPC call's status, by name or code (`expect status NOT_FOUND`, `expect status 5`).
            let status = grpc?.status ?? GRPCStatus(code: 2)
            let wanted = StatusPattern.grpcCode(operand ?? "") ?? -1
            let passed =
                switch op {
                case .equal: status.code == wanted
                case .notEqual: status.code != wanted
                default: compare(status.code, op, wanted)
                }
            let expected = GRPCStatus(code: wanted).codeName
            return ExpectationResult(
                passed: passed, expected: describe(op, expected),
                actual: status.codeName + (status.message.isEmpty ? "" : " (\(status.message))"))
        case .trailer(let name):
            let values = grpc?.trailers.values(for: NetworkHeaders.Name(name)) ?? []
            let actual = values.isEmpty ? nil : values.joined(separator: ", ")
            return try text(actual, op, operand, absentText: grpc == nil ? "not a gRPC call" : "no \(name) trailer")
        case .status:
            let code = response.status.code
            let operand = operand ?? ""
            let actual = "\(code) \(response.status.reasonPhrase)".trimmingTrailingBlanks
            let passed: Bool
            switch op {
            case .equal: passed = StatusPattern(operand)?.matches(code) ?? false
            case .notEqual: passed = !(StatusPattern(operand)?.matches(code) ?? false)
            default: passed = compare(code, op, Int(operand) ?? 0)
            }
            return ExpectationResult(passed: passed, expected: describe(op, operand), actual: actual)
        case .time:
            let limit = DurationText.parse(operand ?? "") ?? .zero
            let total = response.timing.total
            return ExpectationResult(
                passed: compare(total, op, limit), expected: describe(op, limit.shortDescription),
                actual: total.shortDescription)
        case .header(let name):
            let values = response.headers.values(for: NetworkHeaders.Name(name))
            let actual = values.isEmpty ? nil : values.joined(separator: ", ")
            if [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(op) {
                // A header's value compared as the number it holds (`X-Total-Count > 20`).
                let limit = Double(operand ?? "")
                let number = actual.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                let passed = number.flatMap { number in limit.map { compare(number, op, $0) } } ?? false
                return ExpectationResult(
                    passed: passed, expected: describe(op, operand ?? ""),
                    actual: actual.map { number == nil ? "\(quoted($0)), not a number" : $0 } ?? "no \(name) header")
            }
            return try text(actual, op, operand, absentText: "no \(name) header")
        case .body:
            return try text(String(decoding: response.body, as: UTF8.self), op, operand, absentText: "no body")
        case .schema:
            // Checked by the executor, which holds the description.
            throw CommandError(.expectation, "`expect schema` needs the loaded description")
        case .batch:
            // Checked against the last batch, not a response.
            throw CommandError(.expectation, "`expect batch` checks the last batch")
        case .events:
            guard let events = (stream ?? ParsedStream(response))?.events else {
                throw CommandError(
                    .expectation, "the response is not a stream (\(response.contentType ?? "no Content-Type"))",
                    hint: "`expect events` counts the events of text/event-stream, NDJSON or JSON sequences")
            }
            let limit = Int(operand ?? "") ?? 0
            return ExpectationResult(
                passed: compare(events.count, op, limit), expected: describe(op, operand ?? ""),
                actual: "\(events.count) event\(events.count == 1 ? "" : "s")")
        case .errors:
            var errors: [JSON] = []
            if case .array(let list)? = try values("$.errors").first { errors = list }
            let first = errors.first.flatMap { error -> String? in
                if case .string(let message)? = error["message"] { return message }
                return nil
            }
            return ExpectationResult(
                passed: compare(errors.count, op, Int(operand ?? "") ?? 0), expected: describe(op, operand ?? ""),
                actual: "\(errors.count) error\(errors.count == 1 ? "" : "s")"
                    + (first.map { " (the first: \($0))" } ?? ""))
        case .value(let written):
            return try evaluateValue(written, op, operand: operand, values: values)
        }
    }

    /// `EXPR OP VALUE` on the values a JSONPath selects: in a response's body, an event, a message.
    static func evaluateValue(
        _ written: String, _ op: Expectation.Operator, operand: String?, values: (String) throws -> [JSON]
    ) throws -> ExpectationResult {
        let (expression, counted) = Expectation.counting(written)
        let values = try values(expression)
        var actual: JSON? =
            switch values.count {
            case 0: nil
            case 1: values[0]
            default: .array(values)
            }
        if counted {
            // `.length()`: the size of the one value selected, or how many were selected.
            let count =
                switch (values.count, values.first) {
                case (1, .array(let elements)?): elements.count
                case (1, .object(let members)?): members.count
                case (1, .string(let text)?): text.count
                default: values.count
                }
            actual = .number(String(count))
        }
        return value(actual, op, operand, expression: written)
    }

    /// The body of the response `label` names (`#3`, `@12`) as JSON, or an error saying what it
    /// is instead.
    static func json(_ response: NetworkResponse<Data>, label: String) throws -> JSON {
        do {
            return try JSON(parsing: response.body)
        } catch {
            let kind = response.body.isEmpty ? "empty" : response.contentType ?? "not JSON"
            throw CommandError(
                .expectation, "response \(label) is not JSON (\(kind))",
                hint: "check it with `expect body ~ REGEX` instead")
        }
    }

    private static func value(
        _ actual: JSON?, _ op: Expectation.Operator, _ operand: String?, expression: String
    )
        -> ExpectationResult
    {
        let shown = actual.map(compact) ?? "nothing at \(expression)"
        switch op {
        case .exists:
            return ExpectationResult(passed: actual != nil, expected: "a value at \(expression)", actual: shown)
        case .absent:
            return ExpectationResult(passed: actual == nil, expected: "nothing at \(expression)", actual: shown)
        case .contains, .startsWith, .endsWith:
            let expected = literal(operand ?? "")
            let passed: Bool
            switch (actual, expected) {
            case (.array(let elements)?, _) where op == .contains:
                passed = elements.contains { $0.isEquivalent(to: expected) }
            case (.object(let members)?, .string(let name)) where op == .contains:
                // An object contains a member by that name.
                passed = members.contains { $0.key == name }
            case (.string(let text)?, .string(let part)):
                passed =
                    op == .contains
                    ? text.contains(part) : op == .startsWith ? text.hasPrefix(part) : text.hasSuffix(part)
            default: passed = false
            }
            return ExpectationResult(passed: passed, expected: describe(op, compact(expected)), actual: shown)
        case .matches, .notMatches:
            let pattern = operand ?? ""
            var text: String?
            switch actual {
            case .string(let string): text = string
            case .number(let number): text = number
            case .bool(let bool): text = String(bool)
            default: text = nil
            }
            let matched = text.map { matches($0, pattern) } ?? false
            return ExpectationResult(
                passed: op == .matches ? matched : (text != nil && !matched),
                expected: describe(op, "/\(pattern)/"), actual: shown)
        default:
            let expected = literal(operand ?? "")
            let passed: Bool
            switch (op, actual) {
            case (.equal, let actual?): passed = actual.isEquivalent(to: expected)
            case (.notEqual, let actual?): passed = !actual.isEquivalent(to: expected)
            case (.notEqual, nil): passed = true
            case (_, nil): passed = false
            case (.less, let actual?): passed = actual.isLess(than: expected) ?? false
            case (.lessOrEqual, let actual?):
                passed = actual.isLess(than: expected).map { $0 || actual.isEquivalent(to: expected) } ?? false
            case (.greater, let actual?): passed = expected.isLess(than: actual) ?? false
            case (.greaterOrEqual, let actual?):
                passed = expected.isLess(than: actual).map { $0 || actual.isEquivalent(to: expected) } ?? false
            default: passed = false
            }
            return ExpectationResult(passed: passed, expected: describe(op, compact(expected)), actual: shown)
        }
    }

    private static func text(
        _ actual: String?, _ op: Expectation.Operator, _ operand: String?, absentText: String
    )
        throws -> ExpectationResult
    {
        let operand = operand ?? ""
        let shown = actual.map { quoted(short($0)) } ?? absentText
        let passed: Bool
        switch op {
        case .exists: passed = actual != nil
        case .absent: passed = actual == nil
        case .equal: passed = actual == operand
        case .notEqual: passed = actual != operand
        case .matches: passed = actual.map { matches($0, operand) } ?? false
        case .notMatches: passed = actual.map { !matches($0, operand) } ?? true
        case .contains: passed = actual?.contains(operand) ?? false
        case .startsWith: passed = actual?.hasPrefix(operand) ?? false
        case .endsWith: passed = actual?.hasSuffix(operand) ?? false
        default: passed = false
        }
        let expected =
            switch op {
            case .exists: "present"
            case .absent: "absent"
            case .matches, .notMatches: describe(op, "/\(operand)/")
            default: describe(op, quoted(operand))
            }
        return ExpectationResult(passed: passed, expected: expected, actual: shown)
    }

    /// The operand as JSON when it is JSON (`42`, `"Ada"`, `[1, 2]`, `null`), else as a string.
    static func literal(_ text: String) -> JSON {
        if let json = try? JSON(parsing: text) { return json }
        return .string(text)
    }

    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return (try? regex.firstMatch(in: text)) != nil
    }

    static func compare<Value: Comparable>(_ actual: Value, _ op: Expectation.Operator, _ limit: Value) -> Bool {
        switch op {
        case .less: actual < limit
        case .lessOrEqual: actual <= limit
        case .greater: actual > limit
        case .greaterOrEqual: actual >= limit
        case .equal: actual == limit
        case .notEqual: actual != limit
        default: false
        }
    }

    static func describe(_ op: Expectation.Operator, _ value: String) -> String {
        switch op {
        case .equal: value
        case .notEqual: "not \(value)"
        case .matches: "matching \(value)"
        case .notMatches: "not matching \(value)"
        default: "\(op.rawValue) \(value)"
        }
    }

    static func compact(_ value: JSON) -> String { short(String(value.formatted(.compactText).dropLast())) }

    static func short(_ text: String) -> String { text.count > 120 ? String(text.prefix(120)) + "…" : text }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
