import FathomJSON
import Foundation

/// Brings the documents a description's `$ref`s name (`schemas/pet.yaml`,
/// `common.yaml#/components/parameters/Limit`, an `https://` URL) into one tree, so the index,
/// the validator, summaries and examples read them as they read the description's own
/// components.
///
/// Each other document goes in whole under `x-fathom-documents/<its path>`, and every `$ref`
/// in every document is rewritten to a local pointer: `schemas/pet.yaml#/Pet` becomes
/// `#/x-fathom-documents/schemas~1pet.yaml/Pet`, and a `#/…` written inside `pet.yaml` keeps pointing
/// into `pet.yaml`. Each document is read once, however many `$ref`s name it, and documents
/// that name each other end. A `$ref` key in data (an example, a default, an enum, a const, an
/// Example Object's `value`) is data: it is neither read nor rewritten.
struct ExternalReferences {
    /// The member of the root the other documents go under.
    static let member = "x-fathom-documents"

    typealias Fetch = @Sendable (URL) async throws -> Data

    private let name: String
    private let fetch: Fetch
    private let limit: Int
    /// Documents by URL (without fragment), in the order first named; the root is the first.
    private var urls: [URL] = []
    private var documents: [URL: JSON] = [:]
    private var keys: [URL: String] = [:]

    /// The root with every document its `$ref`s reach, or the root unchanged when they name none.
    ///
    /// - Parameters:
    ///   - root: The root document.
    ///   - name: The root's name, for messages.
    ///   - location: Where the root was read from; relative references resolve against it.
    ///   - fetch: Reads a document by URL.
    ///   - limit: How many documents, the root's too, the description may bring in.
    /// - Throws: ``DescriptionError`` naming the `$ref`, its place and why its document could not
    ///   be read.
    /// - Returns: The bundled tree, and the other documents read, by the keys they went under
    ///   (their paths from the root's folder, or URLs), in the order first named.
    static func bundle(
        _ root: JSON, name: String, location: URL, fetch: @escaping Fetch,
        limit: Int = APIDescription.defaultDocumentLimit
    ) async throws(DescriptionError) -> (document: JSON, others: [String]) {
        var bundler = ExternalReferences(name: name, fetch: fetch, limit: limit)
        let document = try await bundler.bundle(root, location: location.absoluteURL.standardized.withoutFragment)
        return (document, bundler.urls.dropFirst().map { bundler.keys[$0]! })
    }

    private init(name: String, fetch: @escaping Fetch, limit: Int) {
        self.name = name
        self.fetch = fetch
        self.limit = limit
    }

    private mutating func bundle(_ root: JSON, location: URL) async throws(DescriptionError) -> JSON {
        urls = [location]
        documents[location] = root
        keys[location] = ""
        // The root is searched whole; another document only where `$ref`s point into it, each
        // part read as the place that names it says (an Example Object's `value` is data there).
        var parts: [(url: URL, fragment: String, members: Members)] = [(location, "", .keywords)]
        var searched: Set<String> = []
        var next = 0
        while next < parts.count {
            let part = parts[next]
            next += 1
            guard searched.insert("\(part.members) \(part.url.absoluteString)#\(part.fragment)").inserted,
                let node = APIDescription.pointer("#" + part.fragment, in: documents[part.url]!)
            else { continue }
            let file = part.url == location ? "" : " in \(Self.display(part.url, from: location))"
            let start = (try? JSONPointer(parsing: part.fragment))?.tokens ?? []
            for found in Self.references(in: node, members: part.members, place: start) {
                let fragment =
                    found.reference.firstIndex(of: "#").map {
                        String(found.reference[found.reference.index(after: $0)...])
                    } ?? ""
                guard let target = Self.target(of: found.reference, from: part.url) else {
                    // Within this document: the root is searched whole already.
                    if part.url != location { parts.append((part.url, fragment, found.members)) }
                    continue
                }
                if documents[target] == nil {
                    guard urls.count < limit else {
                        throw DescriptionError(
                            "\(name): its $refs reach more than \(limit) documents (`spec --max-documents N` allows more)"
                        )
                    }
                    let data: Data
                    do {
                        data = try await fetch(target)
                    } catch {
                        throw DescriptionError(
                            "\(name): cannot read \(Self.display(target, from: location)) (the $ref '\(found.reference)' at \(found.place)\(file)): \(Self.reason(error))"
                        )
                    }
                    documents[target] = try DocumentText.parse(data, name: Self.display(target, from: location))
                    urls.append(target)
                    keys[target] = uniqueKey(for: target)
                }
                if target != location { parts.append((target, fragment, found.members)) }
            }
        }
        guard urls.count > 1 else { return root }
        let others = urls.dropFirst().map { url in
            JSON.Member(key: keys[url]!, value: rewrite(documents[url]!, in: url))
        }
        guard case .object(var members) = rewrite(root, in: location) else { return root }
        members.append(JSON.Member(key: Self.member, value: .object(others)))
        return .object(members)
    }

