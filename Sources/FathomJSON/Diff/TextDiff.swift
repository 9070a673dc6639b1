/// A line diff of two texts in unified format, aligned the way ``JSONDiff`` aligns arrays.
///
/// ```
/// @@ -3,4 +3,4 @@
///  <li>one</li>
/// -<li>two</li>
/// +<li>2</li>
///  <li>three</li>
/// ```
public struct TextDiff: Sendable {
    public enum Line: Hashable, Sendable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// Every line of both texts, in order.
    public let lines: [Line]

    public init(from old: String, to new: String) {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var ids: [String: Int] = [:]
        func id(_ line: String) -> Int {
            if let known = ids[line] { return known }
            ids[line] = ids.count
            return ids.count - 1
        }
        let steps = Alignment.align(a.map(id), b.map(id))
        lines = steps.map { step in
            switch step {
            case .match(let i, _): .same(a[i])
            case .delete(let i): .removed(a[i])
            case .insert(let j): .added(b[j])
            }
        }
    }

    public var isEmpty: Bool { !lines.contains { if case .same = $0 { false } else { true } } }

    /// The changes as unified-diff hunks with `context` unchanged lines around each; empty when the
    /// texts are the same.
    public func unified(context: Int = 3, colors: Bool = false) -> String {
        func paint(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        let changed = lines.indices.filter { if case .same = lines[$0] { false } else { true } }
        guard !changed.isEmpty else { return "" }
        // Group changes whose context windows touch into hunks.
        var hunks: [ClosedRange<Int>] = []
        for index in changed {
            let window = max(0, index - context)...min(lines.count - 1, index + context)
            if let last = hunks.last, window.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...window.upperBound
            } else {
                hunks.append(window)
            }
        }
        var output = ""
        var oldLine = 1
        var newLine = 1
        var position = 0
        for hunk in hunks {
            while position < hunk.lowerBound {
                switch lines[position] {
                case .same:
                    oldLine += 1
                    newLine += 1
                case .removed: oldLine += 1
                case .added: newLine += 1
                }
                position += 1
            }
            let slice = lines[hunk]
            let oldCount = slice.filter { if case .added = $0 { false } else { true } }.count
            let newCount = slice.filter { if case .removed = $0 { false } else { true } }.count
            output += paint("@@ -\(oldLine),\(oldCount) +\(newLine),\(newCount) @@", "36") + "\n"
            for line in slice {
                switch line {
                case .same(let text): output += " \(text)\n"
                case .removed(let text): output += paint("-\(text)", "31") + "\n"
                case .added(let text): output += paint("+\(text)", "32") + "\n"
                }
            }
            oldLine += oldCount
            newLine += newCount
            position = hunk.upperBound + 1
        }
        return output
    }
}
