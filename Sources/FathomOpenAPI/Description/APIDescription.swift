import FathomJSON
import Foundation

/// An OpenAPI 3.0 or 3.1 description, loaded: what `ls`, `describe`, completion and the checks of
/// requests and responses read.
///
/// Loading parses the text once into FathomJSON values (YAML through Yams), checks the structure
/// with OpenAPIKit, and indexes paths and operations from the tree; schemas stay as the JSON they
/// are written in, and are read (and their `$ref`s followed) only when used.
///
/// ```swift
/// let api = try APIDescription(data: try Data(contentsOf: url), name: "petstore.yaml")
/// let operation = api.operation(method: "GET", path: "/pets/42")
/// let violations = api.validateResponse(status: 200, contentType: "application/json", body: json, for: operation!)
/// ```
public struct APIDescription: Sendable {
    /// The document as written, with the documents its `$ref`s name under `x-fathom-documents`
    /// (and those `$ref`s pointing there) when it was loaded with a location.
    public let document: JSON
    /// Where it came from, for messages: a file name or URL.
    public let name: String
    /// The other documents its `$ref`s named (and theirs), read with it: paths from its folder, or URLs, in the order
    /// first named.
    ///
    /// Empty for a description in one document.
    public let documents: [String]
    /// The `openapi` field: `3.0.3`, `3.1.0`….
    public let openAPIVersion: String
    /// `info.title`.
    public let title: String
    /// `info.version`.
    public let version: String
    /// The schema dialect its schemas are written in.
    public let dialect: SchemaDialect
    /// Server URLs with their variables at their defaults.
    public let servers: [String]
    /// Every operation, in the document's order.
    public let operations: [APIOperation]
    /// The path templates the description declares, in its order (some with no operations).
    public let paths: [String]
    let tree: PathTree
    let validator: SchemaValidator
    private let operationsByID: [String: Int]
    /// What the structure check reads: the root document as OpenAPIKit takes it, as JSON text.
    private let structureInput: StructureInput?

    /// Loads a description from its text (JSON or YAML).
    ///
    /// `$ref`s to other documents stay unresolved: ``init(data:name:location:checkStructure:fetch:)`` reads those.
    ///
    /// - Parameters:
    ///   - data: The description's text, JSON or YAML.
    ///   - name: The file name or URL, for messages.
    ///   - checkStructure: Whether OpenAPIKit checks the structure first (a missing `responses`,
    ///     a parameter without `in`…); the index needs only what it reads.
    /// - Throws: ``DescriptionError`` naming the place: `paths./pets.get.responses: …`.
    public init(data: Data, name: String, checkStructure: Bool = true) throws(DescriptionError) {
        let (document, version, dialect, input) = try Self.read(data, name: name)
        let inlined = ExternalReferences.inliningOperations(in: document)
        try self.init(
            document: inlined ?? document, name: name, version: version, dialect: dialect,
            structureInput: inlined.map { StructureInput(document: $0, text: nil) } ?? input)
        if checkStructure { try throwFirstStructureProblem() }
    }

