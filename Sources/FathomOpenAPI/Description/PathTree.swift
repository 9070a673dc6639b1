import Foundation

/// The description's paths as a tree of segments, so `ls` and `cd` walk the API like a directory
/// and a request's path finds its operation.
struct PathTree: Sendable {
    struct Node: Sendable {
        /// Child segments in the document's order (templates as written: `{petId}`).
        var order: [String] = []
        var children: [String: Node] = [:]
        /// Indexes into the description's operations.
        var operations: [Int] = []
        /// Whether the description declares this path (some declare paths with no operations).
        var isDeclared = false
    }

    private(set) var root = Node()

    /// - Parameters:
    ///   - paths: Every declared path template, operations or not.
    ///   - operations: The operations, each placed under its path.
    init(paths: [String], operations: [APIOperation]) {
        for path in paths { Self.insert(nil, at: Self.segments(of: path)[...], into: &root) }
        for (index, operation) in operations.enumerated() {
            Self.insert(index, at: operation.pathSegments[...], into: &root)
        }
    }

    private static func insert(_ index: Int?, at segments: ArraySlice<String>, into node: inout Node) {
        guard let first = segments.first else {
            if let index { node.operations.append(index) }
            node.isDeclared = true
            return
        }
        if node.children[first] == nil {
            node.order.append(first)
            node.children[first] = Node()
        }
        insert(index, at: segments.dropFirst(), into: &node.children[first]!)
    }

    /// The node a concrete or templated path leads to: a literal child first, else the most
    /// specific template that matches the segment (``specificity(of:)``), whatever the document's
    /// order.
    func node(at segments: [String]) -> Node? {
        var node = root
        for segment in segments {
            if let literal = node.children[segment] {
                node = literal
            } else if let template = node.order.filter({ Self.isTemplate($0) && Self.matches(template: $0, segment) })
                .max(by: { Self.specificity(of: $0) < Self.specificity(of: $1) })
            {
                node = node.children[template]!
            } else {
                return nil
            }
        }
        return node
    }

    // MARK: - Segments

    /// `/pets/{petId}/` → `["pets", "{petId}"]`; a query is not part of the path.
    static func segments(of path: String) -> [String] {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return bare.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
    }

    static func isTemplate(_ segment: String) -> Bool { segment.contains("{") && segment.contains("}") }

    /// Whether a concrete segment fits a template segment (`{id}`, `{id}.json`, `v{major}`).
    static func matches(template: String, _ segment: String) -> Bool {
        if template.hasPrefix("{"), template.hasSuffix("}"), template.dropFirst().firstIndex(of: "{") == nil {
            return !segment.isEmpty
        }
        var pattern = "^"
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open])) + "[^/]+"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        guard let regex = PatternCache.shared.regex(pattern) else { return false }
        return regex.firstMatch(in: segment, range: NSRange(segment.startIndex..., in: segment)) != nil
    }

    /// How well a request path fits a template, segment by segment from the left.
    ///
    /// `nil` when it does not fit. Compare two with `lexicographicallyPrecedes`: the more specific
    /// template ranks higher, at the first segment where they differ.
    ///
    /// A literal segment ranks above any template; a template with literal text (`{id}.json`,
    /// `v{major}`) above a bare parameter (`{id}`), the more literal text the higher. A template
    /// in the request (`/pets/{petId}`) fits the same template.
    static func match(_ template: [String], _ segments: [String]) -> [Int]? {
        guard template.count == segments.count else { return nil }
        var ranks: [Int] = []
        ranks.reserveCapacity(template.count)
        for (expected, given) in zip(template, segments) {
            if expected == given, !isTemplate(expected) {
                ranks.append(Int.max)
            } else if isTemplate(expected), expected == given || matches(template: expected, given) {
                ranks.append(specificity(of: expected))
            } else {
                return nil
            }
        }
        return ranks
    }

    /// How much of a template segment is literal text: 0 for `{id}`, 5 for `{id}.json`.
    static func specificity(of template: String) -> Int {
        var literal = 0
        var inParameter = false
        for character in template {
            switch character {
            case "{": inParameter = true
            case "}": inParameter = false
            default: if !inParameter { literal += 1 }
            }
        }
        return literal
    }
}

extension APIDescription {
    /// What lies under a path: its child segments (with how many operations each leads to) and
    /// the operations on the path itself.
    public struct Listing: Sendable {
        /// A segment under a path.
        public struct Child: Sendable, Hashable {
            /// The segment as written: `pets`, `{petId}`.
            public var name: String
            /// Operations at or below it.
            public var operationCount: Int
            /// Whether there are segments below it.
            public var hasChildren: Bool
        }

        /// The segments under the path.
        public var children: [Child]
        /// The operations on the path itself.
        public var operations: [APIOperation]
        /// Whether the description declares the path itself (not only paths below it).
        public var isDeclared: Bool
    }

    /// The listing at `path` (concrete, `/pets/42`, or templated); `nil` when the description has
    /// nothing there.
    public func listing(at path: String) -> Listing? {
        guard let node = tree.node(at: PathTree.segments(of: path)) else { return nil }
        func count(_ node: PathTree.Node) -> Int {
            node.operations.count + node.children.values.reduce(0) { $0 + count($1) }
        }
        return Listing(
            children: node.order.map { name in
                let child = node.children[name]!
                return Listing.Child(name: name, operationCount: count(child), hasChildren: !child.order.isEmpty)
            },
            operations: node.operations.map { operations[$0] }, isDeclared: node.isDeclared)
    }
}
