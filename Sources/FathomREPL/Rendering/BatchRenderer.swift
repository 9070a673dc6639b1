@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// A batch's summary as text:
///
/// ```
/// #4 POST /accounts/1/withdraw × 50, 10 at once: 50 in 412 ms, 121/s
/// status   200 × 3 · 409 × 47
/// latency  min 1.21 ms · p50 8.40 ms · p90 12.1 ms · p99 20.3 ms · p99.9 21.0 ms · max 21.0 ms
/// ttfb     p50 8.11 ms · p99 19.8 ms
/// 3 kinds of response, by body:
///   47 × 409  {"balance":0,"error":"insufficient funds"}
///    2 × 200  ~ $['balance']  0 → 50
///    1 × 200  ~ $['balance']  0 → -50
/// ```
struct BatchRenderer {
    let palette: Palette
    /// Masks a body before it is cut: a secret cut short would show its start unmasked.
    let redactor: Redactor
    /// The most changes shown for one class against the largest.
    static let changesShown = 4
    /// The widest a body or a value is shown in a class's line.
    static let valueWidth = 100

    func render(_ summary: BatchSummary) -> String {
        var lines = [headline(summary)]
        switch summary.ending {
        case .finished: break
        case .cancelled(let abandoned):
            lines.append(
                palette.yellow(
                    "cancelled after \(Count.grouped(summary.completed))"
                        + (abandoned > 0 ? ", \(Count.grouped(abandoned)) in flight abandoned" : "")))
        case .stopped(let index, let reason):
            lines.append(palette.red("stopped at request \(index): \(reason)"))
        }
        if !summary.statuses.isEmpty {
            lines.append(
                label("status")
                    + summary.statuses.map {
                        palette.status(HTTPStatus(code: $0.code, reasonPhrase: summary.reasons[$0.code]))
                            + " × " + Count.grouped($0.count)
                    }
                    .joined(separator: " · "))
        }
        if !summary.errors.isEmpty {
            let renderer = ErrorRenderer()
            lines.append(
                label("errors")
                    + summary.errors.map { errors in
                        palette.red("\(errors.kind) × \(Count.grouped(errors.count))")
                            + palette.dim(" (\(renderer.message(.network(errors.first))))")
                    }.joined(separator: " · "))
        }
        if summary.scheduleSlipped {
            // The open model's promise: say when the schedule was not kept, and how far.
            var said = "schedule slipped:"
            if let planned = summary.options.planned, summary.sent < planned {
                said += " \(Count.grouped(summary.sent)) of \(Count.grouped(planned)) planned requests sent;"
            }
            said += " the latest started \(Self.latency(summary.maxLag ?? .zero)) late"
            said += " — allow more in flight with `-c N` (now \(summary.options.maxConcurrent))"
            lines.append(palette.yellow(said))
        }
        if let latency = summary.latency {
            lines.append(
                label(summary.maxLag == nil ? "latency" : "latency*")
                    + [
                        ("min", latency.min), ("p50", latency.p50), ("p90", latency.p90), ("p99", latency.p99),
                        ("p99.9", latency.p999), ("max", latency.max),
                    ].map { "\(palette.dim($0.0)) \(Self.latency($0.1))" }.joined(separator: " · "))
        }
        if let firstByte = summary.firstByte {
            lines.append(
                label("ttfb")
                    + [("p50", firstByte.p50), ("p99", firstByte.p99)]
                    .map { "\(palette.dim($0.0)) \(Self.latency($0.1))" }.joined(separator: " · "))
        }
        lines += classes(summary)
        if summary.maxLag != nil {
            lines.append(palette.dim("* from each request's time on the schedule, as wrk2 and vegeta measure"))
        }
        return lines.joined(separator: "\n")
    }