    /// Loads a description from its text and the documents its `$ref`s name
    /// (`schemas/pet.yaml`, `common.yaml#/components/parameters/Limit`), each resolved against
    /// the document that names it.
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "api/openapi.yaml")
    /// let api = try await APIDescription(data: try Data(contentsOf: url), name: "openapi.yaml", location: url)
    /// ```
    ///
    /// - Parameters:
    ///   - data: The description's text, JSON or YAML.
    ///   - name: The file name or URL, for messages.
    ///   - location: Where `data` was read from.
    ///   - checkStructure: Whether OpenAPIKit checks the structure first.
    ///   - fetch: Reads another document; by default `file:` URLs are read and others refused.
    ///   - documentLimit: How many documents, this one's too, its `$ref`s may bring in (a bound on
    ///     the work a description can ask for); ``defaultDocumentLimit`` unless given.
    /// - Throws: ``DescriptionError``; one for a document that cannot be read names the `$ref`
    ///   and its place.
    public init(
        data: Data, name: String, location: URL, checkStructure: Bool = true,
        fetch: (@Sendable (URL) async throws -> Data)? = nil, documentLimit: Int = defaultDocumentLimit
    ) async throws(DescriptionError) {
        let (document, version, dialect, input) = try Self.read(data, name: name)
        let bundled = try await ExternalReferences.bundle(
            document, name: name, location: location, fetch: fetch ?? ExternalReferences.readFile,
            limit: documentLimit)
        // Operations by `$ref` read as operations, by every reader; the structure check then
        // checks them where they are used (other documents' parts only where the root names them).
        let inlined = ExternalReferences.inliningOperations(in: bundled.document)
        try self.init(
            document: inlined ?? bundled.document, name: name, version: version, dialect: dialect,
            documents: bundled.others,
            structureInput: inlined.map { StructureInput(document: $0, text: nil) } ?? input)
        if checkStructure { try throwFirstStructureProblem() }
    }

    /// How many documents a description's `$ref`s may bring in unless told otherwise: DigitalOcean's
    /// split description (2,850 files) fits with room.
    public static let defaultDocumentLimit = 10_000

    /// What OpenAPIKit's structure check finds in the description.
    ///
    /// Every problem, in the document's order; empty when there is none. The description loads
    /// all the same — these are what `spec problems` lists. It takes most of a load's time on a
    /// large description (a second for GitHub's): run it off the path that needs the description
    /// now.
    public func structureProblems() -> [DescriptionProblem] {
        structureInput?.problems(dialect: dialect) ?? []
    }

    private func throwFirstStructureProblem() throws(DescriptionError) {
        if let problem = structureProblems().first {
            throw DescriptionError("\(name): \(problem)", isStructural: true)
        }
    }

    /// The parsed text, its `openapi` version, its schema dialect, and what the structure check reads.
    private static func read(
        _ data: Data, name: String
    ) throws(DescriptionError) -> (
        JSON, String, SchemaDialect, StructureInput
    ) {
        let (document, wasJSON) = try DocumentText.read(data, name: name)
        guard case .object = document else {
            throw DescriptionError("\(name) is not an OpenAPI description: not an object")
        }
        if let swagger = document["swagger"]?.string {
            throw DescriptionError(
                "\(name) is a Swagger \(swagger) description: Fathom reads OpenAPI 3.0 and 3.1 — convert it first (swagger2openapi, or editor.swagger.io)"
            )
        }
        guard let version = document["openapi"]?.string else {
            throw DescriptionError("\(name) is not an OpenAPI description: it has no `openapi` field")
        }
        let dialect: SchemaDialect
        if version.hasPrefix("3.0") {
            dialect = .openAPI30
        } else if version.hasPrefix("3.1") || version.hasPrefix("3.2") {
            dialect = .draft2020_12
        } else {
            throw DescriptionError("\(name): OpenAPI '\(version)' is not read here — Fathom reads 3.0 and 3.1")
        }
        // The text as given when it is JSON; YAML is printed as JSON for OpenAPIKit's decoder when
        // the check runs, and so is a 3.1 document with boolean schemas, written as the objects
        // OpenAPIKit reads.
        let text = wasJSON && !data.starts(with: [0xEF, 0xBB, 0xBF]) ? data : nil
        return (document, version, dialect, StructureInput(document: document, text: text))
    }

    init(
        document: JSON, name: String, version: String, dialect: SchemaDialect, documents: [String] = [],
        structureInput: StructureInput? = nil
    ) throws(DescriptionError) {
        self.structureInput = structureInput
        self.document = document
        self.documents = documents
        self.name = name
        self.openAPIVersion = version
        self.dialect = dialect
        self.title = document["info"]?["title"]?.string ?? name
        self.version = document["info"]?["version"]?.string ?? ""
        self.servers = Self.servers(document["servers"])
        let operations = try Self.operations(in: document, name: name)
        self.operations = operations
        var byID: [String: Int] = [:]
        for (index, operation) in operations.enumerated() {
            if let id = operation.operationID, byID[id] == nil { byID[id] = index }
        }
        self.operationsByID = byID
        var declared: [String] = []
        if case .object(let members)? = document["paths"] { declared = members.map(\.key) }
        self.paths = declared
        self.tree = PathTree(paths: declared, operations: operations)
        self.validator = SchemaValidator(schema: document, baseURI: "", dialect: dialect)
    }

    private static func servers(_ value: JSON?) -> [String] {
        guard case .array(let servers)? = value else { return [] }
        return servers.compactMap { server in
            guard var url = server["url"]?.string else { return nil }
            if case .object(let variables)? = server["variables"] {
                for variable in variables {
                    let value = variable.value["default"]?.string ?? variable.value["enum"]?[0]?.string ?? ""
                    url = url.replacingOccurrences(of: "{\(variable.key)}", with: value)
                }
            }
            return url
        }
    }

    // MARK: - Looking up

    /// The operation with this `operationId`.
    public func operation(id: String) -> APIOperation? {
        operationsByID[id].map { operations[$0] }
    }

    /// Every `operationId`, in the document's order.
    public var operationIDs: [String] { operations.compactMap(\.operationID) }

    /// The operation a request goes to.
    ///
    /// `path` is the request's path below the API's base (`/pets/42` for `/pets/{petId}`). The
    /// most specific template wins, whatever the order the document declares them in: at the
    /// first segment where two differ, a literal segment before a template, and a template with
    /// literal text (`{id}.json`) before a bare one (`{id}`).
    public func operation(method: String, path: String) -> APIOperation? {
        let segments = PathTree.segments(of: path)
        var best: (operation: APIOperation, ranks: [Int])?
        for operation in operations where operation.method == method.uppercased() {
            guard let ranks = PathTree.match(operation.pathSegments, segments) else { continue }
            if best == nil || best!.ranks.lexicographicallyPrecedes(ranks) { best = (operation, ranks) }
        }
        return best?.operation
    }

    /// `path` below the API's base: a server's path (`/v1`) or `basePath` taken off the front
    /// when it is there.
    public func relativePath(_ path: String, basePath: String? = nil) -> String {
        let prefixes = ([basePath].compactMap { $0 } + servers.map(Self.path(of:)))
            .map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            .filter { !$0.isEmpty }
            .sorted { $0.count > $1.count }
        for prefix in prefixes where path == prefix || path.hasPrefix(prefix + "/") {
            let rest = String(path.dropFirst(prefix.count))
            // Only when what is left names something the description has.
            if tree.node(at: PathTree.segments(of: rest)) != nil { return rest.isEmpty ? "/" : rest }
        }
        return path
    }

    /// The path part of a server URL (`/v1` from `https://api.example.com/v1`).
    static func path(of server: String) -> String {
        guard let scheme = server.range(of: "://") else { return server }
        let rest = server[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "" }
        return String(rest[slash...])
    }

    /// Follows `$ref`s to a local component (parameters, request bodies, responses…).
    func resolved(_ value: JSON?) -> JSON? { Self.resolved(value, in: document) }

    static func resolved(_ value: JSON?, in document: JSON) -> JSON? {
        var current = value
        var hops = 0
        while let reference = current?["$ref"]?.string, hops < 32 {
            current = pointer(reference, in: document)
            hops += 1
        }
        return current
    }

    /// A local reference (`#/components/schemas/Pet`, `#` for the whole) in `document`; `nil`
    /// for an anchor (`#Pet`) or another document's reference.
    static func pointer(_ reference: String, in document: JSON) -> JSON? {
        guard reference.hasPrefix("#") else { return nil }
        let fragment = String(reference.dropFirst())
        guard let pointer = try? JSONPointer(parsing: fragment.removingPercentEncoding ?? fragment) else { return nil }
        return document.value(at: pointer)
    }
}
