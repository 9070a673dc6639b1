import FathomJSON

/// One operation of a description: a method on a path, with what it takes and returns.
///
/// Schemas are the JSON as written (with their `$ref`s); the description resolves them when used.
public struct APIOperation: Sendable, Hashable {
    /// Upper case: `GET`.
    public var method: String
    /// The path template: `/pets/{petId}`.
    public var path: String
    /// `operationId`, if the operation has one.
    public var operationID: String?
    /// `summary`.
    public var summary: String?
    /// `description`.
    public var description: String?
    /// Whether the operation is deprecated.
    public var deprecated: Bool
    /// Path-level and operation-level parameters, the operation's winning on the same name and place.
    public var parameters: [Parameter]
    /// What the operation takes as a body, if it takes one.
    public var requestBody: RequestBody?
    /// By status as written: `200`, `4XX`, `default`.
    public var responses: [Response]
    /// Each alternative lists the security schemes it needs together; `nil` when the operation
    /// says nothing (the document's default applies).
    public var security: [[String]]?
    /// Where it is in the document, for messages: `paths./pets.get`.
    public var location: String

    var pathSegments: [String]

    /// `GET /pets/{petId}`.
    public var title: String { "\(method) \(path)" }

    /// A parameter of the operation (its path item's merged in).
    public struct Parameter: Sendable, Hashable {
        /// Where a parameter goes.
        public enum Location: String, Sendable, Hashable {
            case path, query, header, cookie
        }

        /// The parameter's name.
        public var name: String
        /// Where it goes.
        public var location: Location
        /// Whether a request must give it (a path parameter always must).
        public var required: Bool
        /// Its schema, if it has one.
        public var schema: JSON?
        /// `description`.
        public var description: String?
        /// Whether it is deprecated.
        public var deprecated: Bool
        /// Its example, if it has one.
        public var example: JSON?
    }

    /// The body an operation takes.
    public struct RequestBody: Sendable, Hashable {
        /// Whether a request must carry it.
        public var required: Bool
        /// `description`.
        public var description: String?
        /// What it may be, one per media type.
        public var content: [MediaType]
    }

    /// A response an operation declares.
    public struct Response: Sendable, Hashable {
        /// The status as declared: `200`, `4XX` or `default`.
        public var status: String
        /// `description`.
        public var description: String?
        /// What it may be, one per media type.
        public var content: [MediaType]
    }

    /// A media type of a body and its schema.
    public struct MediaType: Sendable, Hashable {
        /// `application/json`, `application/*+json`, `*/*`….
        public var name: String
        /// The schema, if it has one.
        public var schema: JSON?
        /// OpenAPI 3.2's schema of each item of a sequential media type: each server-sent
        /// event (`{event, data, id, retry}`), each line of JSON Lines, each record of a JSON
        /// sequence.
        public var itemSchema: JSON?
        /// `example`, or the first of `examples`.
        public var example: JSON?

        /// A media type; see the properties.
        public init(name: String, schema: JSON? = nil, itemSchema: JSON? = nil, example: JSON? = nil) {
            self.name = name
            self.schema = schema
            self.itemSchema = itemSchema
            self.example = example
        }

        /// ``name``'s type and subtype, lowercased, without parameters (`application/json`).
        public var essence: String { APIOperation.essence(of: name) }
    }

    /// The media type that fits `contentType` best: exact, then `type/*`, then `*/*`.
    ///
    /// Types are compared by type and subtype only, case-insensitively, as RFC 9110 compares them:
    /// parameters (`; charset=utf-8`) on either side are not part of the match.
    public static func mediaType(_ contentType: String?, in content: [MediaType]) -> MediaType? {
        guard let contentType else { return content.first }
        let essence = Self.essence(of: contentType)
        if let exact = content.first(where: { $0.essence == essence }) { return exact }
        let type = essence.split(separator: "/").first.map(String.init) ?? ""
        if let wildcard = content.first(where: { $0.essence == "\(type)/*" }) { return wildcard }
        if essence.hasSuffix("+json") || essence == "application/json",
            let json = content.first(where: { $0.essence.hasSuffix("json") })
        {
            return json
        }
        return content.first { $0.essence == "*/*" }
    }

