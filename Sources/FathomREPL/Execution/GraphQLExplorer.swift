import FathomGraphQL
@_spi(Fathom) import FathomJSON

/// `ls` and `describe` over a GraphQL schema: the root fields, a type's fields (or an enum's
/// values, a union's members), one field's arguments — as listings, one row each.
struct GraphQLExplorer {
    let index: SchemaIndex

    /// `ls`: every root field, `query user(id: ID!)` → `User`; `ls TYPE`: that type's members.
    func list(_ typeName: String?) throws(CommandError) -> Listing {
        if let typeName { return try describe(typeName) }
        var items: [Listing.Item] = []
        for kind in OperationKind.allCases {
            guard let root = index.root(kind) else { continue }
            items += root.fields.filter { !$0.name.hasPrefix("__") }.map { field in
                row(field, prefix: kind.rawValue + " ")
            }
        }
        return Listing(kind: .schema, items: items, source: "the schema's root fields")
    }

    /// `describe User` (its fields, values or members) or `describe Query.user` (the field's
    /// type, arguments and description).
    func describe(_ name: String) throws(CommandError) -> Listing {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let type = try namedType(parts[0])
        guard parts.count == 2 else {
            var items: [Listing.Item]
            switch type.kind {
            case .enum:
                items = type.enumValues.map { value in
                    Listing.Item(name: value.name, detail: detail(value.description, value.deprecationReason))
                }
            case .union,
                .interface where type.fields.isEmpty:
                items = type.possibleTypes.sorted().map { Listing.Item(name: $0, value: "member") }
            case .scalar:
                items = []
            default:
                items = type.fields.map { row($0) }
            }
            let kind = type.kind == .inputObject ? "input" : type.kind.rawValue
            var heading = "\(kind) \(type.name)"
            if !type.interfaces.isEmpty { heading += " implements " + type.interfaces.joined(separator: " & ") }
            if type.kind == .interface || type.kind == .union {
                heading += " (" + type.possibleTypes.sorted().joined(separator: " | ") + ")"
            }
            if let description = type.description { heading += " — " + description }
            return Listing(kind: .schema, items: items, source: heading)
        }
        guard let field = type.field(parts[1]) else {
            throw CommandError(
                .session,
                .notFound(
                    kind: "field of \(type.name)", name: parts[1],
                    suggestion: Spelling.closest(to: parts[1], among: type.fields.map(\.name))),
                hint: "`describe \(type.name)` lists its fields")
        }
        var items = field.arguments.map { argument in
            Listing.Item(
                name: argument.name,
                value: argument.type.description + (argument.defaultValue.map { " = \($0)" } ?? ""),
                detail: argument.description)
        }
        items.insert(
            Listing.Item(
                name: "→", value: field.type.description, detail: detail(field.description, field.deprecationReason)),
            at: 0)
        return Listing(kind: .schema, items: items, source: "\(type.name).\(field.name)")
    }

    private func namedType(_ name: String) throws(CommandError) -> SchemaIndex.NamedType {
        if let type = index[name] { return type }
        let names = index.types.keys.filter { !$0.hasPrefix("__") }
        throw CommandError(
            .session, .notFound(kind: "type", name: name, suggestion: Spelling.closest(to: name, among: names)),
            hint: "`ls` lists the root fields")
    }

    private func row(_ field: SchemaIndex.Field, prefix: String = "") -> Listing.Item {
        let arguments =
            field.arguments.isEmpty
            ? "" : "(" + field.arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
        return Listing.Item(
            name: prefix + field.name + arguments, value: field.type.description,
            detail: detail(field.description, field.deprecationReason))
    }

    private func detail(_ description: String?, _ deprecation: String?) -> String? {
        let parts = [description, deprecation.map { "deprecated: \($0)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}

extension Executor {
    /// The GraphQL schema `ls` and `describe` read: the current API's, when the API has no
    /// OpenAPI description, or when it has both and `name` is a type of the schema (`describe
    /// User`, `ls Query`, `describe Query.user`) rather than an operation of the description.
    func graphQLExplorer(describing name: String? = nil) -> GraphQLExplorer? {
        guard let schema = session.currentAPI?.graphQL?.schema else { return nil }
        let explorer = GraphQLExplorer(index: schema.description.index)
        guard specAPIIndex() != nil || session.givenSpec != nil else { return explorer }
        guard let name, let type = name.split(separator: ".").first.map(String.init),
            schema.description.index[type] != nil,
            (try? requireSpec())?.description.operation(id: name) == nil
        else { return nil }
        return explorer
    }
}
