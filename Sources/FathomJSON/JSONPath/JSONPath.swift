/// A compiled [RFC 9535](https://www.rfc-editor.org/rfc/rfc9535) JSONPath query.
///
/// ```swift
/// let path = try JSONPath("$.users[?@.active && @.age >= 18].name")
/// for node in path.query(document) { print(node.path, node.value) }
/// ```
///
/// The shorthand `.items[0].name` (and `[0]`) is accepted as `$.items[0].name`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// The expression as written.
    public let expression: String
    let segments: [Segment]

    /// Compiles `expression`.
    ///
    /// - Throws: ``JSONPathError`` with the column of the problem.
    public init(_ expression: String) throws(JSONPathError) {
        self.expression = expression
        let shorthand = expression.first == "." || expression.first == "["
        var parser = JSONPathParser(shorthand ? "$" + expression : expression, columnOffset: shorthand ? -1 : 0)
        segments = try parser.parseQuery()
    }

    /// One result: a value and where it is in the document.
    public struct Node: Hashable, Sendable {
        public let path: NormalizedPath
        public let value: JSON
    }

    /// The nodes `document` has at this path, in document order.
    public func query(_ document: JSON) -> [Node] {
        var evaluator = JSONPathEvaluator(root: document)
        return evaluator.select(segments, from: [Located(value: document, path: NormalizedPath())]).map {
            Node(path: $0.path ?? NormalizedPath(), value: $0.value)
        }
    }

    /// The values `document` has at this path, in document order.
    public func values(in document: JSON) -> [JSON] {
        var evaluator = JSONPathEvaluator(root: document)
        return evaluator.select(segments, from: [Located(value: document, path: nil)]).map(\.value)
    }

    public var description: String { expression }

    public static func == (lhs: JSONPath, rhs: JSONPath) -> Bool { lhs.expression == rhs.expression }
    public func hash(into hasher: inout Hasher) { hasher.combine(expression) }
}

/// A location in a document as RFC 9535 §2.7 writes it: `$['store']['book'][0]`.
public struct NormalizedPath: Hashable, Sendable, CustomStringConvertible {
    public enum Component: Hashable, Sendable {
        case name(String)
        case index(Int)
    }

    public private(set) var components: [Component] = []

    public init(_ components: [Component] = []) {
        self.components = components
    }

    func appending(_ component: Component) -> NormalizedPath {
        var copy = self
        copy.components.append(component)
        return copy
    }

    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .name(let name):
                text += "['"
                for scalar in name.unicodeScalars {
                    switch scalar {
                    case "\u{8}": text += "\\b"
                    case "\u{C}": text += "\\f"
                    case "\n": text += "\\n"
                    case "\r": text += "\\r"
                    case "\t": text += "\\t"
                    case "'": text += "\\'"
                    case "\\": text += "\\\\"
                    case let c where c.value < 0x20: text += String(format: "\\u%04x", c.value)
                    default: text.unicodeScalars.append(scalar)
                    }
                }
                text += "']"
            }
        }
        return text
    }
}

/// Why a JSONPath expression is invalid, and at which column.
public struct JSONPathError: Error, Hashable, Sendable, CustomStringConvertible {
    public let reason: String
    /// The column in the expression as written (1-based).
    public let column: Int
    public let expression: String

    public var description: String {
        "invalid JSONPath at column \(column): \(reason)\n  \(expression)\n  "
            + String(repeating: " ", count: max(0, column - 1)) + "^"
    }

    /// The first line of ``description``.
    public var summary: String { "invalid JSONPath at column \(column): \(reason)" }
}

// MARK: - Syntax tree

indirect enum Segment: Hashable, Sendable {
    case child([Selector])
    case descendant([Selector])
}

enum Selector: Hashable, Sendable {
    case name(String)
    case wildcard
    case index(Int)
    case slice(start: Int?, end: Int?, step: Int?)
    case filter(LogicalExpression)
}

indirect enum LogicalExpression: Hashable, Sendable {
    case or([LogicalExpression])
    case and([LogicalExpression])
    case not(LogicalExpression)
    case comparison(ComparableOperand, ComparisonOperator, ComparableOperand)
    case existence(FilterQuery)
    case function(FunctionCall)
}

enum ComparisonOperator: String, Hashable, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

indirect enum ComparableOperand: Hashable, Sendable {
    case literal(JSON)
    case query(FilterQuery)
    case function(FunctionCall)
}

struct FilterQuery: Hashable, Sendable {
    /// `@` (the current node) rather than `$` (the root).
    let relative: Bool
    let segments: [Segment]

    /// Whether the query selects at most one node: only name and index selectors in child segments.
    var isSingular: Bool {
        segments.allSatisfy { segment in
            guard case .child(let selectors) = segment, selectors.count == 1 else { return false }
            switch selectors[0] {
            case .name, .index: return true
            default: return false
            }
        }
    }
}

indirect enum FunctionArgument: Hashable, Sendable {
    case literal(JSON)
    case query(FilterQuery)
    case logical(LogicalExpression)
    case function(FunctionCall)
}

struct FunctionCall: Hashable, Sendable {
    let function: JSONPathFunction
    let arguments: [FunctionArgument]
}
