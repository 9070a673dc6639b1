@_spi(Fathom) import FathomJSON
import Foundation

extension APIDescription {
    // MARK: - Responses

    /// The ways a response breaks its operation's contract: a status the operation does not declare, a content type it
    /// does not list, a body its schema rejects (each violation at its JSONPath).
    ///
    /// Empty when the response keeps it.
    ///
    /// - Parameters:
    ///   - status: The response's status code.
    ///   - contentType: The response's `Content-Type`, if any.
    ///   - body: The response's body.
    ///   - operation: The operation the request went to.
    ///   - items: A streamed body's events, lines or records, checked each against the media
    ///     type's `itemSchema` (OpenAPI 3.2) when it has one; asked for only then.
    ///   - parse: Parses a JSON body; a caller that keeps parsed bodies passes its own, so the body
    ///     is parsed once however many times it is read.
    /// - Returns: Every violation; empty when the response keeps the contract.
    public func validateResponse(
        status: Int, contentType: String?, body: Data, for operation: APIOperation,
        items: () -> [JSON]? = { nil }, parse: (Data) -> JSON? = { try? JSON(parsing: $0) }
    ) -> [SchemaViolation] {
        guard let response = operation.response(for: status) else {
            let declared = operation.responses.map(\.status).joined(separator: ", ")
            return [
                SchemaViolation(
                    path: "$",
                    message: "status \(status) is not declared for \(operation.title)"
                        + (declared.isEmpty ? "" : " (declared: \(declared))"))
            ]
        }
        guard !response.content.isEmpty else { return [] }
        guard let mediaType = APIOperation.mediaType(contentType, in: response.content) else {
            let declared = response.content.map(\.name).joined(separator: ", ")
            return [
                SchemaViolation(
                    path: "$",
                    message:
                        "content type \(contentType ?? "(none)") is not declared for \(status) (declared: \(declared))")
            ]
        }
        // The items are read only when the media type has a schema for them.
        if let itemSchema = mediaType.itemSchema, let items = items() {
            return validateItems(items, against: itemSchema)
        }
        guard let schema = mediaType.schema else { return [] }
        switch bodyValue(body, contentType: contentType ?? mediaType.name, schema: schema, parse: parse) {
        case .value(let instance): return validator.with(direction: .response).validate(instance, against: schema)
        case .notJSON:
            let message = body.isEmpty ? "expected a body, got none" : "the body is not valid JSON"
            return [SchemaViolation(path: "$", message: message)]
        case .unread: return []
        }
    }

    /// Each item of a sequential body against its media type's `itemSchema`, at `$[i]`.
    func validateItems(_ items: [JSON], against itemSchema: JSON) -> [SchemaViolation] {
        items.enumerated().flatMap { index, item in validateItem(item, against: itemSchema, at: "$[\(index)]") }
    }

    /// One item of a sequential body (a server-sent event, a line, a record) against an
    /// `itemSchema`, its violations under `path`.
    ///
    /// A server-sent event is the object `{event, data, id, retry}` with `data` as text, as OpenAPI
    /// 3.2 describes it; when the schema gives `data` a `contentSchema` and the data is JSON, the
    /// parsed data is checked against it as well.
    public func validateItem(_ item: JSON, against itemSchema: JSON, at path: String = "$") -> [SchemaViolation] {
        let checker = validator.with(direction: .response)
        var violations = checker.validate(item, against: itemSchema).map {
            SchemaViolation(path: path + $0.path.dropFirst(), message: $0.message)
        }
        if let contentSchema = itemSchema["properties"]?["data"]?["contentSchema"],
            case .string(let text)? = item["data"],
            let data = try? JSON(parsing: text)
        {
            violations += checker.validate(data, against: contentSchema).map {
                SchemaViolation(path: path + ".data" + $0.path.dropFirst(), message: $0.message)
            }
        }
        return violations
    }

    /// The `itemSchema` of the media type a response with this status and content type has by
    /// `operation`, if it gives one.
    public func itemSchema(status: Int, contentType: String?, for operation: APIOperation) -> JSON? {
        guard let response = operation.response(for: status),
            let mediaType = APIOperation.mediaType(contentType, in: response.content)
        else { return nil }
        return mediaType.itemSchema
    }

