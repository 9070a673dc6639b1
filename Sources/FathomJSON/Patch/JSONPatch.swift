/// Why a patch does not apply: which operation and what went wrong.
public struct JSONPatchError: Error, Hashable, Sendable, CustomStringConvertible {
    public let reason: String
    /// The failing operation's position in the patch (0-based), when known.
    public var operationIndex: Int?

    init(reason: String, operationIndex: Int? = nil) {
        self.reason = reason
        self.operationIndex = operationIndex
    }

    public var description: String {
        operationIndex.map { "patch operation \($0) failed: \(reason)" } ?? reason
    }
}

/// A JSON Patch ([RFC 6902](https://www.rfc-editor.org/rfc/rfc6902)): a list of operations.
public struct JSONPatch: Hashable, Sendable {
    public enum Operation: Hashable, Sendable {
        case add(JSONPointer, JSON)
        case remove(JSONPointer)
        case replace(JSONPointer, JSON)
        case move(from: JSONPointer, to: JSONPointer)
        case copy(from: JSONPointer, to: JSONPointer)
        case test(JSONPointer, JSON)
    }

    public var operations: [Operation]

    public init(_ operations: [Operation]) {
        self.operations = operations
    }

    /// Reads a patch document (a JSON array of operation objects).
    public init(_ json: JSON) throws(JSONPatchError) {
        guard case .array(let items) = json else { throw JSONPatchError(reason: "a patch must be a JSON array") }
        var operations: [Operation] = []
        for (index, item) in items.enumerated() {
            do throws(JSONPatchError) {
                operations.append(try Self.operation(item))
            } catch {
                throw JSONPatchError(reason: error.reason, operationIndex: index)
            }
        }
        self.operations = operations
    }

    private static func operation(_ item: JSON) throws(JSONPatchError) -> Operation {
        guard case .object = item else { throw JSONPatchError(reason: "an operation must be an object") }
        func pointer(_ field: String) throws(JSONPatchError) -> JSONPointer {
            guard case .string(let text)? = item[field] else {
                throw JSONPatchError(reason: "missing or non-string '\(field)'")
            }
            return try JSONPointer(parsing: text)
        }
        func value() throws(JSONPatchError) -> JSON {
            guard let value = item["value"] else { throw JSONPatchError(reason: "missing 'value'") }
            return value
        }
        guard case .string(let op)? = item["op"] else { throw JSONPatchError(reason: "missing or non-string 'op'") }
        switch op {
        case "add": return .add(try pointer("path"), try value())
        case "remove": return .remove(try pointer("path"))
        case "replace": return .replace(try pointer("path"), try value())
        case "move": return .move(from: try pointer("from"), to: try pointer("path"))
        case "copy": return .copy(from: try pointer("from"), to: try pointer("path"))
        case "test": return .test(try pointer("path"), try value())
        default: throw JSONPatchError(reason: "unknown op '\(op)'")
        }
    }

    /// The patch as a JSON document.
    public var json: JSON {
        .array(
            operations.map { operation in
                func object(_ op: String, _ fields: [(String, JSON)]) -> JSON {
                    .object(
                        [JSON.Member(key: "op", value: .string(op))]
                            + fields.map { JSON.Member(key: $0.0, value: $0.1) })
                }
                switch operation {
                case .add(let path, let value):
                    return object("add", [("path", .string(path.description)), ("value", value)])
                case .remove(let path): return object("remove", [("path", .string(path.description))])
                case .replace(let path, let value):
                    return object("replace", [("path", .string(path.description)), ("value", value)])
                case .move(let from, let to):
                    return object("move", [("from", .string(from.description)), ("path", .string(to.description))])
                case .copy(let from, let to):
                    return object("copy", [("from", .string(from.description)), ("path", .string(to.description))])
                case .test(let path, let value):
                    return object("test", [("path", .string(path.description)), ("value", value)])
                }
            })
    }

    /// `document` with every operation applied; when one fails, the error names it and nothing is applied.
    public func apply(to document: JSON) throws(JSONPatchError) -> JSON {
        var result = document
        for (index, operation) in operations.enumerated() {
            do throws(JSONPatchError) {
                try Self.apply(operation, to: &result)
            } catch {
                throw JSONPatchError(reason: error.reason, operationIndex: index)
            }
        }
        return result
    }

