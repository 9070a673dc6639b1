/// Durations as people type them: `10s`, `500ms`, `1.5s`, `2m`, `30d`; a bare number is seconds.
enum DurationText {
    /// The longest duration the language takes: a year, far past any request, far inside what a
    /// `Duration` (and the clocks under it) can hold.
    static let maximum: Duration = .seconds(365 * 24 * 3600)

    static func parse(_ text: String) -> Duration? {
        guard case .valid(let duration) = read(text) else { return nil }
        return duration
    }

    /// `word` as a duration, or an error at its column: not a duration, or out of range.
    static func parse(_ word: Word, hint: String) throws(CommandError) -> Duration {
        switch read(word.text) {
        case .valid(let duration): return duration
        case .invalid:
            throw CommandError(.parse, .invalid(kind: "duration", value: word.text), column: word.column, hint: hint)
        case .outOfRange:
            throw CommandError(
                .parse, "duration '\(word.text)' is out of range", column: word.column, hint: "the most is 365 days")
        }
    }

    /// A duration as a word that reads back as it: whole milliseconds (`1500ms`), or seconds
    /// when they are whole (`30s`).
    static func word(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }

    /// A long bound as people say it: `30 days`, `12 hours`, `90 minutes`, `45 s`.
    static func long(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        func plural(_ count: Int64, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s")" }
        if seconds >= 86_400, seconds % 86_400 == 0 { return plural(seconds / 86_400, "day") }
        if seconds >= 3600, seconds % 3600 == 0 { return plural(seconds / 3600, "hour") }
        if seconds >= 60, seconds % 60 == 0 { return plural(seconds / 60, "minute") }
        return "\(seconds) s"
    }

    private enum Reading {
        case valid(Duration)
        case invalid
        case outOfRange
    }

    private static func read(_ text: String) -> Reading {
        let lowered = text.lowercased()
        let units: [(String, Double)] = [
            ("ms", 0.001), ("s", 1), ("m", 60), ("min", 60), ("h", 3600), ("d", 86400), ("", 1),
        ]
        for (suffix, scale) in units.sorted(by: { $0.0.count > $1.0.count }) where lowered.hasSuffix(suffix) {
            guard let value = Double(lowered.dropLast(suffix.count)), value >= 0, value.isFinite else {
                return .invalid
            }
            // Checked as a Double before it becomes an integer: a conversion out of range traps.
            let milliseconds = (value * scale * 1000).rounded()
            guard milliseconds <= Double(maximum.components.seconds) * 1000 else { return .outOfRange }
            return .valid(.milliseconds(Int64(milliseconds)))
        }
        return .invalid
    }
}

extension Duration {
    /// The duration in milliseconds, with fractions: what reports and HAR write.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// The duration in seconds, with fractions.
    var seconds: Double { milliseconds / 1000 }
}