    /// A body as its schema can be checked against it (a form as the object of its fields).
    enum BodyValue: Equatable {
        /// The value the schema describes: JSON parsed, text as a string.
        case value(JSON)
        /// A JSON media type whose body is not JSON.
        case notJSON
        /// A body whose shape JSON Schema does not describe as sent: XML against an object
        /// schema (OpenAPI maps XML onto it with its `xml` object), binary and multipart bodies.
        /// Its status and media type are still checked.
        case unread
    }

    /// `body`, sent as `contentType`, as `schema` can read it.
    func bodyValue(
        _ body: Data, contentType: String, schema: JSON, parse: (Data) -> JSON? = { try? JSON(parsing: $0) }
    ) -> BodyValue {
        let essence = APIOperation.essence(of: contentType)
        let text = { JSON.string(String(decoding: body, as: UTF8.self)) }
        if essence == "application/json" || essence.hasSuffix("+json") {
            return parse(body).map(BodyValue.value) ?? .notJSON
        }
        let types = Self.types(of: resolved(schema))
        let wantsText = types.contains("string")
        if essence.hasPrefix("text/") {
            // Text is a string, unless the schema wants something else the text reads as
            // (`42` as `text/plain` for an integer schema; `text/json`).
            if !wantsText, let value = parse(body) { return .value(value) }
            return .value(text())
        }
        if essence.hasSuffix("/xml") || essence.hasSuffix("+xml") { return wantsText ? .value(text()) : .unread }
        if essence == "application/x-www-form-urlencoded", !wantsText {
            return .value(formObject(body, schema: schema))
        }
        // A wildcard (`*/*`, `application/*`) checks what reads as JSON.
        if essence.hasSuffix("*") { return parse(body).map(BodyValue.value) ?? .unread }
        return .unread
    }