    /// `type/subtype` of a media type, lowercased, without parameters:
    /// `Application/JSON; charset=utf-8` → `application/json`.
    public static func essence(of mediaType: String) -> String {
        let type = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The response declared for `status`: exact, then its class (`4XX`), then `default`.
    public func response(for status: Int) -> Response? {
        let exact = String(status)
        if let found = responses.first(where: { $0.status == exact }) { return found }
        let range = "\(status / 100)XX"
        if let found = responses.first(where: { $0.status.uppercased() == range }) { return found }
        return responses.first { $0.status == "default" }
    }
}

extension APIDescription {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    static func operations(in document: JSON, name: String) throws(DescriptionError) -> [APIOperation] {
        guard let paths = document["paths"] else { return [] }
        guard case .object(let items) = paths else { throw DescriptionError("\(name): paths: expected an object") }
        var operations: [APIOperation] = []
        for item in items {
            let path = item.key
            guard let pathItem = resolved(item.value, in: document), case .object(let members) = pathItem else {
                continue
            }
            let shared = parameters(pathItem["parameters"], in: document)
            for member in members where methods.contains(member.key) {
                // An operation by `$ref` (outside OpenAPI, but written): what it names.
                let value = resolved(member.value, in: document) ?? member.value
                var parameters = shared
                for own in Self.parameters(value["parameters"], in: document) {
                    parameters.removeAll { $0.name == own.name && $0.location == own.location }
                    parameters.append(own)
                }
                var security: [[String]]?
                if case .array(let alternatives)? = value["security"] ?? document["security"] {
                    security = alternatives.map { alternative in
                        if case .object(let schemes) = alternative { return schemes.map(\.key) }
                        return []
                    }
                }
                operations.append(
                    APIOperation(
                        method: member.key.uppercased(), path: path, operationID: value["operationId"]?.string,
                        summary: value["summary"]?.string, description: value["description"]?.string,
                        deprecated: value["deprecated"] == .bool(true), parameters: parameters,
                        requestBody: requestBody(value["requestBody"], in: document),
                        responses: responses(value["responses"], in: document), security: security,
                        location: "paths.\(path).\(member.key)", pathSegments: PathTree.segments(of: path)))
            }
        }
        return operations
    }

    private static func parameters(_ value: JSON?, in document: JSON) -> [APIOperation.Parameter] {
        guard case .array(let list)? = value else { return [] }
        return list.compactMap { entry in
            guard let parameter = resolved(entry, in: document), let name = parameter["name"]?.string,
                let location = parameter["in"]?.string.flatMap(APIOperation.Parameter.Location.init(rawValue:))
            else { return nil }
            var schema = parameter["schema"]
            if schema == nil, case .object(let content)? = parameter["content"] {
                schema = content.first?.value["schema"]
            }
            return APIOperation.Parameter(
                name: name, location: location, required: location == .path || parameter["required"] == .bool(true),
                schema: schema, description: parameter["description"]?.string,
                deprecated: parameter["deprecated"] == .bool(true),
                example: parameter["example"] ?? firstExample(parameter["examples"], in: document))
        }
    }

    private static func requestBody(_ value: JSON?, in document: JSON) -> APIOperation.RequestBody? {
        guard let body = resolved(value, in: document), case .object = body else { return nil }
        return APIOperation.RequestBody(
            required: body["required"] == .bool(true), description: body["description"]?.string,
            content: content(body["content"], in: document))
    }

    private static func responses(_ value: JSON?, in document: JSON) -> [APIOperation.Response] {
        guard case .object(let entries)? = value else { return [] }
        return entries.compactMap { entry in
            guard !entry.key.hasPrefix("x-"), let response = resolved(entry.value, in: document) else { return nil }
            return APIOperation.Response(
                status: entry.key, description: response["description"]?.string,
                content: content(response["content"], in: document))
        }
    }

    private static func content(_ value: JSON?, in document: JSON) -> [APIOperation.MediaType] {
        guard case .object(let types)? = value else { return [] }
        return types.map { type in
            APIOperation.MediaType(
                name: type.key, schema: type.value["schema"], itemSchema: type.value["itemSchema"],
                example: type.value["example"] ?? firstExample(type.value["examples"], in: document))
        }
    }

    /// The value of the first entry of an `examples` map (each an Example Object, maybe a `$ref`).
    private static func firstExample(_ value: JSON?, in document: JSON) -> JSON? {
        guard case .object(let examples)? = value, let first = examples.first else { return nil }
        return resolved(first.value, in: document)?["value"]
    }
}
