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
/// that name each other end.
struct ExternalReferences {
    /// The member of the root the other documents go under.
    static let member = "x-fathom-documents"
    /// How many documents one description may bring in.
    static let limit = 500

    typealias Fetch = @Sendable (URL) async throws -> Data

    private let name: String
    private let fetch: Fetch
    /// Documents by URL (without fragment), in the order first named; the root is the first.
    private var urls: [URL] = []
    private var documents: [URL: JSON] = [:]
    private var keys: [URL: String] = [:]

    /// The root with every document its `$ref`s reach, or the root unchanged when they name none.
    ///
    /// - Parameters:
    ///   - name: The root's name, for messages.
    ///   - location: Where the root was read from; relative references resolve against it.
    /// - Throws: ``DescriptionError`` naming the `$ref`, its place and why its document could not
    ///   be read.
    /// - Returns: The bundled tree, and the other documents read, by the keys they went under
    ///   (their paths from the root's folder, or URLs), in the order first named.
    static func bundle(
        _ root: JSON, name: String, location: URL, fetch: @escaping Fetch
    ) async throws(DescriptionError) -> (document: JSON, others: [String]) {
        var bundler = ExternalReferences(name: name, fetch: fetch)
        let document = try await bundler.bundle(root, location: location.absoluteURL.standardized.withoutFragment)
        return (document, bundler.urls.dropFirst().map { bundler.keys[$0]! })
    }

    private init(name: String, fetch: @escaping Fetch) {
        self.name = name
        self.fetch = fetch
    }

    private mutating func bundle(_ root: JSON, location: URL) async throws(DescriptionError) -> JSON {
        urls = [location]
        documents[location] = root
        keys[location] = ""
        // Breadth first: each document read is searched for the documents it names in turn.
        var next = 0
        while next < urls.count {
            let url = urls[next]
            next += 1
            for (reference, place) in Self.references(in: documents[url]!) {
                guard let target = Self.target(of: reference, from: url), documents[target] == nil else { continue }
                guard urls.count <= Self.limit else {
                    throw DescriptionError("\(name): its $refs reach more than \(Self.limit) documents")
                }
                let data: Data
                do {
                    data = try await fetch(target)
                } catch {
                    throw DescriptionError(
                        "\(name): cannot read \(Self.display(target, from: location)) (the $ref '\(reference)' at \(place)): \(Self.reason(error))"
                    )
                }
                let document = try DocumentText.parse(data, name: Self.display(target, from: location))
                urls.append(target)
                documents[target] = document
                keys[target] = uniqueKey(for: target)
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

    /// Every `$ref` in `document` that names another document, with its place as the document
    /// writes it (`paths./pets.get.parameters.0`).
    private static func references(in document: JSON) -> [(reference: String, place: String)] {
        var found: [(String, String)] = []
        var place: [String] = []
        func visit(_ value: JSON) {
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "$ref", case .string(let reference) = member.value {
                        if !reference.hasPrefix("#") {
                            found.append((reference, place.isEmpty ? "the top" : place.joined(separator: ".")))
                        }
                    } else {
                        place.append(member.key)
                        visit(member.value)
                        place.removeLast()
                    }
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    place.append(String(index))
                    visit(element)
                    place.removeLast()
                }
            default: break
            }
        }
        visit(document)
        return found
    }

    /// `document` (read from `url`) with each `$ref` that names a pointer turned into a pointer
    /// into the bundle.
    private func rewrite(_ value: JSON, in url: URL) -> JSON {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    if member.key == "$ref", case .string(let reference) = member.value {
                        return JSON.Member(key: member.key, value: .string(local(reference, in: url)))
                    }
                    return JSON.Member(key: member.key, value: rewrite(member.value, in: url))
                })
        case .array(let elements):
            return .array(elements.map { rewrite($0, in: url) })
        default:
            return value
        }
    }

    private func local(_ reference: String, in url: URL) -> String {
        let fragment = reference.firstIndex(of: "#").map { String(reference[reference.index(after: $0)...]) } ?? ""
        // Anchors (`#Pet`) are left to the validator; only JSON pointers are rewritten.
        guard let key = keys[Self.target(of: reference, from: url) ?? url], fragment.isEmpty || fragment.hasPrefix("/")
        else { return reference }
        let token = key.replacingOccurrences(of: "/", with: "~1")
        return "#" + (key.isEmpty ? "" : "/\(Self.member)/\(token)") + fragment
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
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw DescriptionError(FileManager.default.fileExists(atPath: url.path) ? "not readable" : "no such file")
        }
        return data
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