    /// A form body as the object its schema describes: each field's text read as its property's
    /// type says (`ttl=5` an integer, `active=true` a boolean), a repeated field as an array.
    func formObject(_ body: Data, schema: JSON) -> JSON {
        let properties = resolved(schema)?["properties"]
        var fields: [(name: String, values: [String])] = []
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                let text = $0.replacingOccurrences(of: "+", with: " ")
                return text.removingPercentEncoding ?? text
            }
            let name = parts[0]
            let value = parts.count > 1 ? parts[1] : ""
            if let index = fields.firstIndex(where: { $0.name == name }) {
                fields[index].values.append(value)
            } else {
                fields.append((name, [value]))
            }
        }
        return .object(
            fields.map { field in
                let property = resolved(properties?[field.name])
                let value: JSON
                if Self.types(of: property).contains("array") {
                    let items = resolved(property?["items"])
                    value = .array(field.values.map { Self.formValue($0, as: Self.types(of: items)) })
                } else if field.values.count > 1 {
                    value = .array(field.values.map { Self.formValue($0, as: []) })
                } else {
                    value = Self.formValue(field.values[0], as: Self.types(of: property))
                }
                return JSON.Member(key: field.name, value: value)
            })
    }

    /// A form field's text as the first of `types` it reads as; a string otherwise.
    private static func formValue(_ text: String, as types: [String]) -> JSON {
        for type in types {
            switch type {
            case "integer", "number":
                if let number = try? JSON(parsing: Data(text.utf8)), case .number = number { return number }
            case "boolean":
                if text == "true" || text == "false" { return .bool(text == "true") }
            case "null":
                if text.isEmpty { return .null }
            default: break
            }
        }
        return .string(text)
    }

    /// The `type`s a schema names (one or a list); empty when it names none.
    static func types(of schema: JSON?) -> [String] {
        if let one = schema?["type"]?.string { return [one] }
        return schema?["type"]?.arrayValue?.compactMap(\.string) ?? []
    }

    // MARK: - Requests

    /// What a request about to go does not do as its operation says: a missing required parameter or body, an unknown
    /// query parameter (with the closest known name), a value outside its enum or not of its type, a body its schema
    /// rejects.
    ///
    /// One sentence each.
    public func checkRequest(
        _ operation: APIOperation, path: String, query: [(name: String, value: String?)], headers: [String],
        contentType: String?, body: Data?
    ) -> [String] {
        var problems: [String] = []
        // Path parameters: the values in the concrete path, by the template's segments.
        let given = PathTree.segments(of: path)
        if given.count == operation.pathSegments.count {
            for (template, value) in zip(operation.pathSegments, given) where PathTree.isTemplate(template) {
                let name = String(template.dropFirst().dropLast())
                if value == template {
                    problems.append("path parameter '\(name)' has no value")
                    continue
                }
                if let parameter = operation.parameters.first(where: { $0.location == .path && $0.name == name }),
                    let problem = problem(with: value, for: parameter)
                {
                    problems.append(problem)
                }
            }
        }
        let queryNames = Set(query.map(\.name))
        let headerNames = Set(headers.map { $0.lowercased() })
        for parameter in operation.parameters where parameter.required {
            switch parameter.location {
            case .query where !queryNames.contains(parameter.name):
                problems.append("missing required query parameter '\(parameter.name)'")
            case .header where !headerNames.contains(parameter.name.lowercased()):
                problems.append("missing required header '\(parameter.name)'")
            default: break
            }
        }
        let known = operation.parameters.filter { $0.location == .query }
        for item in query {
            guard let parameter = known.first(where: { $0.name == item.name }) else {
                // A `style: deepObject` or exploded object parameter names its own keys.
                guard !known.contains(where: { item.name.hasPrefix($0.name + "[") }) else { continue }
                var problem = "unknown query parameter '\(item.name)' for \(operation.title)"
                if let close = Spelling.closest(to: item.name, among: known.map(\.name)) {
                    problem += " — did you mean '\(close)'?"
                }
                problems.append(problem)
                continue
            }
            if let value = item.value, let problem = problem(with: value, for: parameter) { problems.append(problem) }
        }
        if let missing = missingCredentials(operation, query: queryNames, headers: headerNames) {
            problems.append(missing)
        }
        if let requestBody = operation.requestBody {
            if body == nil || body?.isEmpty == true {
                if requestBody.required {
                    let types = requestBody.content.map(\.name).joined(separator: ", ")
                    problems.append("\(operation.title) requires a body" + (types.isEmpty ? "" : " (\(types))"))
                }
            } else if !requestBody.content.isEmpty,
                APIOperation.mediaType(contentType, in: requestBody.content) == nil
            {
                let declared = requestBody.content.map(\.name).joined(separator: ", ")
                problems.append(
                    "content type \(contentType ?? "(none)") is not declared for the body (declared: \(declared))")
            } else if let body, let mediaType = APIOperation.mediaType(contentType, in: requestBody.content),
                let schema = mediaType.schema
            {
                switch bodyValue(body, contentType: contentType ?? mediaType.name, schema: schema) {
                case .value(let instance):
                    problems += validator.with(direction: .request).validate(instance, against: schema).map {
                        "body \($0)"
                    }
                case .notJSON: problems.append("the body is not valid JSON, as \(mediaType.name) says it is")
                case .unread: break
                }
            }
        }
        return problems
    }

    /// The operation's security, when no alternative of it is met by the headers and query sent:
    /// an HTTP or OAuth2 scheme needs `Authorization`, an API key its header, query item or cookie.
    private func missingCredentials(_ operation: APIOperation, query: Set<String>, headers: Set<String>) -> String? {
        guard let alternatives = operation.security, !alternatives.isEmpty,
            !alternatives.contains(where: \.isEmpty)
        else { return nil }
        let schemes = document["components"]?["securitySchemes"]
        func met(_ name: String) -> Bool {
            guard let scheme = resolved(schemes?[name]) else { return true }
            switch scheme["type"]?.string {
            case "apiKey":
                let key = scheme["name"]?.string ?? ""
                switch scheme["in"]?.string {
                case "query": return query.contains(key)
                case "cookie": return headers.contains("cookie")
                default: return headers.contains(key.lowercased())
                }
            case "http", "oauth2", "openIdConnect": return headers.contains("authorization")
            default: return true
            }
        }
        guard !alternatives.contains(where: { $0.allSatisfy(met) }) else { return nil }
        let needed = alternatives.map { $0.joined(separator: " + ") }.joined(separator: " or ")
        return "\(operation.title) needs credentials (\(needed)) and the request sends none"
    }

    /// A parameter value that is not of its schema's type or not in its enum.
    private func problem(with value: String, for parameter: APIOperation.Parameter) -> String? {
        let place =
            parameter.location == .header
            ? "header '\(parameter.name)'" : "\(parameter.location.rawValue) parameter '\(parameter.name)'"
        return problem(with: value, schema: parameter.schema, place: place, location: parameter.location)
    }

    /// `value` against `schema`, read as the schema's type says.
    ///
    /// An array's items are each value of a repeated query parameter (form style, exploded, OpenAPI's default there) or
    /// the comma-separated parts of a path or header value (simple style).
    private func problem(
        with value: String, schema original: JSON?, place: String, location: APIOperation.Parameter.Location
    ) -> String? {
        guard let schema = resolved(original) else { return nil }
        if case .array(let allowed)? = schema["enum"] {
            let texts = allowed.map { value -> String in
                if case .string(let text) = value { return text }
                var text = value.formatted(.compactText)
                if text.hasSuffix("\n") { text.removeLast() }
                return text
            }
            if !texts.contains(value) {
                return "\(place) is '\(value)', expected one of \(texts.prefix(8).joined(separator: ", "))"
            }
        }
        let type = Self.types(of: schema).first
        let instance: JSON
        switch type {
        case "integer":
            guard Int(value) != nil else { return "\(place) is '\(value)', expected an integer" }
            instance = .number(value)
        case "number":
            guard Double(value) != nil, (try? JSON(parsing: value)) != nil else {
                return "\(place) is '\(value)', expected a number"
            }
            instance = .number(value)
        case "boolean":
            guard value == "true" || value == "false" else { return "\(place) is '\(value)', expected true or false" }
            instance = .bool(value == "true")
        case "array":
            let items = location == .query ? [Substring(value)] : value.split(separator: ",")
            for item in items {
                if let problem = problem(with: String(item), schema: schema["items"], place: place, location: location)
                {
                    return problem
                }
            }
            return nil
        case "object": return nil
        default: instance = .string(value)
        }
        // The rest of the schema (minimum, pattern, format…) on the value as its type.
        guard let violation = validator.validate(instance, against: original ?? .bool(true)).first else {
            return nil
        }
        return "\(place) is '\(value)': \(violation.message)"
    }
}

