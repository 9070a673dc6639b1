import GraphQL

/// A schema's types as plain values: what listing, describing, completing and checking a
/// response read. Built once from a GraphQLSwift schema, so nothing after reads its lazily
/// built field maps again.
public struct SchemaIndex: Sendable {
    /// Every named type by name, the introspection types (`__Schema`, `__Type`…) included.
    public let types: [String: NamedType]
    /// The root types' names.
    public let query: String?
    public let mutation: String?
    public let subscription: String?
    /// The directives the schema declares, built-in ones included.
    public let directives: [Directive]

    /// What kind of type a named type is.
    public enum Kind: String, Sendable {
        case scalar, object, interface, union, `enum`
        case inputObject = "input"
    }

    /// A named type.
    public struct NamedType: Sendable {
        public let name: String
        public let kind: Kind
        public let description: String?
        /// An object's or interface's fields; an input object's input fields. In schema order.
        public let fields: [Field]
        /// An enum's values, in schema order.
        public let enumValues: [EnumValue]
        /// The object types a value of this type can be: itself for an object, the members of a
        /// union, the implementations of an interface.
        public let possibleTypes: [String]
        /// The interfaces an object or interface implements.
        public let interfaces: [String]

        /// The field named `name`.
        public func field(_ name: String) -> Field? { fields.first { $0.name == name } }

        /// Whether this is an object, interface or union: a type that has a selection.
        public var isComposite: Bool { kind == .object || kind == .interface || kind == .union }
    }

    /// A field of an object or interface, or an input object's field (with no arguments).
    public struct Field: Sendable {
        public let name: String
        public let type: TypeReference
        public let arguments: [Argument]
        public let description: String?
        public let deprecationReason: String?
    }

    /// An argument of a field or directive, or an input object's field.
    public struct Argument: Sendable {
        public let name: String
        public let type: TypeReference
        /// The default as a GraphQL literal (`10`, `"asc"`, `ASC`).
        public let defaultValue: String?
        public let description: String?
    }

    /// An enum's value.
    public struct EnumValue: Sendable {
        public let name: String
        public let description: String?
        public let deprecationReason: String?
    }

    /// A directive declared in the schema.
    public struct Directive: Sendable {
        public let name: String
        public let arguments: [Argument]
        public let locations: [String]
        public let description: String?
    }

    /// The type named `name`.
    public subscript(name: String) -> NamedType? { types[name] }

    /// The root type of an operation kind.
    public func root(_ kind: OperationKind) -> NamedType? {
        let name =
            switch kind {
            case .query: query
            case .mutation: mutation
            case .subscription: subscription
            }
        return name.flatMap { types[$0] }
    }

    init(_ schema: GraphQLSchema) throws {
        var types: [String: NamedType] = [:]
        for (name, type) in schema.typeMap {
            types[name] = try Self.namedType(type, in: schema)
        }
        self.types = types
        query = schema.queryType?.name
        mutation = schema.mutationType?.name
        subscription = schema.subscriptionType?.name
        directives = schema.directives.map { directive in
            Directive(
                name: directive.name, arguments: directive.args.compactMap(Self.argument),
                locations: directive.locations.map(\.rawValue), description: directive.description)
        }
    }

    private static func namedType(_ type: any GraphQLNamedType, in schema: GraphQLSchema) throws -> NamedType {
        switch type {
        case let object as GraphQLObjectType:
            return NamedType(
                name: object.name, kind: .object, description: object.description,
                fields: try object.fields().compactMap(field), enumValues: [], possibleTypes: [object.name],
                interfaces: try object.interfaces().map(\.name))
        case let interface as GraphQLInterfaceType:
            return NamedType(
                name: interface.name, kind: .interface, description: interface.description,
                fields: try interface.fields().compactMap(field), enumValues: [],
                possibleTypes: schema.getPossibleTypes(abstractType: interface).map(\.name),
                interfaces: try interface.interfaces().map(\.name))
        case let union as GraphQLUnionType:
            return NamedType(
                name: union.name, kind: .union, description: union.description, fields: [], enumValues: [],
                possibleTypes: try union.types().map(\.name), interfaces: [])
        case let enumeration as GraphQLEnumType:
            return NamedType(
                name: enumeration.name, kind: .enum, description: enumeration.description, fields: [],
                enumValues: enumeration.values.map {
                    EnumValue(name: $0.name, description: $0.description, deprecationReason: $0.deprecationReason)
                }, possibleTypes: [], interfaces: [])
        case let input as GraphQLInputObjectType:
            let fields = try input.fields().compactMap { name, field -> Field? in
                guard let type = TypeReference(field.type) else { return nil }
                return Field(
                    name: name, type: type, arguments: [], description: field.description,
                    deprecationReason: field.deprecationReason)
            }
            return NamedType(
                name: input.name, kind: .inputObject, description: input.description, fields: fields,
                enumValues: [], possibleTypes: [], interfaces: [])
        default:
            return NamedType(
                name: type.name, kind: .scalar, description: (type as? GraphQLScalarType)?.description, fields: [],
                enumValues: [], possibleTypes: [], interfaces: [])
        }
    }

    private static func field(_ name: String, _ field: GraphQLField) -> Field? {
        guard let type = TypeReference(field.type) else { return nil }
        let arguments = field.args.compactMap { name, argument -> Argument? in
            guard let type = TypeReference(argument.type) else { return nil }
            return Argument(
                name: name, type: type, defaultValue: argument.defaultValue.flatMap(Self.literal),
                description: argument.description)
        }
        return Field(
            name: name, type: type, arguments: arguments, description: field.description,
            deprecationReason: field.deprecationReason)
    }

    private static func argument(_ argument: GraphQLArgumentDefinition) -> Argument? {
        guard let type = TypeReference(argument.type) else { return nil }
        return Argument(
            name: argument.name, type: type, defaultValue: argument.defaultValue.flatMap(Self.literal),
            description: argument.description)
    }

    /// A default value as a GraphQL literal.
    static func literal(_ value: Map) -> String? {
        switch value {
        case .undefined: nil
        case .null: "null"
        case .bool(let bool): bool ? "true" : "false"
        case .number(let number): number.description
        case .string(let string): "\"" + SDLWriter.escaped(string) + "\""
        case .array(let items): "[" + items.compactMap(literal).joined(separator: ", ") + "]"
        case .dictionary(let members):
            "{" + members.compactMap { key, value in literal(value).map { "\(key): \($0)" } }.joined(separator: ", ")
                + "}"
        }
    }
}

/// What an operation does: reads, writes, or listens.
public enum OperationKind: String, Sendable, CaseIterable {
    case query, mutation, subscription
}