    private static func apply(_ operation: Operation, to document: inout JSON) throws(JSONPatchError) {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path.tokens[...], in: &document, pointer: path)
        case .remove(let path):
            _ = try remove(at: path.tokens[...], in: &document, pointer: path)
        case .replace(let path, let value):
            try add(value, at: path.tokens[...], in: &document, pointer: path, mode: .replace)
        case .move(let from, let to):
            if to.tokens.count > from.tokens.count, Array(to.tokens.prefix(from.tokens.count)) == from.tokens {
                throw JSONPatchError(reason: "cannot move '\(from)' into its own child '\(to)'")
            }
            let value = try remove(at: from.tokens[...], in: &document, pointer: from)
            try add(value, at: to.tokens[...], in: &document, pointer: to)
        case .copy(let from, let to):
            guard let value = document.value(at: from) else {
                throw JSONPatchError(reason: "no value at '\(from)' to copy")
            }
            try add(value, at: to.tokens[...], in: &document, pointer: to)
        case .test(let path, let expected):
            guard let actual = document.value(at: path) else {
                throw JSONPatchError(reason: "test: no value at '\(path)'")
            }
            guard actual.isEquivalent(to: expected) else {
                throw JSONPatchError(
                    reason: "test failed at '\(path)': found \(actual.formatted(.compactText).dropLast())")
            }
        }
    }

    /// Whether ``add(_:at:in:pointer:mode:)`` inserts (RFC 6902 §4.1) or replaces an existing value (§4.3).
    private enum Placement {
        case insert, replace
    }

    /// Puts `value` at `tokens`. Inserting sets an object member (in place when it exists) or inserts
    /// into an array (`-` appends); replacing requires the member or element to exist and keeps its place.
    private static func add(
        _ value: JSON, at tokens: ArraySlice<String>, in node: inout JSON, pointer: JSONPointer,
        mode: Placement = .insert
    ) throws(JSONPatchError) {
        guard let token = tokens.first else {
            node = value
            return
        }
        let last = tokens.count == 1
        switch node {
        case .object(var members):
            node = .null  // release the array so it is mutated in place
            defer { node = .object(members) }
            let index = members.firstIndex(where: { $0.key == token })
            if last, let index {
                members[index].value = value
            } else if last, mode == .insert {
                members.append(JSON.Member(key: token, value: value))
            } else if let index {
                try add(value, at: tokens.dropFirst(), in: &members[index].value, pointer: pointer, mode: mode)
            } else {
                throw JSONPatchError(reason: "no member '\(token)' at '\(pointer)'")
            }
        case .array(var elements):
            node = .null
            defer { node = .array(elements) }
            if last, mode == .insert {
                if token == "-" {
                    elements.append(value)
                } else {
                    guard let index = JSONPointer.arrayIndex(token), index <= elements.count else {
                        throw JSONPatchError(reason: "index '\(token)' out of bounds at '\(pointer)'")
                    }
                    elements.insert(value, at: index)
                }
                return
            }
            guard let index = JSONPointer.arrayIndex(token), elements.indices.contains(index) else {
                throw JSONPatchError(reason: "index '\(token)' out of bounds at '\(pointer)'")
            }
            if last {
                elements[index] = value
            } else {
                try add(value, at: tokens.dropFirst(), in: &elements[index], pointer: pointer, mode: mode)
            }
        default:
            throw JSONPatchError(reason: "'\(pointer)' goes through a \(node.kindName), not an object or array")
        }
    }

    /// Removes and returns the value at `tokens`.
    private static func remove(
        at tokens: ArraySlice<String>, in node: inout JSON, pointer: JSONPointer
    )
        throws(JSONPatchError) -> JSON
    {
        guard let token = tokens.first else { throw JSONPatchError(reason: "cannot remove the whole document") }
        let last = tokens.count == 1
        switch node {
        case .object(var members):
            node = .null
            defer { node = .object(members) }
            guard let index = members.firstIndex(where: { $0.key == token }) else {
                throw JSONPatchError(reason: "no member '\(token)' at '\(pointer)'")
            }
            if last { return members.remove(at: index).value }
            return try remove(at: tokens.dropFirst(), in: &members[index].value, pointer: pointer)
        case .array(var elements):
            node = .null
            defer { node = .array(elements) }
            guard let index = JSONPointer.arrayIndex(token), elements.indices.contains(index) else {
                throw JSONPatchError(reason: "index '\(token)' out of bounds at '\(pointer)'")
            }
            if last { return elements.remove(at: index) }
            return try remove(at: tokens.dropFirst(), in: &elements[index], pointer: pointer)
        default:
            throw JSONPatchError(reason: "'\(pointer)' goes through a \(node.kindName), not an object or array")
        }
    }
}