extension SchemaValidator {
    /// The same validator for values travelling one way.
    func with(direction: Direction) -> SchemaValidator {
        var copy = self
        copy.options.direction = direction
        return copy
    }
}

extension APIDescription {
    /// The top-level fields of the operation's JSON request body, with their types (`string`,
    /// `integer`…), for completion: `name=` for strings, `name:=` for the rest.
    public func bodyFields(for operation: APIOperation) -> [(name: String, type: String?)] {
        bodyFieldSchemas(for: operation).map { ($0.name, resolved($0.schema)?["type"]?.string) }
    }

    /// The enum values of a top-level body field, as text (`role=` completes to `role=admin`).
    public func enumValues(ofBodyField name: String, for operation: APIOperation) -> [String] {
        guard let schema = bodyFieldSchemas(for: operation).first(where: { $0.name == name })?.schema else { return [] }
        return (resolved(schema)?["enum"]?.arrayValue ?? []).map { value in
            if case .string(let text) = value { return text }
            return SchemaEvaluation.short(value)
        }
    }

    private func bodyFieldSchemas(for operation: APIOperation) -> [(name: String, schema: JSON)] {
        guard let content = operation.requestBody?.content,
            let media = content.first(where: { $0.essence.hasSuffix("json") }) ?? content.first,
            let schema = media.schema
        else { return [] }
        var fields: [(name: String, schema: JSON)] = []
        func collect(_ schema: JSON, depth: Int) {
            guard depth < 8, let schema = resolved(schema) else { return }
            if case .object(let properties)? = schema["properties"] {
                for property in properties where !fields.contains(where: { $0.name == property.key }) {
                    fields.append((property.key, property.value))
                }
            }
            for keyword in ["allOf", "oneOf", "anyOf"] {
                for part in schema[keyword]?.arrayValue ?? [] { collect(part, depth: depth + 1) }
            }
        }
        collect(schema, depth: 0)
        return fields
    }

    /// A parameter's enum values, as text.
    public func enumValues(of parameter: APIOperation.Parameter) -> [String] {
        guard
            let values = resolved(parameter.schema)?["enum"]?.arrayValue
                ?? resolved(parameter.schema)?["items"].flatMap({ resolved($0) })?["enum"]?.arrayValue
        else { return [] }
        return values.map { value in
            if case .string(let text) = value { return text }
            return SchemaEvaluation.short(value)
        }
    }
}
