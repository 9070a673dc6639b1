import FathomJSON
import Foundation

/// A schema and the base URI its relative references resolve against.
struct LocatedSchema {
    var schema: JSON
    var base: String
}

/// Every schema resource a validation can reach, by absolute URI: the root document, the resources embedded in it with
/// `$id` (`id` in draft 4), their `$anchor`s and `$dynamicAnchor`s, and any other documents given (what `refRemote`
/// fetches).
///
/// Built once; read-only after.
struct SchemaRegistry: Sendable {
    let dialect: SchemaDialect
    /// Each resource by its URI, located at the base *around* it: evaluating it applies its own `$id`.
    private(set) var resources: [String: LocatedSchema] = [:]
    private(set) var anchors: [String: LocatedSchema] = [:]
    /// Per resource, the names of its `$dynamicAnchor`s.
    private(set) var dynamicAnchors: [String: Set<String>] = [:]

    init(root: JSON, base: String, documents: [String: JSON], dialect: SchemaDialect) {
        self.dialect = dialect
        register(root, base: SchemaURI.stripFragment(base), isResource: true)
        for (uri, document) in documents.sorted(by: { $0.key < $1.key }) {
            register(document, base: SchemaURI.stripFragment(uri), isResource: true)
        }
    }

    // MARK: - Building

    private mutating func register(_ schema: JSON, base: String, isResource: Bool) {
        if isResource, resources[base] == nil { resources[base] = LocatedSchema(schema: schema, base: base) }
        guard case .object = schema else { return }
        if dialect.refOverridesSiblings, schema["$ref"] != nil { return }
        // Anchors and resources are located at the base around them, as a pointer lands on them.
        let around = base
        var base = base
        if case .string(let id)? = schema[dialect.idKeyword] {
            if dialect == .draft2020_12 || !id.hasPrefix("#") {
                let resolved = SchemaURI.resolve(id, against: base)
                let (document, fragment) = SchemaURI.split(resolved)
                base = document
                resources[document] = LocatedSchema(schema: schema, base: around)
                if let fragment, !fragment.isEmpty, !fragment.hasPrefix("/") {
                    anchors[document + "#" + fragment] = LocatedSchema(schema: schema, base: around)
                }
            } else {
                anchors[SchemaURI.stripFragment(base) + id] = LocatedSchema(schema: schema, base: around)
            }
        }
        if dialect == .draft2020_12 {
            if case .string(let anchor)? = schema["$anchor"] {
                anchors[base + "#" + anchor] = LocatedSchema(schema: schema, base: around)
            }
            if case .string(let anchor)? = schema["$dynamicAnchor"] {
                anchors[base + "#" + anchor] = LocatedSchema(schema: schema, base: around)
                dynamicAnchors[base, default: []].insert(anchor)
            }
        }
        for child in Self.subschemas(of: schema, dialect: dialect) {
            register(child, base: base, isResource: false)
        }
    }

    /// The subschemas of `schema` in the places the dialect reads schemas (never inside `enum`,
    /// `const`, `default` or `examples`, which hold instances).
    static func subschemas(of schema: JSON, dialect: SchemaDialect) -> [JSON] {
        guard case .object(let members) = schema else { return [] }
        var found: [JSON] = []
        for member in members {
            switch member.key {
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
                if case .object(let children) = member.value { found += children.map(\.value) }
            case "dependencies":
                if case .object(let children) = member.value {
                    found += children.map(\.value).filter { if case .array = $0 { false } else { true } }
                }
            case "items", "additionalItems":
                if case .array(let children) = member.value { found += children } else { found.append(member.value) }
            case "prefixItems", "allOf", "anyOf", "oneOf":
                if case .array(let children) = member.value { found += children }
            case "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
                "unevaluatedItems", "unevaluatedProperties":
                found.append(member.value)
            default: continue
            }
        }
        return found
    }

    // MARK: - Resolving

    /// The schema `reference` names, relative to `base`; `nil` when nothing here has that URI.
    func resolve(_ reference: String, base: String) -> LocatedSchema? {
        let uri = SchemaURI.resolve(reference, against: base)
        let (document, fragment) = SchemaURI.split(uri)
        guard let fragment, !fragment.isEmpty else { return resources[document] }
        if fragment.hasPrefix("/") {
            guard let root = resources[document] else { return nil }
            return pointer(fragment, in: root.schema, base: root.base)
        }
        return anchors[document + "#" + fragment]
    }

    /// Walks a JSON pointer (percent-decoded, `~1`/`~0` unescaped), following the base URI through
    /// the resources it passes.
    private func pointer(_ fragment: String, in root: JSON, base: String) -> LocatedSchema? {
        var current = root
        var base = base
        guard let pointer = try? JSONPointer(parsing: fragment.removingPercentEncoding ?? fragment) else { return nil }
        for key in pointer.tokens {
            // Leaving a schema for one inside it: its `$id` is the base there.
            if case .string(let id)? = current[dialect.idKeyword], !id.hasPrefix("#") {
                base = SchemaURI.stripFragment(SchemaURI.resolve(id, against: base))
            }
            switch current {
            case .object:
                guard let next = current[key] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return LocatedSchema(schema: current, base: base)
    }

    /// Whether the resource at `base` declares `$dynamicAnchor: name`.
    func hasDynamicAnchor(_ name: String, in base: String) -> Bool {
        dynamicAnchors[base]?.contains(name) ?? false
    }
}

/// URI references as RFC 3986 resolves them, enough for schema identifiers: absolute URIs, URNs,
/// fragments, and paths relative to an http(s) or file base.
enum SchemaURI {
    static func split(_ uri: String) -> (String, String?) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, nil) }
        return (String(uri[..<hash]), String(uri[uri.index(after: hash)...]))
    }

    static func stripFragment(_ uri: String) -> String { split(uri).0 }

    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isLetter && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    static func resolve(_ reference: String, against base: String) -> String {
        if reference.isEmpty { return base }
        if hasScheme(reference) { return reference }
        if reference.hasPrefix("#") { return stripFragment(base) + reference }
        if base.isEmpty { return reference }
        let document = stripFragment(base)
        if document.hasPrefix("urn:") { return reference }
        guard let baseURL = URL(string: document), let resolved = URL(string: reference, relativeTo: baseURL) else {
            return reference
        }
        return resolved.absoluteString
    }
}
