import GraphQL

/// A schema's types as plain values.
///
/// What listing, describing, completing and checking a response read: made from the SDL's own
/// definitions, so it is there as soon as the schema parses.
public struct SchemaIndex: Sendable {
    /// Every named type by name, the introspection types (`__Schema`, `__Type`…) included.
    public let types: [String: NamedType]
    /// The query type's name.
    public let query: String?
    /// The mutation type's name, when the schema has one.
    public let mutation: String?
    /// The subscription type's name, when the schema has one.
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
        /// The type's name.
        public let name: String
        /// What kind of type it is.
        public let kind: Kind
        /// Its description, when the schema gives one.
        public let description: String?
        /// An object's or interface's fields, or an input object's input fields, in schema order.
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
        /// The field's name.
        public let name: String
        /// Its type as declared (`[User!]!`).
        public let type: TypeReference
        /// Its arguments, in schema order.
        public let arguments: [Argument]
        /// Its description, when the schema gives one.
        public let description: String?
        /// Why it is deprecated; `nil` when it is not.
        public let deprecationReason: String?
    }

    /// An argument of a field or directive, or an input object's field.
    public struct Argument: Sendable {
        /// The argument's name.
        public let name: String
        /// Its type as declared.
        public let type: TypeReference
        /// The default as a GraphQL literal (`10`, `"asc"`, `ASC`).
        public let defaultValue: String?
        /// Its description, when the schema gives one.
        public let description: String?
    }

    /// An enum's value.
    public struct EnumValue: Sendable {
        /// The value's name.
        public let name: String
        /// Its description, when the schema gives one.
        public let description: String?
        /// Why it is deprecated; `nil` when it is not.
        public let deprecationReason: String?
    }

    /// A directive declared in the schema.
    public struct Directive: Sendable {
        /// The directive's name, without `@`.
        public let name: String
        /// Its arguments.
        public let arguments: [Argument]
        /// Where it may be used (`FIELD`, `QUERY`…).
        public let locations: [String]
        /// Its description, when the schema gives one.
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

    /// What a type system document defines, as the index reads it: from GraphQLSwift's syntax
    /// tree, or straight from the text (``SDLScanner``).
    enum Definition: Sendable {
        case schema([OperationKind: String])
        case type(NamedType)
        case directive(Directive)
    }

    /// The index of a parsed SDL document, read from its definitions (extensions of a type add to it).
    init(_ document: Document) {
        self.init(definitions: document.definitions.compactMap(Self.definition))
    }

    /// The index of a document's definitions: what listing, describing, completing and checking a
    /// response need, ready long before GraphQLSwift has built the schema validation needs.
    init(definitions: [Definition]) {
        var types: [String: NamedType] = [:]
        for name in ["String", "Int", "Float", "Boolean", "ID"] {
            types[name] = NamedType(
                name: name, kind: .scalar, description: nil, fields: [], enumValues: [], possibleTypes: [],
                interfaces: [])
        }
        var roots: [OperationKind: String] = [:]
        var directives = Self.builtInDirectives
        var implementations: [String: [String]] = [:]
        var order: [String] = []
        for definition in definitions {
            switch definition {
            case .schema(let given):
                roots.merge(given) { $1 }
            case .directive(let directive):
                directives.removeAll { $0.name == directive.name }
                directives.append(directive)
            case .type(let type):
                if let existing = types[type.name], existing.kind == type.kind {
                    // An extension: its fields, values, members and interfaces join the type's.
                    types[type.name] = NamedType(
                        name: type.name, kind: type.kind, description: existing.description ?? type.description,
                        fields: existing.fields + type.fields, enumValues: existing.enumValues + type.enumValues,
                        possibleTypes: existing.kind == .object
                            ? existing.possibleTypes : existing.possibleTypes + type.possibleTypes,
                        interfaces: existing.interfaces + type.interfaces)
                } else {
                    types[type.name] = type
                    order.append(type.name)
                }
            }
        }
        // An interface's possible types: the objects that implement it, or implement an interface that does.
        for name in order {
            guard let type = types[name], type.kind == .object else { continue }
            var pending = type.interfaces
            var seen: Set<String> = []
            while let interface = pending.popLast() {
                guard seen.insert(interface).inserted else { continue }
                implementations[interface, default: []].append(name)
                pending += types[interface]?.interfaces ?? []
            }
        }
        for (interface, objects) in implementations {
            guard let type = types[interface], type.kind == .interface else { continue }
            types[interface] = NamedType(
                name: type.name, kind: type.kind, description: type.description, fields: type.fields, enumValues: [],
                possibleTypes: objects, interfaces: type.interfaces)
        }
        self.types = types
        query = roots[.query] ?? (types["Query"]?.kind == .object ? "Query" : nil)
        mutation = roots[.mutation] ?? (roots.isEmpty && types["Mutation"]?.kind == .object ? "Mutation" : nil)
        subscription =
            roots[.subscription] ?? (roots.isEmpty && types["Subscription"]?.kind == .object ? "Subscription" : nil)
        self.directives = directives
    }

    /// A definition of GraphQLSwift's syntax tree as the index reads it; `nil` for an operation.
    private static func definition(_ definition: any GraphQL.Definition) -> Definition? {
        switch definition {
        case let schema as SchemaDefinition:
            var roots: [OperationKind: String] = [:]
            for root in schema.operationTypes {
                if let kind = OperationKind(rawValue: root.operation.rawValue) { roots[kind] = root.type.name.value }
            }
            return .schema(roots)
        case let object as ObjectTypeDefinition:
            return .type(Self.object(object))
        case let extended as TypeExtensionDefinition:
            return .type(Self.object(extended.definition))
        case let interface as InterfaceTypeDefinition:
            return .type(
                NamedType(
                    name: interface.name.value, kind: .interface, description: interface.description?.value,
                    fields: interface.fields.map(Self.field), enumValues: [], possibleTypes: [],
                    interfaces: interface.interfaces.map(\.name.value)))
        case let union as UnionTypeDefinition:
            return .type(
                NamedType(
                    name: union.name.value, kind: .union, description: union.description?.value, fields: [],
                    enumValues: [], possibleTypes: union.types.map(\.name.value), interfaces: []))
        case let enumeration as EnumTypeDefinition:
            return .type(
                NamedType(
                    name: enumeration.name.value, kind: .enum, description: enumeration.description?.value,
                    fields: [],
                    enumValues: enumeration.values.map {
                        EnumValue(
                            name: $0.name.value, description: $0.description?.value,
                            deprecationReason: Self.deprecation($0.directives))
                    }, possibleTypes: [], interfaces: []))
        case let input as InputObjectTypeDefinition:
            return .type(
                NamedType(
                    name: input.name.value, kind: .inputObject, description: input.description?.value,
                    fields: input.fields.map(Self.inputField), enumValues: [], possibleTypes: [], interfaces: []))
        case let scalar as ScalarTypeDefinition:
            return .type(
                NamedType(
                    name: scalar.name.value, kind: .scalar, description: scalar.description?.value, fields: [],
                    enumValues: [], possibleTypes: [], interfaces: []))
        case let directive as DirectiveDefinition:
            return .directive(
                Directive(
                    name: directive.name.value, arguments: directive.arguments.map(Self.argument),
                    locations: directive.locations.map(\.value), description: directive.description?.value))
        default:
            return nil
        }
    }

    private static func object(_ object: ObjectTypeDefinition) -> NamedType {
        NamedType(
            name: object.name.value, kind: .object, description: object.description?.value,
            fields: object.fields.map(field), enumValues: [], possibleTypes: [object.name.value],
            interfaces: object.interfaces.map(\.name.value))
    }

    private static func field(_ field: FieldDefinition) -> Field {
        Field(
            name: field.name.value, type: TypeReference(field.type), arguments: field.arguments.map(argument),
            description: field.description?.value, deprecationReason: deprecation(field.directives))
    }

    private static func inputField(_ value: InputValueDefinition) -> Field {
        Field(
            name: value.name.value, type: TypeReference(value.type), arguments: [],
            description: value.description?.value, deprecationReason: deprecation(value.directives))
    }

    private static func argument(_ value: InputValueDefinition) -> Argument {
        Argument(
            name: value.name.value, type: TypeReference(value.type),
            defaultValue: value.defaultValue.map { print(ast: $0) }, description: value.description?.value)
    }

    /// `@deprecated`'s reason (its default when it gives none); `nil` when not deprecated.
    private static func deprecation(_ directives: [GraphQL.Directive]) -> String? {
        guard let deprecated = directives.first(where: { $0.name.value == "deprecated" }) else { return nil }
        guard let reason = deprecated.arguments.first(where: { $0.name.value == "reason" })?.value as? StringValue
        else { return "No longer supported" }
        return reason.value
    }

    /// The directives every schema has.
    static let builtInDirectives: [Directive] = [
        Directive(
            name: "skip",
            arguments: [Argument(name: "if", type: .nonNull(.named("Boolean")), defaultValue: nil, description: nil)],
            locations: ["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"],
            description: "Leaves this out when `if` is true."),
        Directive(
            name: "include",
            arguments: [Argument(name: "if", type: .nonNull(.named("Boolean")), defaultValue: nil, description: nil)],
            locations: ["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"],
            description: "Keeps this only when `if` is true."),
        Directive(
            name: "deprecated",
            arguments: [
                Argument(
                    name: "reason", type: .named("String"), defaultValue: "\"No longer supported\"", description: nil)
            ],
            locations: ["FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INPUT_FIELD_DEFINITION", "ENUM_VALUE"],
            description: nil),
        Directive(
            name: "specifiedBy",
            arguments: [Argument(name: "url", type: .nonNull(.named("String")), defaultValue: nil, description: nil)],
            locations: ["SCALAR"], description: nil),
        Directive(name: "oneOf", arguments: [], locations: ["INPUT_OBJECT"], description: nil),
    ]
}

/// What an operation does: reads, writes, or listens.
public enum OperationKind: String, Sendable, CaseIterable {
    case query, mutation, subscription
}
