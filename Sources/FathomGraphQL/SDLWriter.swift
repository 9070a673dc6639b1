import FathomJSON
import GraphQL

/// Writes the result of an introspection query as SDL, which GraphQLSwift builds into a schema:
/// the introspection result → schema builder GraphQLSwift does not have.
///
/// The result comes from a server, so nothing in it is trusted: every name must be a GraphQL
/// name, every default value one GraphQL literal, every description is written as an escaped
/// string — text in a result cannot add a type, a field or a directive to the schema.
struct SDLWriter {
    private var text = ""

    /// The introspection result (`{"data": {"__schema": …}}`, or the `__schema` object's parent)
    /// as SDL.
    static func sdl(fromIntrospection result: JSON) throws(GraphQLSchemaError) -> String {
        let schema: JSON
        if let inner = result["data"]?["__schema"] ?? result["__schema"] {
            schema = inner
        } else {
            throw GraphQLSchemaError("the introspection result has no __schema")
        }
        var writer = SDLWriter()
        try writer.write(schema: schema)
        return writer.text
    }

    private static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    private static let builtInDirectives: Set<String> = ["skip", "include", "deprecated", "specifiedBy", "oneOf"]

    private mutating func write(schema: JSON) throws(GraphQLSchemaError) {
        guard case .array(let types)? = schema["types"] else {
            throw GraphQLSchemaError("the introspection result's __schema has no types")
        }
        var roots: [String] = []
        for (kind, key) in [("query", "queryType"), ("mutation", "mutationType"), ("subscription", "subscriptionType")]
        {
            guard let root = schema[key], root != .null else { continue }
            roots.append("  \(kind): \(try Self.name(root["name"], of: key))")
        }
        guard !roots.isEmpty else { throw GraphQLSchemaError("the introspection result names no query type") }
        if let description = Self.string(schema["description"]) { text += Self.quoted(description) + "\n" }
        text += "schema {\n" + roots.joined(separator: "\n") + "\n}\n"
        if case .array(let directives)? = schema["directives"] {
            for directive in directives {
                let name = try Self.name(directive["name"], of: "directive")
                guard !Self.builtInDirectives.contains(name) else { continue }
                try write(directive: directive, name: name)
            }
        }
        for type in types {
            let name = try Self.name(type["name"], of: "type")
            guard !name.hasPrefix("__"), !Self.builtInScalars.contains(name) else { continue }
            try write(type: type, name: name)
        }
    }

    private mutating func write(directive: JSON, name: String) throws(GraphQLSchemaError) {
        text += "\n"
        writeDescription(directive["description"], indent: "")
        text += "directive @\(name)"
        try writeArguments(directive["args"], of: "@\(name)")
        if directive["isRepeatable"] == .bool(true) { text += " repeatable" }
        guard case .array(let locations)? = directive["locations"], !locations.isEmpty else {
            throw GraphQLSchemaError("directive @\(name) has no locations")
        }
        var names: [String] = []
        for location in locations { names.append(try Self.name(location, of: "@\(name)'s location")) }
        text += " on " + names.joined(separator: " | ") + "\n"
    }

    private mutating func write(type: JSON, name: String) throws(GraphQLSchemaError) {
        text += "\n"
        writeDescription(type["description"], indent: "")
        guard case .string(let kind)? = type["kind"] else { throw GraphQLSchemaError("type \(name) has no kind") }
        switch kind {
        case "SCALAR":
            text += "scalar \(name)"
            if let url = Self.string(type["specifiedByURL"] ?? type["specifiedByUrl"]) {
                text += " @specifiedBy(url: \(Self.quoted(url)))"
            }
            text += "\n"
        case "OBJECT", "INTERFACE":
            text += (kind == "OBJECT" ? "type " : "interface ") + name
            try writeInterfaces(type["interfaces"], of: name)
            text += " {\n"
            guard case .array(let fields)? = type["fields"], !fields.isEmpty else {
                throw GraphQLSchemaError("type \(name) has no fields")
            }
            for field in fields {
                let fieldName = try Self.name(field["name"], of: "a field of \(name)")
                writeDescription(field["description"], indent: "  ")
                text += "  \(fieldName)"
                try writeArguments(field["args"], of: "\(name).\(fieldName)")
                text += ": " + (try Self.typeReference(field["type"], of: "\(name).\(fieldName)")).description
                writeDeprecation(field)
                text += "\n"
            }
            text += "}\n"
        case "UNION":
            guard case .array(let members)? = type["possibleTypes"], !members.isEmpty else {
                throw GraphQLSchemaError("union \(name) has no members")
            }
            var names: [String] = []
            for member in members { names.append(try Self.name(member["name"], of: "a member of \(name)")) }
            text += "union \(name) = " + names.joined(separator: " | ") + "\n"
        case "ENUM":
            guard case .array(let values)? = type["enumValues"], !values.isEmpty else {
                throw GraphQLSchemaError("enum \(name) has no values")
            }
            text += "enum \(name) {\n"
            for value in values {
                let valueName = try Self.name(value["name"], of: "a value of \(name)")
                writeDescription(value["description"], indent: "  ")
                text += "  \(valueName)"
                writeDeprecation(value)
                text += "\n"
            }
            text += "}\n"
        case "INPUT_OBJECT":
            guard case .array(let fields)? = type["inputFields"], !fields.isEmpty else {
                throw GraphQLSchemaError("input \(name) has no fields")
            }
            text += "input \(name)"
            if type["isOneOf"] == .bool(true) { text += " @oneOf" }
            text += " {\n"
            for field in fields {
                text += "  "
                try writeInputValue(field, of: name)
                text += "\n"
            }
            text += "}\n"
        default:
            throw GraphQLSchemaError("type \(name) is of no kind GraphQL knows ('\(kind)')")
        }
    }