    /// `#4 POST /accounts/1/withdraw × 50, 10 at once: 50 in 412 ms, 121/s`.
    private func headline(_ summary: BatchSummary) -> String {
        let options = summary.options
        var plan: [String] = []
        if let count = options.count { plan.append("× \(Count.grouped(count))") }
        if let data = options.data { plan.append("rows of \(data)") }
        if let duration = options.duration { plan.append("for \(duration.shortDescription)") }
        if let rate = options.rate { plan.append("at \(BatchOptions.rateWord(rate))") }
        plan.append(
            options.concurrency == nil && options.rate != nil
                ? "up to \(options.maxConcurrent) at once" : "\(options.maxConcurrent) at once")
        return palette.bold("#\(summary.number)") + " " + summary.method + " " + palette.cyan(summary.shownPath) + " "
            + plan.joined(separator: ", ") + ": " + Count.grouped(summary.completed) + " in "
            + summary.elapsed.shortDescription + ", " + Count.grouped(Int(summary.rate.rounded())) + "/s"
    }

    private func label(_ text: String) -> String {
        palette.dim(text.padding(toLength: 9, withPad: " ", startingAt: 0))
    }

    /// Each class once, largest first; the others as their differences from the largest.
    private func classes(_ summary: BatchSummary) -> [String] {
        guard let largest = summary.classes.first else { return [] }
        var lines: [String] = []
        let kinds = summary.classes.count + (summary.unclassified > 0 ? 1 : 0)
        lines.append(
            kinds == 1
                ? palette.dim("every response the same:")
                : palette.dim("\(kinds) kinds of response, by body:"))
        let countWidth = Count.grouped(largest.count).count
        for (index, bodyClass) in summary.classes.enumerated() {
            let count = Count.grouped(bodyClass.count)
            let status = HTTPStatus(code: bodyClass.status, reasonPhrase: summary.reasons[bodyClass.status])
            let padding = "  " + String(repeating: " ", count: max(0, countWidth - count.count))
            let prefix = padding + count + " × " + palette.status(status) + "  "
            // A class is shown as its differences from the largest when they are few: a race's
            // `~ $['balance']  50 → -50`; otherwise (another status, another shape) as its body.
            guard index > 0, let diff = bodyClass.diff, diff.changes.count <= Self.changesShown else {
                lines.append(prefix + body(bodyClass))
                continue
            }
            if diff.isEmpty {
                lines.append(prefix + palette.dim("the same body as the largest"))
                continue
            }
            let indent = String(repeating: " ", count: (padding + count + " × " + status.description + "  ").count)
            let shown = diff.tree(colors: palette.enabled, valueWidth: Self.valueWidth)
                .split(separator: "\n").dropLast()
            for (offset, change) in shown.enumerated() {
                lines.append((offset == 0 ? prefix : indent) + change)
            }
        }
        if summary.unclassified > 0 {
            lines.append(
                palette.dim(
                    "  \(Count.grouped(summary.unclassified)) more in other kinds (past \(BatchTally.classLimit);"
                        + " `volatile EXPR` leaves out fields that differ on every response)"))
        }
        return lines
    }

    /// A class's body on one line: compact JSON, or text, cut to ``valueWidth``.
    private func body(_ bodyClass: BatchSummary.BodyClass) -> String {
        var text: String
        if let json = bodyClass.json {
            text = String(json.formatted(.compactText).dropLast())
        } else {
            text = bodyClass.bodyText.replacingOccurrences(of: "\n", with: " ")
            if text.isEmpty { return palette.dim("(no body)") }
        }
        text = redactor.redact(text)
        if text.count > Self.valueWidth { text = String(text.prefix(Self.valueWidth)) + "…" }
        return TerminalText.visible(text)
    }

    /// A latency with three significant digits: `0.42 ms`, `8.40 ms`, `12.1 ms`, `212 ms`, `1.21 s`.
    static func latency(_ duration: Duration) -> String {
        let milliseconds = duration.seconds * 1000
        switch milliseconds {
        case ..<10: return String(format: "%.2f ms", milliseconds)
        case ..<100: return String(format: "%.1f ms", milliseconds)
        case ..<1000: return String(format: "%.0f ms", milliseconds)
        default: return String(format: "%.2f s", milliseconds / 1000)
        }
    }
}
