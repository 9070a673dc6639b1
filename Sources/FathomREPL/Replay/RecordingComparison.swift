@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// A response checked against its recording (`replay --compare`): status, content type, and the
/// body — JSON structurally with volatile fields left out, text by lines.
enum RecordingComparison {
    /// How strict a comparison is.
    enum Mode: String, Sendable, CaseIterable {
        /// Every difference counts.
        case exact
        /// Members a JSON response gained are accepted: an API that adds fields passes.
        case additive
    }

    /// The differences as lines; empty when they match. Masked: the response's secrets become
    /// the recording's digests (``Recording/Masker``), so a changed secret still differs and
    /// none reaches a report.
    /// `new` with each string value where `old` holds a mask (`••••`, `••••ab12`, `••••#…`) at the
    /// same place replaced by that mask.
    static func takingMasks(from old: JSON, into new: JSON) -> JSON {
        switch (old, new) {
        case (.string(let mask), .string) where mask.hasPrefix(Redactor.mask):
            return old
        case (.object(let before), .object(let after)):
            return .object(
                after.map { member in
                    guard let recorded = before.first(where: { $0.key == member.key }) else { return member }
                    return JSON.Member(key: member.key, value: takingMasks(from: recorded.value, into: member.value))
                })
        case (.array(let before), .array(let after)):
            return .array(
                after.enumerated().map { index, value in
                    index < before.count ? takingMasks(from: before[index], into: value) : value
                })
        default:
            return new
        }
    }

    static func differences(
        _ response: RecordedResponse, recorded: Recording.Entry, masker: Recording.Masker, volatile: [String],
        mode: Mode = .exact
    ) -> [String] {
        var lines: [String] = []
        // A format-1 recording is matched by position: say when the request is not the one recorded.
        let path = masker.mask(response.path)
        if recorded.identity == nil, response.method != recorded.method || path != recorded.path {
            lines.append(
                "recorded \(recorded.method) \(recorded.path), sent \(response.method) \(path) — record the file again"
            )
        }
        if response.status != recorded.status {
            lines.append("status \(recorded.status) → \(response.status)")
        }
        let oldType = recorded.contentType.map(MediaType.essence)
        let newType = response.contentType.map(MediaType.essence)
        if oldType != newType {
            lines.append("content type \(recorded.contentType ?? "none") → \(response.contentType ?? "none")")
        }
        let body = Recording.body(response.body, contentType: response.contentType, masker: masker)
        switch (recorded.body, body) {
        case (.json(let old), .json(var new)):
            let options = JSONDiff.Options(
                ignore: volatile.compactMap { try? JSONPath($0) }, ignoresAddedMembers: mode == .additive)
            // A format-1 recording (0.2.0's, no key) kept a credential as a plain mask: what it was
            // cannot be known, so it is not compared. `--record` writes the format that can.
            if masker.key.isEmpty { new = Self.takingMasks(from: old, into: new) }
            let diff = JSONDiff(from: old, to: new, options: options)
            if !diff.isEmpty {
                lines += diff.tree(colors: false).split(separator: "\n").map(String.init)
                // A value that changes on every run (a login's token, a timestamp) is no regression:
                // say how to leave it out, with the first changed value's own path.
                if let changed = diff.changes.first(where: {
                    if case .changed = $0 { true } else { false }
                }) {
                    lines.append(
                        "(a value that changes on every run? `volatile \(changed.path)` in the file leaves it out)")
                }
            }
        case (.text(let old), .text(let new)) where old != new:
            lines += TextDiff(from: old, to: new).unified(colors: false).split(separator: "\n").map(String.init)
        case (let old, let new) where old != new:
            lines.append("body \(old) → \(new)")
        default: break
        }
        return lines.map(masker.redactor.redact)
    }
}
