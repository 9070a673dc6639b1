/// Durations as people type them: `10s`, `500ms`, `1.5s`, `2m`; a bare number is seconds.
enum DurationText {
    static func parse(_ text: String) -> Duration? {
        let lowered = text.lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("min", 60), ("h", 3600)]
        for (suffix, scale) in units.sorted(by: { $0.0.count > $1.0.count }) where lowered.hasSuffix(suffix) {
            guard let value = Double(lowered.dropLast(suffix.count)), value >= 0, value.isFinite else { return nil }
            return .milliseconds(Int64((value * scale * 1000).rounded()))
        }
        guard let value = Double(lowered), value >= 0, value.isFinite else { return nil }
        return .milliseconds(Int64((value * 1000).rounded()))
    }
}
