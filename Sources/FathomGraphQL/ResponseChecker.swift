import FathomJSON
import GraphQL

/// One place a response does not fit the operation's types: `$.data.user.age` and what is wrong
/// there (`expected Int, got string`).
public struct GraphQLViolation: Sendable, Equatable, CustomStringConvertible {
    /// A JSONPath into the response.
    public let path: String
    /// What was expected there, and what came (`expected Int, got string`).
    public let message: String

    /// A violation at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `$.data.user.age: expected Int, got string`.
    public var description: String { "\(path): \(message)" }
}

/// Checks a response's `data` against the types the operation selects (GraphQL's section 6,
/// "Response"): every selected field present unless a directive may skip it or an error
/// explains it, nothing that was not selected, null only where the type allows it, scalars and
/// enum values of their type, lists as lists, objects as objects of a type the field can hold.
struct ResponseChecker {
    let index: SchemaIndex
    let operation: GraphQLOperation
    /// Violations after which the check stops: one wrong list can otherwise say the same
    /// thing thousands of times.
    static let limit = 50
    private(set) var violations: [GraphQLViolation] = []
    /// The response paths its `errors` name (`$.data.user.age`): a field missing there is explained.
    private var explained: Set<String> = []

    init(index: SchemaIndex, operation: GraphQLOperation) {
        self.index = index
        self.operation = operation
    }

    func check(_ response: JSON) -> [GraphQLViolation] {
        var checker = self
        checker.run(response)
        return checker.violations
    }

    private mutating func run(_ response: JSON) {
        guard case .object = response else {
            violations.append(
                GraphQLViolation(
                    path: "$", message: "expected a GraphQL response (an object), got \(response.kindName)"))
            return
        }
        var hasErrors = false
        if let errors = response["errors"] {
            if case .array(let list) = errors, !list.isEmpty {
                hasErrors = true
                for error in list { explained.insert(Self.path(ofError: error)) }
            } else if case .array = errors {
                violations.append(
                    GraphQLViolation(
                        path: "$.errors", message: "an empty list (errors are left out when there are none)"))
            } else {
                violations.append(
                    GraphQLViolation(path: "$.errors", message: "expected a list, got \(errors.kindName)"))
            }
        }
        guard let data = response["data"], data != .null else {
            if !hasErrors {
                violations.append(GraphQLViolation(path: "$.data", message: "missing, and no errors say why"))
            }
            return
        }
        guard let root = index.root(operation.kind) else { return }
        checkObject(data, declared: root, selections: operation.operation.selectionSet.selections, path: "$.data")
    }

    /// `$.data.a.b[0].c` for an error's `path` (`["a", "b", 0, "c"]`).
    private static func path(ofError error: JSON) -> String {
        guard case .array(let elements)? = error["path"] else { return "" }
        var path = "$.data"
        for element in elements {
            switch element {
            case .string(let key): path += "." + key
            case .number(let number): path += "[\(number)]"
            default: break
            }
        }
        return path
    }

