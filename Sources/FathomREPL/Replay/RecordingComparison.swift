import FathomHTTP
import FathomJSON
import Foundation

/// A response checked against its recording (`replay --compare`): method and path, status,
/// content type, and the body — JSON structurally with volatile fields left out, text by lines.
enum RecordingComparison {
    /// The differences as lines; empty when they match. Masked: secrets never reach a report.
    static func differences(
        _ response: NetworkResponse<Data>, recorded: Recording.Entry, volatile: [String], redactor: Redactor
    ) -> [String] {
        var lines: [String] = []
        // The recording holds the path masked, as everything saved: compare it masked.
        let path = redactor.redact(response.url.path)
        if response.request.method.rawValue != recorded.method || path != recorded.path {
            lines.append(
                "recorded \(recorded.method) \(recorded.path), sent \(response.request.method) \(path) — record the file again"
            )
        }
        if response.status.code != recorded.status {
            lines.append("status \(recorded.status) → \(response.status.code)")
        }
        let oldType = recorded.contentType.map(MediaType.essence)
        let newType = response.contentType.map(MediaType.essence)
        if oldType != newType {
            lines.append("content type \(recorded.contentType ?? "none") → \(response.contentType ?? "none")")
        }
        let body = Recording.body(response.body, contentType: response.contentType, redactor: redactor)
        switch (recorded.body, body) {
        case (.json(let old), .json(let new)):
            let ignore = volatile.compactMap { try? JSONPath($0) }
            let diff = JSONDiff(from: old, to: new, options: JSONDiff.Options(ignore: ignore))
            if !diff.isEmpty { lines += diff.tree(colors: false).split(separator: "\n").map(String.init) }
        case (.text(let old), .text(let new)) where old != new:
            lines += TextDiff(from: old, to: new).unified(colors: false).split(separator: "\n").map(String.init)
        case (let old, let new) where old != new:
            lines.append("body \(old) → \(new)")
        default: break
        }
        return lines.map(redactor.redact)
    }
}