    /// `document` with each operation written as a `$ref` (`get: {$ref: ops/list.yaml}`, as
    /// DigitalOcean's description and Redocly's bundler write them) replaced by the operation it
    /// names, in the root's `paths` and `webhooks`; `nil` when it has none.
    ///
    /// OpenAPI has no Reference Object for an operation, so every reader (the index, the
    /// validator, OpenAPIKit's structure check) would see an empty one. Call it on a bundled
    /// document: every `$ref` there is a pointer into the bundle, so an operation moved out of
    /// its file keeps meaning what it did.
    static func inliningOperations(in document: JSON) -> JSON? {
        guard case .object(var members) = document else { return nil }
        var changed = false
        for index in members.indices where ["paths", "webhooks"].contains(members[index].key) {
            guard case .object(var items) = members[index].value else { continue }
            for item in items.indices {
                guard let pathItem = APIDescription.resolved(items[item].value, in: document),
                    case .object(var fields) = pathItem,
                    fields.contains(where: { APIDescription.methods.contains($0.key) && $0.value["$ref"] != nil })
                else { continue }
                for field in fields.indices where APIDescription.methods.contains(fields[field].key) {
                    if let operation = APIDescription.resolved(fields[field].value, in: document) {
                        fields[field].value = operation
                    }
                }
                items[item].value = .object(fields)
                changed = true
            }
            members[index].value = .object(items)
        }
        return changed ? .object(members) : nil
    }

    /// Whether a discriminator's mapping value is a reference (`#/components/schemas/Dog`,
    /// `schemas/dog.yaml`) rather than a schema's name (`Dog`).
    static func isMappingReference(_ value: String) -> Bool {
        value.contains("#") || value.contains("/") || [".json", ".yaml", ".yml"].contains { value.hasSuffix($0) }
    }

