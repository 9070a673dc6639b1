import GraphQL

/// A type as a field, argument or variable names it: a named type, a list of one, or either
/// made non-null (`[User!]!`).
public indirect enum TypeReference: Hashable, Sendable, CustomStringConvertible {
    case named(String)
    case list(TypeReference)
    case nonNull(TypeReference)

    /// The named type under the lists and non-nulls (`User` for `[User!]!`).
    public var namedType: String {
        switch self {
        case .named(let name): name
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    /// The type as GraphQL writes it.
    public var description: String {
        switch self {
        case .named(let name): name
        case .list(let inner): "[\(inner)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }

    /// Whether null is not a value of this type.
    public var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// The same type with null allowed (`Int` for `Int!`).
    var nullable: TypeReference {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    /// A type as a document writes it (`[User!]!`).
    init(_ type: any GraphQL.`Type`) {
        switch type {
        case let nonNull as NonNullType: self = .nonNull(TypeReference(nonNull.type))
        case let list as ListType: self = .list(TypeReference(list.type))
        case let named as NamedType: self = .named(named.name.value)
        default: self = .named("")
        }
    }

    /// A GraphQLSwift type as a reference; `nil` for a type it cannot name.
    init?(_ type: any GraphQLType) {
        if let nonNull = type as? GraphQLNonNull {
            guard let inner = TypeReference(nonNull.ofType) else { return nil }
            self = .nonNull(inner)
        } else if let list = type as? GraphQLList {
            guard let inner = TypeReference(list.ofType) else { return nil }
            self = .list(inner)
        } else if let named = type as? any GraphQLNamedType {
            self = .named(named.name)
        } else {
            return nil
        }
    }
}
