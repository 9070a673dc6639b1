@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// A stream as text: its head at once, then each event as it arrives —
///
/// ```
/// HTTP 200 OK · text/event-stream · streaming, Ctrl-C ends it
/// 1 tick · id 1 · retry 3000 · +0 ms
///   {
///     "n": 1
///   }
/// 2 tick · id 2 · +201 ms
///   …
/// HTTP/1.1 200 OK · 1.0 s (first byte 2 ms) · 312 B · #4 · 5 events, ended by the server
/// ```
///
/// — a server-sent event's type, id and retry, its data pretty when it is JSON; a line of JSON
/// Lines on one line.
struct StreamRenderer {
    let palette: Palette
    let redactor: Redactor

    func head(_ head: StreamHead) -> String {
        var text =
            head.grpcMethod.map { "gRPC " + $0 + palette.dim(" · streaming, Ctrl-C ends it") }
            ?? "HTTP \(palette.status(head.status))" + palette.dim(" · ")
            + (head.headers[.contentType] ?? head.format.rawValue) + palette.dim(" · streaming, Ctrl-C ends it")
        if head.showHeaders {
            for field in redactor.redact(head.headers) {
                text += "\n" + palette.dim("\(field.name.rawName): \(field.value)")
            }
        }
        return text
    }

    func event(_ output: StreamEventOutput) -> String {
        // The mark of the description's `itemSchema`, checked as the event arrived, on the
        // event's first line; what it broke under it.
        let mark = output.violations.map { violations in
            violations.isEmpty ? palette.green("schema ✓") : palette.red("schema ✗ \(violations.count)")
        }
        var text = layout(output, mark: mark)
        for violation in output.violations ?? [] {
            text += "\n" + palette.red("  ✗ \(violation.path)") + ": \(violation.message)"
        }
        return text
    }

    private func layout(_ output: StreamEventOutput, mark: String?) -> String {
        let event = output.event
        let time = output.elapsed.map { "+" + $0.shortDescription }
        let json = try? JSON(parsing: event.data)
        switch output.format {
        case .serverSentEvents:
            var label = [palette.bold("\(output.index)") + " " + palette.cyan(event.type ?? "message")]
            if let id = event.id { label.append("id \(TerminalText.visible(id))") }
            if let retry = event.retry { label.append("retry \(retry)") }
            if let time { label.append(time) }
            if let mark { label.append(mark) }
            let data: String
            if let json {
                data = TerminalText.adopting(String(json.formatted(palette.json).dropLast(1)))
            } else {
                data = TerminalText.visible(event.data)
            }
            let indented = data.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            return label.joined(separator: palette.dim(" · ")) + "\n" + indented.joined(separator: "\n")
        case .jsonLines, .jsonSequence, .chunks:
            let data =
                json.map {
                    TerminalText.adopting(
                        String($0.formatted(JSONFormat(compact: true, colors: palette.enabled ? .jq : nil)).dropLast(1))
                    )
                }
                ?? TerminalText.visible(event.data)
            return palette.dim("\(output.index)" + (time.map { " · " + $0 } ?? "")) + "  " + data
                + (mark.map { palette.dim(" · ") + $0 } ?? "")
        }
    }

    /// The line a stream ends with: what it held and what ended it.
    func ending(_ summary: StreamSummary) -> String {
        let count = "\(summary.events) event\(summary.events == 1 ? "" : "s")"
        let reason: String =
            switch summary.ending {
            case .complete: "ended by the server"
            case .stopped: "stopped at the limit (`stream limit`)"
            case .cancelled: "ended by Ctrl-C"
            case .timedOut: "ended by the timeout"
            case .tooLarge: "cut at the size limit"
            case .failed(let reason): "cut off: \(reason)"
            }
        return "\(count), \(reason)"
    }

    /// A streamed response shown whole, later (`show #N`) or where no one watched it arrive:
    /// its events from the body as kept.
    func events(of stream: ParsedStream?) -> String {
        guard let stream else { return "" }
        return stream.events.enumerated().map { index, event in
            self.event(StreamEventOutput(index: index + 1, event: event, format: stream.format, elapsed: nil))
        }.joined(separator: "\n")
    }
}