    /// The document a `$ref` written in `base` names, when it is another one.
    private static func target(of reference: String, from base: URL) -> URL? {
        let document = String(reference.prefix { $0 != "#" })
        guard !document.isEmpty else { return nil }
        let url =
            URL(string: document, relativeTo: base)
            ?? document.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed).flatMap {
                URL(string: $0, relativeTo: base)
            }
        return url?.absoluteURL.standardized.withoutFragment
    }

    /// What an object's members are, for the walks below: keywords (where `example`, `default`,
    /// `enum` and `const` hold data, whose `$ref` keys are data too), names (`properties`,
    /// `responses`… where a member may be called `default` and still hold a schema or a
    /// response), or an Example Object's, whose `value` is data.
    enum Members {
        case keywords, names, example

        /// Members whose values are maps from names (when they are objects).
        private static let nameMaps: Set<String> = BooleanSchemas.named.union([
            "paths", "webhooks", "schemas", "responses", "parameters", "requestBodies", "headers",
            "securitySchemes", "links", "callbacks", "pathItems", "content", "encoding",
        ])
        private static let data: Set<String> = ["example", "default", "enum", "const"]

        /// How the value of `key`, a member of an object of keywords or an Example Object, is
        /// read; `nil` when it is data, with no `$ref` to follow.
        func child(_ key: String, _ value: JSON) -> Members? {
            let isObject = if case .object = value { true } else { false }
            if self == .example { return key == "value" ? nil : .keywords }
            if Self.data.contains(key) { return nil }
            // `examples`: Example Objects by name, or (in a schema) a list of values.
            if key == "examples" { return isObject ? .names : nil }
            return isObject && Self.nameMaps.contains(key) ? .names : .keywords
        }

        /// How each value of a name map is read: an Example Object in an `examples` map.
        func entries(under key: String) -> Members { key == "examples" ? .example : .keywords }
    }

    /// Every `$ref` under `node` (read as `members`), with its place as the document writes it
    /// (`paths./pets.get.parameters.0`) and how the object it stands for is read.
    private static func references(
        in node: JSON, members first: Members, place start: [String]
    ) -> [(
        reference: String, place: String, members: Members
    )] {
        var found: [(String, String, Members)] = []
        var place = start
        func visit(_ value: JSON, _ members: Members, _ key: String) {
            switch value {
            case .object(let fields):
                for field in fields {
                    if members != .names, field.key == "$ref", case .string(let reference) = field.value {
                        found.append((reference, place.isEmpty ? "the top" : place.joined(separator: "."), members))
                        continue
                    }
                    if key == "discriminator", field.key == "mapping", case .object(let mapping) = field.value {
                        for entry in mapping {
                            guard case .string(let reference) = entry.value, Self.isMappingReference(reference) else {
                                continue
                            }
                            found.append(
                                (reference, (place + ["mapping", entry.key]).joined(separator: "."), .keywords))
                        }
                        continue
                    }
                    let inner = members == .names ? members.entries(under: key) : members.child(field.key, field.value)
                    guard let inner else { continue }
                    place.append(field.key)
                    visit(field.value, inner, field.key)
                    place.removeLast()
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    place.append(String(index))
                    visit(element, .keywords, key)
                    place.removeLast()
                }
            default: break
            }
        }
        visit(node, first, start.last ?? "")
        return found
    }

    /// `document` (read from `url`) with each `$ref` that names a pointer turned into a pointer
    /// into the bundle.
    private func rewrite(_ value: JSON, in url: URL, _ members: Members = .keywords, _ key: String = "") -> JSON {
        switch value {
        case .object(let fields):
            return .object(
                fields.map { field in
                    if members != .names, field.key == "$ref", case .string(let reference) = field.value {
                        return JSON.Member(key: field.key, value: .string(local(reference, in: url)))
                    }
                    if key == "discriminator", field.key == "mapping", case .object(let mapping) = field.value {
                        return JSON.Member(
                            key: field.key,
                            value: .object(
                                mapping.map { entry in
                                    guard case .string(let reference) = entry.value, Self.isMappingReference(reference)
                                    else { return entry }
                                    return JSON.Member(key: entry.key, value: .string(local(reference, in: url)))
                                }))
                    }
                    let inner = members == .names ? members.entries(under: key) : members.child(field.key, field.value)
                    guard let inner else { return field }
                    return JSON.Member(key: field.key, value: rewrite(field.value, in: url, inner, field.key))
                })
        case .array(let elements):
            return .array(elements.map { rewrite($0, in: url, .keywords, key) })
        default:
            return value
        }
    }

    private func local(_ reference: String, in url: URL) -> String {
        let fragment = reference.firstIndex(of: "#").map { String(reference[reference.index(after: $0)...]) } ?? ""
        // Anchors (`#Pet`) are left to the validator; only JSON pointers are rewritten.
        guard let key = keys[Self.target(of: reference, from: url) ?? url], fragment.isEmpty || fragment.hasPrefix("/")
        else { return reference }
        return "#" + (key.isEmpty ? "" : JSONPointer(tokens: [Self.member, key]).description) + fragment
    }

    /// A key for `url` under ``member``: its path from the root's folder (`schemas/pet.yaml`),
    /// made plain (no `~` or `%`), numbered when another document has it already.
    private func uniqueKey(for url: URL) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/")
        var base = String(Self.display(url, from: urls[0]).map { allowed.contains($0) ? $0 : "_" })
        base = base.split(separator: "/").joined(separator: "/")  // no empty segments
        if base.isEmpty { base = "document" }
        let taken = Set(keys.values)
        var key = base
        var number = 2
        while taken.contains(key) {
            key = "\(base)-\(number)"
            number += 1
        }
        return key
    }

    /// A document by its path from the root's folder when it lies under it (a file, or a URL on
    /// the same server), else by its whole path or URL.
    private static func display(_ url: URL, from root: URL) -> String {
        let folder = root.deletingLastPathComponent().absoluteString
        let text = url.absoluteString
        if text.hasPrefix(folder), text.count > folder.count {
            let relative = String(text.dropFirst(folder.count))
            return relative.removingPercentEncoding ?? relative
        }
        return url.isFileURL ? url.path : text
    }

    private static func reason(_ error: any Error) -> String {
        (error as? DescriptionError)?.message ?? "\(error)"
    }

    /// Reads a `file:` URL; the fetch ``APIDescription/load(contentsOf:name:checkStructure:fetch:)``
    /// uses by default.
    static let readFile: Fetch = { url in
        guard url.isFileURL else { throw DescriptionError("only files are read here, not \(url.absoluteString)") }
        return try DescriptionFile.read(url.path)
    }
}

extension URL {
    fileprivate var withoutFragment: URL {
        guard fragment != nil, var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return self
        }
        components.fragment = nil
        return components.url ?? self
    }
}