    /// Whether an error names `path` or a place inside it.
    private func isExplained(_ path: String) -> Bool {
        explained.contains { $0 == path || $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[") }
    }

    private mutating func add(_ path: String, _ message: String) {
        guard violations.count < Self.limit else { return }
        violations.append(GraphQLViolation(path: path, message: message))
    }

    // MARK: - Objects

    /// A field a selection asks for under one response key.
    private struct Selected {
        var field: GraphQL.Field
        /// A directive (`@skip`, `@include`) or a fragment on a type the value may not be can
        /// leave the key out.
        var optional: Bool
    }

    private mutating func checkObject(
        _ value: JSON, declared: SchemaIndex.NamedType, selections: [any Selection], path: String
    ) {
        guard case .object(let members) = value else {
            add(path, "expected \(declared.name) (an object), got \(value.kindName)")
            return
        }
        // The object's own type: the declared one, or for an interface or union the one its
        // `__typename` names, when it was selected.
        var runtime: SchemaIndex.NamedType? = declared.kind == .object ? declared : nil
        if runtime == nil, case .string(let name)? = value["__typename"] {
            if declared.possibleTypes.contains(name), let type = index[name] {
                runtime = type
            }
        }
        var order: [String] = []
        var selected: [String: Selected] = [:]
        collect(selections, runtime: runtime, declared: declared, optional: false, into: &selected, order: &order)
        for key in order {
            guard let selection = selected[key] else { continue }
            let fieldPath = path + "." + key
            guard let member = value[key] else {
                if !selection.optional, !isExplained(fieldPath) { add(fieldPath, "missing") }
                continue
            }
            let name = selection.field.name.value
            if name == "__typename" {
                checkTypename(member, declared: declared, runtime: runtime, path: fieldPath)
                continue
            }
            // A field of the runtime type when it is known, else of the declared type.
            guard let field = (runtime ?? declared).field(name) ?? declared.field(name) else { continue }
            checkValue(member, type: field.type, selections: selection.field.selectionSet?.selections, path: fieldPath)
        }
        for member in members where selected[member.key] == nil {
            add(path + "." + member.key, "not in the selection")
        }
    }

    private mutating func checkTypename(
        _ value: JSON, declared: SchemaIndex.NamedType, runtime: SchemaIndex.NamedType?, path: String
    ) {
        guard case .string(let name) = value else {
            add(path, "expected String!, got \(value.kindName)")
            return
        }
        if let runtime, runtime.name != name {
            add(path, "expected \"\(runtime.name)\", got \"\(name)\"")
        } else if runtime == nil, !declared.possibleTypes.contains(name) {
            add(path, "\"\(name)\" is not a type \(declared.name) can be")
        }
    }

    /// The fields `selections` ask for on an object of type `runtime` (unknown: `nil`), by
    /// response key, fragments spread; each fragment once per path (a cycle is an invalid
    /// document, and cannot loop here).
    private func collect(
        _ selections: [any Selection], runtime: SchemaIndex.NamedType?, declared: SchemaIndex.NamedType,
        optional: Bool, into selected: inout [String: Selected], order: inout [String], visited: Set<String> = []
    ) {
        for selection in selections {
            switch selection {
            case let field as GraphQL.Field:
                let key = field.alias?.value ?? field.name.value
                let isOptional = optional || Self.isConditional(field.directives)
                if var existing = selected[key] {
                    existing.optional = existing.optional && isOptional
                    selected[key] = existing
                } else {
                    selected[key] = Selected(field: field, optional: isOptional)
                    order.append(key)
                }
            case let inline as InlineFragment:
                guard let applies = applies(inline.typeCondition?.name.value, runtime: runtime) else { continue }
                collect(
                    inline.selectionSet.selections, runtime: runtime, declared: declared,
                    optional: optional || !applies || Self.isConditional(inline.directives), into: &selected,
                    order: &order, visited: visited)
            case let spread as FragmentSpread:
                let name = spread.name.value
                guard !visited.contains(name), let fragment = operation.fragments[name],
                    let applies = applies(fragment.typeCondition.name.value, runtime: runtime)
                else { continue }
                collect(
                    fragment.selectionSet.selections, runtime: runtime, declared: declared,
                    optional: optional || !applies || Self.isConditional(spread.directives), into: &selected,
                    order: &order, visited: visited.union([name]))
            default: continue
            }
        }
    }

    /// Whether a fragment on `condition` applies to an object of type `runtime`: `true`, `false`
    /// when it may (the type is not known: its fields are optional), `nil` when it cannot.
    private func applies(_ condition: String?, runtime: SchemaIndex.NamedType?) -> Bool? {
        guard let condition else { return true }
        guard let runtime else { return false }
        if condition == runtime.name { return true }
        guard let type = index[condition] else { return nil }
        return type.possibleTypes.contains(runtime.name) ? true : nil
    }

    private static func isConditional(_ directives: [GraphQL.Directive]) -> Bool {
        directives.contains { $0.name.value == "skip" || $0.name.value == "include" }
    }

    // MARK: - Values

    /// `shown` is the type as the field declares it, non-null included, for messages.
    private mutating func checkValue(
        _ value: JSON, type: TypeReference, shown: TypeReference? = nil, selections: [any Selection]?, path: String
    ) {
        let shown = shown ?? type
        switch type {
        case .nonNull(let inner):
            if value == .null {
                add(path, "expected \(type), got null")
                return
            }
            checkValue(value, type: inner, shown: type, selections: selections, path: path)
        case .list(let inner):
            if value == .null { return }
            guard case .array(let items) = value else {
                add(path, "expected \(shown), got \(value.kindName)")
                return
            }
            for (offset, item) in items.enumerated() {
                guard violations.count < Self.limit else { return }
                checkValue(item, type: inner, selections: selections, path: path + "[\(offset)]")
            }
        case .named(let name):
            if value == .null { return }
            guard let named = index[name] else { return }
            switch named.kind {
            case .scalar: checkScalar(value, name: name, shown: shown, path: path)
            case .enum:
                guard case .string(let text) = value else {
                    add(path, "expected \(shown), got \(value.kindName)")
                    return
                }
                if !named.enumValues.contains(where: { $0.name == text }) {
                    add(path, "expected \(shown), got \"\(text)\", which is not one of its values")
                }
            case .object, .interface, .union:
                checkObject(value, declared: named, selections: selections ?? [], path: path)
            case .inputObject:
                return
            }
        }
    }

    /// A built-in scalar's serialization (section 3.5); `shown` is the field's type as declared.
    private mutating func checkScalar(_ value: JSON, name: String, shown: TypeReference, path: String) {
        let expected: Bool
        switch (name, value) {
        case ("Int", .number(let text)):
            guard let number = Int64(text), number >= Int64(Int32.min), number <= Int64(Int32.max) else {
                return add(path, "expected \(shown), got \(text) (Int is a 32-bit whole number)")
            }
            expected = true
        case ("Float", .number), ("String", .string), ("Boolean", .bool), ("ID", .string): expected = true
        case ("Int", _), ("Float", _), ("String", _), ("Boolean", _): expected = false
        case ("ID", _): return add(path, "expected \(shown) (serialized as a string), got \(value.kindName)")
        default:
            // A custom scalar's serialization is its server's to say.
            expected = true
        }
        if !expected { add(path, "expected \(shown), got \(value.kindName)") }
    }
}

/// One of a response's `errors`: its message, the response path it names, and where in the
/// operation it points.
public struct GraphQLResponseError: Sendable, Equatable {
    /// The server's message.
    public let message: String
    /// The response path (`user.friends[0].name`), when the error names one.
    public let path: String?
    /// The places in the operation (`3:7`).
    public let locations: [String]

    /// An error as a response carries it.
    public init(message: String, path: String?, locations: [String]) {
        self.message = message
        self.path = path
        self.locations = locations
    }

    /// The errors of a GraphQL response; empty when it has none (or is no GraphQL response).
    public static func errors(in response: JSON) -> [GraphQLResponseError] {
        guard case .array(let errors)? = response["errors"] else { return [] }
        return errors.map { error in
            let message: String
            if case .string(let text)? = error["message"] { message = text } else { message = "(no message)" }
            var path: String?
            if case .array(let elements)? = error["path"] {
                path = elements.reduce(into: "") { text, element in
                    switch element {
                    case .string(let key): text += text.isEmpty ? key : "." + key
                    case .number(let index): text += "[\(index)]"
                    default: break
                    }
                }
            }
            var locations: [String] = []
            if case .array(let places)? = error["locations"] {
                for place in places {
                    if case .number(let line)? = place["line"], case .number(let column)? = place["column"] {
                        locations.append("\(line):\(column)")
                    }
                }
            }
            return GraphQLResponseError(message: message, path: path, locations: locations)
        }
    }
}
