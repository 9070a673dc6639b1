@_spi(Fathom) import FathomHTTP
import Foundation

/// What `expect batch …` reads from a batch's summary: a latency (`p99`, `ttfb.p50`), a count
/// (`count`, `sent`, `errors`, `classes`), the rate, or the share of a status (`status 2xx`).
enum BatchMetric: Equatable, Sendable {
    case latency(String)
    case firstByte(String)
    case count
    case sent
    case errors
    case classes
    case rate
    case status(String)

    static let latencyNames = ["min", "p50", "p90", "p99", "p999", "p99.9", "max", "mean"]
    /// The words `expect batch` takes, for help and completion.
    static let words = latencyNames + ["ttfb.p50", "ttfb.p99", "count", "sent", "errors", "classes", "rate", "status"]

    /// The metric written `text` (`status 2xx` is two words).
    init?(_ text: String) {
        let words = text.split(separator: " ").map { $0.lowercased() }
        switch (words.first, words.count) {
        case (let name?, 1) where Self.latencyNames.contains(name): self = .latency(name == "p99.9" ? "p999" : name)
        case (let name?, 1) where name.hasPrefix("ttfb.") && Self.latencyNames.contains(String(name.dropFirst(5))):
            let base = String(name.dropFirst(5))
            self = .firstByte(base == "p99.9" ? "p999" : base)
        case ("count", 1), ("completed", 1): self = .count
        case ("sent", 1): self = .sent
        case ("errors", 1): self = .errors
        case ("classes", 1): self = .classes
        case ("rate", 1): self = .rate
        case ("status", 2) where StatusPattern(words[1]) != nil: self = .status(words[1])
        default: return nil
        }
    }

    /// As a line writes it.
    var text: String {
        switch self {
        case .latency(let name): name
        case .firstByte(let name): "ttfb." + name
        case .count: "count"
        case .sent: "sent"
        case .errors: "errors"
        case .classes: "classes"
        case .rate: "rate"
        case .status(let pattern): "status " + pattern
        }
    }

    /// Whether `operand` is a value this metric compares with; a hint when it is not.
    func check(_ operand: String) -> String? {
        switch self {
        case .latency, .firstByte:
            DurationText.parse(operand) == nil ? "compare a latency with a duration: 200ms, 1.5s" : nil
        case .count, .sent, .errors, .classes:
            Int(operand) == nil ? "compare with a whole number" : nil
        case .rate:
            Self.rate(operand) == nil ? "compare the rate with requests a second: 500/s" : nil
        case .status:
            Self.share(operand) == nil ? "compare with a share (95%) or a count (48)" : nil
        }
    }

    /// `500/s` or `500`.
    private static func rate(_ text: String) -> Double? {
        Double(text.hasSuffix("/s") ? String(text.dropLast(2)) : text)
    }

    /// `95%` (a share) or `48` (a count).
    private static func share(_ text: String) -> (value: Double, percent: Bool)? {
        if text.hasSuffix("%") { return Double(text.dropLast()).map { ($0, true) } }
        return Int(text).map { (Double($0), false) }
    }

    /// The metric in `summary` compared with `operand` by `op`.
    func evaluate(_ summary: BatchSummary, _ op: Expectation.Operator, _ operand: String) throws -> ExpectationResult {
        if let hint = check(operand) {
            throw CommandError(.expectation, "'\(operand)' is not a value for batch \(text)", hint: hint)
        }
        let expected = "\(text) \(op.rawValue) \(operand)"
        func result(_ actual: Double, _ limit: Double, shown: String) -> ExpectationResult {
            ExpectationResult(
                passed: ExpectationEvaluator.compare(actual, op, limit), expected: expected, actual: "\(text) \(shown)")
        }
        switch self {
        case .latency(let name), .firstByte(let name):
            let latencies = if case .latency = self { summary.latency } else { summary.firstByte }
            guard let value = latencies?.named.first(where: { $0.name == name })?.value else {
                return ExpectationResult(passed: false, expected: expected, actual: "no response to time")
            }
            let limit = DurationText.parse(operand) ?? .zero
            return result(value.seconds, limit.seconds, shown: BatchRenderer.latency(value))
        case .count: return result(Double(summary.completed), Double(operand) ?? 0, shown: String(summary.completed))
        case .sent: return result(Double(summary.sent), Double(operand) ?? 0, shown: String(summary.sent))
        case .errors:
            let errors = summary.errorCount
            let kinds = summary.errors.map { "\($0.kind) × \($0.count)" }.joined(separator: ", ")
            return result(
                Double(errors), Double(operand) ?? 0, shown: "\(errors)" + (kinds.isEmpty ? "" : " (\(kinds))"))
        case .classes:
            let count = summary.classes.count + (summary.unclassified > 0 ? 1 : 0)
            return result(Double(count), Double(operand) ?? 0, shown: String(count))
        case .rate:
            return result(summary.rate, Self.rate(operand) ?? 0, shown: "\(Int(summary.rate.rounded()))/s")
        case .status(let written):
            let pattern = StatusPattern(written)!
            let matching = summary.count(matching: pattern)
            let share = Self.share(operand)!
            let total = summary.completed
            let percent = total == 0 ? 0 : Double(matching) * 100 / Double(total)
            let shown = "\(matching) of \(total) (\(BatchSummary.decimal((percent * 10).rounded() / 10))%)"
            return result(share.percent ? percent : Double(matching), share.value, shown: shown)
        }
    }
}
