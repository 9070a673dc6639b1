import FathomJSON

/// OpenAPI 3.1's schemas are JSON Schema 2020-12, where `true` and `false` are schemas (anything; nothing).
///
/// OpenAPIKit 6 refuses them in some places — a property, `not`, an `allOf` entry, `$defs`, `components.schemas` — so
/// the copy its structure check reads has each written as the object schema that means the same: `{}` for `true`,
/// `{"not": {}}` for `false`. Fathom's own index and validator read the document as written.
enum BooleanSchemas {
    /// The document with boolean schemas as objects, or `nil` when it has none.
    static func asObjects(in document: JSON) -> JSON? {
        var changed = false
        let result = walk(document, inComponents: false, changed: &changed)
        return changed ? result : nil
    }

    /// Keywords whose value is one schema.
    private static let single: Set<String> = [
        "items", "additionalItems", "additionalProperties", "not", "contains", "if", "then", "else",
        "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    ]
    /// Keywords whose value maps names to schemas (``ExternalReferences`` reads them as names too).
    static let named: Set<String> = [
        "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
    ]
    /// Keywords whose value is a list of schemas.
    private static let listed: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]

    /// Outside schemas: a `schema` member is one (parameters, headers, media types), and so is each
    /// member of `components.schemas`.
    private static func walk(_ value: JSON, inComponents: Bool, changed: inout Bool) -> JSON {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    let value: JSON
                    if member.key == "schema" {
                        value = schema(member.value, changed: &changed)
                    } else if inComponents, member.key == "schemas" {
                        value = each(member.value, changed: &changed)
                    } else {
                        value = walk(member.value, inComponents: member.key == "components", changed: &changed)
                    }
                    return JSON.Member(key: member.key, value: value)
                })
        case .array(let elements):
            return .array(elements.map { walk($0, inComponents: false, changed: &changed) })
        default:
            return value
        }
    }

    private static func schema(_ value: JSON, changed: inout Bool) -> JSON {
        switch value {
        case .bool(let flag):
            changed = true
            return flag ? .object([]) : .object([JSON.Member(key: "not", value: .object([]))])
        case .object(let members):
            return .object(
                members.map { member in
                    let key = member.key
                    let value: JSON
                    if single.contains(key) {
                        value = schema(member.value, changed: &changed)
                    } else if named.contains(key) {
                        value = each(member.value, changed: &changed)
                    } else if listed.contains(key), case .array(let elements) = member.value {
                        value = .array(elements.map { schema($0, changed: &changed) })
                    } else {
                        value = member.value
                    }
                    return JSON.Member(key: key, value: value)
                })
        default:
            return value
        }
    }

    /// Each member's value of a name-to-schema map.
    private static func each(_ value: JSON, changed: inout Bool) -> JSON {
        guard case .object(let members) = value else { return value }
        return .object(members.map { JSON.Member(key: $0.key, value: schema($0.value, changed: &changed)) })
    }
}
