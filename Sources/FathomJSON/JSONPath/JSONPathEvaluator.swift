/// A value with its location, when locations are wanted.
struct Located {
    let value: JSON
    let path: NormalizedPath?

    func child(_ value: JSON, _ component: NormalizedPath.Component) -> Located {
        Located(value: value, path: path?.appending(component))
    }
}

/// Evaluates segments over a document (RFC 9535 §2.3–2.5).
struct JSONPathEvaluator {
    let root: JSON
    private var regexes = IRegexp.Cache()

    init(root: JSON) {
        self.root = root
    }

    mutating func select(_ segments: [Segment], from nodes: [Located]) -> [Located] {
        var current = nodes
        for segment in segments {
            var next: [Located] = []
            switch segment {
            case .child(let selectors):
                for node in current {
                    for selector in selectors { apply(selector, to: node, into: &next) }
                }
            case .descendant(let selectors):
                for node in current { applyToDescendants(selectors, of: node, into: &next) }
            }
            current = next
        }
        return current
    }

    /// Applies `selectors` to the node and to everything below it, parents before children, in
    /// document order — without collecting the descendants first.
    private mutating func applyToDescendants(_ selectors: [Selector], of node: Located, into out: inout [Located]) {
        for selector in selectors { apply(selector, to: node, into: &out) }
        switch node.value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                applyToDescendants(selectors, of: node.child(element, .index(index)), into: &out)
            }
        case .object(let members):
            for member in members {
                applyToDescendants(selectors, of: node.child(member.value, .name(member.key)), into: &out)
            }
        default:
            break
        }
    }

    private mutating func apply(_ selector: Selector, to node: Located, into out: inout [Located]) {
        switch selector {
        case .name(let name):
            if case .object(let members) = node.value, let member = members.first(where: { $0.key == name }) {
                out.append(node.child(member.value, .name(name)))
            }
        case .wildcard:
            forEachChild(of: node) { out.append($0) }
        case .index(let index):
            guard case .array(let elements) = node.value else { return }
            let resolved = index < 0 ? elements.count + index : index
            if elements.indices.contains(resolved) {
                out.append(node.child(elements[resolved], .index(resolved)))
            }
        case .slice(let start, let end, let step):
            guard case .array(let elements) = node.value else { return }
            for index in Self.sliceIndices(count: elements.count, start: start, end: end, step: step ?? 1) {
                out.append(node.child(elements[index], .index(index)))
            }
        case .filter(let expression):
            var children: [Located] = []
            forEachChild(of: node) { children.append($0) }
            for child in children where test(expression, current: child.value) {
                out.append(child)
            }
        }
    }

    private func forEachChild(of node: Located, _ body: (Located) -> Void) {
        switch node.value {
        case .array(let elements):
            for (index, element) in elements.enumerated() { body(node.child(element, .index(index))) }
        case .object(let members):
            for member in members { body(node.child(member.value, .name(member.key))) }
        default:
            break
        }
    }

    /// RFC 9535 §2.3.4.2.2.
    static func sliceIndices(count: Int, start: Int?, end: Int?, step: Int) -> [Int] {
        guard step != 0 else { return [] }
        func normalize(_ i: Int) -> Int { i >= 0 ? i : count + i }
        var result: [Int] = []
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), count)
            let upper = min(max(normalize(end ?? count), 0), count)
            var i = lower
            while i < upper {
                result.append(i)
                i += step
            }
        } else {
            let upper = min(max(normalize(start ?? count - 1), -1), count - 1)
            let lower = min(max(end.map(normalize) ?? -1, -1), count - 1)
            var i = upper
            while lower < i {
                result.append(i)
                i += step
            }
        }
        return result
    }

    // MARK: Filters

    private mutating func test(_ expression: LogicalExpression, current: JSON) -> Bool {
        switch expression {
        case .or(let terms):
            for term in terms where test(term, current: current) { return true }
            return false
        case .and(let terms):
            for term in terms where !test(term, current: current) { return false }
            return true
        case .not(let inner):
            return !test(inner, current: current)
        case .existence(let query):
            return !nodes(query, current: current).isEmpty
        case .function(let call):
            return logical(call, current: current)
        case .comparison(let left, let op, let right):
            return Self.compare(value(left, current: current), op, value(right, current: current))
        }
    }

    private mutating func nodes(_ query: FilterQuery, current: JSON) -> [JSON] {
        select(query.segments, from: [Located(value: query.relative ? current : root, path: nil)]).map(\.value)
    }

    /// A comparable's value; `nil` is RFC 9535's "Nothing".
    private mutating func value(_ comparable: ComparableOperand, current: JSON) -> JSON? {
        switch comparable {
        case .literal(let value): return value
        case .query(let query): return nodes(query, current: current).first
        case .function(let call): return functionValue(call, current: current)
        }
    }

    private mutating func argumentValue(_ argument: FunctionArgument, current: JSON) -> JSON? {
        switch argument {
        case .literal(let value): return value
        case .query(let query): return nodes(query, current: current).first
        case .function(let call): return functionValue(call, current: current)
        case .logical: return nil
        }
    }

    private mutating func argumentNodes(_ argument: FunctionArgument, current: JSON) -> [JSON] {
        if case .query(let query) = argument { return nodes(query, current: current) }
        return []
    }

    private mutating func functionValue(_ call: FunctionCall, current: JSON) -> JSON? {
        switch call.function {
        case .length:
            switch argumentValue(call.arguments[0], current: current) {
            case .string(let text): return .number(String(text.unicodeScalars.count))
            case .array(let elements): return .number(String(elements.count))
            case .object(let members): return .number(String(members.count))
            default: return nil
            }
        case .count:
            return .number(String(argumentNodes(call.arguments[0], current: current).count))
        case .value:
            let found = argumentNodes(call.arguments[0], current: current)
            return found.count == 1 ? found[0] : nil
        case .match, .search:
            return nil
        }
    }

    private mutating func logical(_ call: FunctionCall, current: JSON) -> Bool {
        guard call.function == .match || call.function == .search,
            case .string(let text) = argumentValue(call.arguments[0], current: current),
            case .string(let pattern) = argumentValue(call.arguments[1], current: current),
            let regex = regexes.regex(pattern)
        else { return false }
        if call.function == .match {
            return (try? regex.wholeMatch(in: text)) != nil
        }
        return (try? regex.firstMatch(in: text)) != nil
    }

    /// RFC 9535 §2.3.5.2.2.
    static func compare(_ left: JSON?, _ op: ComparisonOperator, _ right: JSON?) -> Bool {
        switch op {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .less: return less(left, right)
        case .lessOrEqual: return less(left, right) || equal(left, right)
        case .greater: return less(right, left)
        case .greaterOrEqual: return less(right, left) || equal(left, right)
        }
    }

    private static func equal(_ left: JSON?, _ right: JSON?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (let a?, let b?): return a.isEquivalent(to: b)
        default: return false
        }
    }

    private static func less(_ left: JSON?, _ right: JSON?) -> Bool {
        guard let left, let right else { return false }
        return left.isLess(than: right) ?? false
    }
}