    private mutating func writeInterfaces(_ value: JSON?, of name: String) throws(GraphQLSchemaError) {
        guard case .array(let interfaces)? = value, !interfaces.isEmpty else { return }
        var names: [String] = []
        for interface in interfaces { names.append(try Self.name(interface["name"], of: "an interface of \(name)")) }
        text += " implements " + names.joined(separator: " & ")
    }

    private mutating func writeArguments(_ value: JSON?, of owner: String) throws(GraphQLSchemaError) {
        guard case .array(let arguments)? = value, !arguments.isEmpty else { return }
        text += "("
        for (index, argument) in arguments.enumerated() {
            if index > 0 { text += ", " }
            try writeInputValue(argument, of: owner)
        }
        text += ")"
    }

    /// `name: Type = default`, with its description before it as a string.
    private mutating func writeInputValue(_ value: JSON, of owner: String) throws(GraphQLSchemaError) {
        let name = try Self.name(value["name"], of: "an argument of \(owner)")
        if let description = Self.string(value["description"]) { text += Self.quoted(description) + " " }
        text += name + ": " + (try Self.typeReference(value["type"], of: "\(owner).\(name)")).description
        if let literal = Self.string(value["defaultValue"]) {
            text += " = " + (try Self.literal(literal, of: "\(owner).\(name)"))
        }
        writeDeprecation(value)
    }

    private mutating func writeDescription(_ value: JSON?, indent: String) {
        guard let description = Self.string(value) else { return }
        text += indent + Self.quoted(description) + "\n"
    }

    private mutating func writeDeprecation(_ value: JSON) {
        guard value["isDeprecated"] == .bool(true) else { return }
        if let reason = Self.string(value["deprecationReason"]) {
            text += " @deprecated(reason: \(Self.quoted(reason)))"
        } else {
            text += " @deprecated"
        }
    }

    // MARK: - Values checked

    private static func string(_ value: JSON?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return text
    }

    /// A GraphQL name (`/[_A-Za-z][_0-9A-Za-z]*/`), or the reason the result is refused.
    private static func name(_ value: JSON?, of what: String) throws(GraphQLSchemaError) -> String {
        guard let text = string(value) else { throw GraphQLSchemaError("\(what) has no name") }
        guard isName(text) else { throw GraphQLSchemaError("\(what) has a name GraphQL does not allow: '\(text)'") }
        return text
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// A type reference (`{"kind": "NON_NULL", "ofType": {…}}`), nested no deeper than GraphQL
    /// types are in practice.
    private static func typeReference(
        _ value: JSON?, of what: String, depth: Int = 0
    ) throws(GraphQLSchemaError)
        -> TypeReference
    {
        guard depth < 32, case .string(let kind)? = value?["kind"] else {
            throw GraphQLSchemaError("\(what) has no type")
        }
        switch kind {
        case "NON_NULL":
            let inner = try typeReference(value?["ofType"], of: what, depth: depth + 1)
            guard !inner.isNonNull else { throw GraphQLSchemaError("\(what) is non-null twice") }
            return .nonNull(inner)
        case "LIST": return .list(try typeReference(value?["ofType"], of: what, depth: depth + 1))
        default: return .named(try name(value?["name"], of: "\(what)'s type"))
        }
    }

    /// A default value: exactly one GraphQL literal, checked by parsing it in an argument's place
    /// and written as GraphQL prints it.
    private static func literal(_ text: String, of what: String) throws(GraphQLSchemaError) -> String {
        guard let document = try? parse(source: "{f(a: \(text))}", noLocation: true),
            document.definitions.count == 1,
            let operation = document.definitions.first as? OperationDefinition,
            operation.selectionSet.selections.count == 1,
            let field = operation.selectionSet.selections.first as? GraphQL.Field,
            field.selectionSet == nil, field.directives.isEmpty, field.arguments.count == 1,
            !containsVariable(field.arguments[0].value)
        else { throw GraphQLSchemaError("\(what) has a default value that is not one GraphQL value: \(text)") }
        return print(ast: field.arguments[0].value)
    }

    private static func containsVariable(_ value: any Value) -> Bool {
        switch value {
        case is Variable: true
        case let list as ListValue: list.values.contains { containsVariable($0) }
        case let object as ObjectValue: object.fields.contains { containsVariable($0.value) }
        default: false
        }
    }

    // MARK: - Strings

    /// A GraphQL string literal with everything that could end or bend it escaped: a JSON string
    /// literal is one (the same escapes, `"`, `\\`, control characters and DEL), so FathomJSON's
    /// writer makes it.
    static func quoted(_ text: String) -> String {
        var literal = JSON.string(text).formatted(.compactText)
        if literal.hasSuffix("\n") { literal.removeLast() }
        return literal
    }
}

/// A schema that could not be read or built, in one line.
public struct GraphQLSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the schema, in one line.
    public let description: String

    /// An error that says `description`.
    public init(_ description: String) {
        self.description = description
    }
}
