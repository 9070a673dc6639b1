import FathomTestSupport
import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

/// `Duration.shortDescription` against printf's `%.2f` and `%.1f` (the oracle it replaced): the
/// same text for 20,000 generated durations, but where a value lies on a tie between two
/// roundings, where printf (deciding on the decimal expansion) and the arithmetic here may each
/// take a side.
@Suite struct DurationTextTests {
    private func printf(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        if milliseconds < 1 { return String(format: "%.2f ms", milliseconds) }
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
        if milliseconds < 60_000 {
            let text = String(format: "%.1f", milliseconds / 1000)
            return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + " s"
        }
        let total = Int(milliseconds / 1000)
        return "\(total / 60) min \(total % 60) s"
    }

    /// Whether `value` is within a hair of a tie at `unit` (0.005 of a millisecond, 0.05 of a second).
    private func nearTie(_ value: Double, unit: Double) -> Bool {
        let scaled = value / unit
        return abs(scaled - scaled.rounded(.down) - 0.5) < 1e-6
    }

    @Test func readsAsPrintfWrites() {
        var random = SeededGenerator(seed: 1_000)
        let ranges: [ClosedRange<Int64>] = [0...999_999, 1_000_000...999_999_999, 1_000_000_000...59_999_999_999]
        for round in 0..<20_000 {
            let nanoseconds = Int64.random(in: ranges[round % ranges.count], using: &random)
            let duration = Duration.nanoseconds(nanoseconds)
            let milliseconds = Double(nanoseconds) / 1e6
            let ours = duration.shortDescription
            let theirs = printf(duration)
            if ours != theirs {
                let tie = milliseconds < 1 ? nearTie(milliseconds, unit: 0.01) : nearTie(milliseconds / 1000, unit: 0.1)
                #expect(tie, "\(nanoseconds) ns: \(ours) where printf writes \(theirs)")
            }
        }
        #expect(Duration.nanoseconds(999_999).shortDescription == "1.00 ms")
        #expect(Duration.nanoseconds(450_000).shortDescription == "0.45 ms")
        #expect(Duration.nanoseconds(50_000).shortDescription == "0.05 ms")
        #expect(Duration.milliseconds(1_250).shortDescription == "1.2 s")
        #expect(Duration.milliseconds(59_990).shortDescription == "60 s")
        #expect(Duration.seconds(125).shortDescription == "2 min 5 s")
    }
}
