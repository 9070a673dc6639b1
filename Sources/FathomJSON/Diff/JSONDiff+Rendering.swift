extension JSONDiff {
    /// The changes as a person reads them, one per line in document order, then a count:
    ///
    /// ```
    /// ~ $['users'][3]['email']  "ada@a.io" → "ada@b.io"
    /// + $['users'][7]  {"id":8,"name":"Lin"}
    /// - $['tags'][0]  "beta"
    /// ≈ $['price']  1.0 → 1  (same value, different text)
    /// 4 differences: 1 changed, 1 added, 1 removed, 1 number text
    /// ```
    public func tree(colors: Bool = false, valueWidth: Int = 100) -> String {
        func paint(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func show(_ value: JSON) -> String {
            let text = String(value.formatted(.compactText).dropLast())
            return text.count > valueWidth ? String(text.prefix(valueWidth)) + "…" : text
        }
        var lines: [String] = []
        for change in changes {
            switch change {
            case .changed(let path, let from, let to):
                lines.append(
                    "\(paint("~", "33")) \(paint(path.description, "1"))  \(paint(show(from), "31")) → \(paint(show(to), "32"))"
                )
            case .added(let path, let value):
                lines.append("\(paint("+", "32")) \(paint(path.description, "1"))  \(paint(show(value), "32"))")
            case .removed(let path, let value):
                lines.append("\(paint("-", "31")) \(paint(path.description, "1"))  \(paint(show(value), "31"))")
            case .numberText(let path, let from, let to):
                lines.append(
                    "\(paint("≈", "36")) \(paint(path.description, "1"))  \(from) → \(to)  \(paint("(same value, different text)", "2"))"
                )
            }
        }
        lines.append(summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `no differences`, or `4 differences: 1 changed, 1 added, 1 removed, 1 number text`.
    public var summaryLine: String {
        guard !changes.isEmpty else { return "no differences" }
        let counts = self.counts
        let parts = [
            (counts.changed, "changed"), (counts.added, "added"), (counts.removed, "removed"),
            (counts.numberText, "number text"),
        ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return "\(changes.count) difference\(changes.count == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }

    /// The changes as JSON: `{"equal": …, "counts": {…}, "changes": [{"kind", "path", "from", "to"}…]}`.
    public var summaryJSON: JSON {
        let counts = self.counts
        func member(_ key: String, _ value: JSON) -> JSON.Member { JSON.Member(key: key, value: value) }
        let list: [JSON] = changes.map { change in
            var members = [member("kind", .string(change.kind)), member("path", .string(change.path.description))]
            switch change {
            case .added(_, let value): members.append(member("to", value))
            case .removed(_, let value): members.append(member("from", value))
            case .changed(_, let from, let to): members += [member("from", from), member("to", to)]
            case .numberText(_, let from, let to):
                members += [member("from", .number(from)), member("to", .number(to))]
            }
            return .object(members)
        }
        return .object([
            member("equal", .bool(changes.isEmpty)),
            member(
                "counts",
                .object([
                    member("changed", .number(String(counts.changed))), member("added", .number(String(counts.added))),
                    member("removed", .number(String(counts.removed))),
                    member("numberText", .number(String(counts.numberText))),
                ])),
            member("changes", .array(list)),
        ])
    }
}
