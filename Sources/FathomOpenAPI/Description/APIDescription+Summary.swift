import FathomJSON

extension APIDescription {
    /// A schema in a compact readable form, for `describe`: `Pet { id: integer(int64), name: string, tag?: string,
    /// status?: "available"|"sold" }`.
    ///
    /// A named component is expanded `expand` levels deep, then shown by name, so circular schemas end.
    public func summary(of schema: JSON?, expand: Int = 1) -> String {
        guard let schema else { return "any" }
        return summary(schema, expand: expand, depth: 0)
    }

    private func summary(_ schema: JSON, expand: Int, depth: Int) -> String {
        if case .bool(let flag) = schema { return flag ? "any" : "nothing" }
        if case .string(let reference)? = schema["$ref"] {
            // The pointer's last token: `Pet`, or `schemas/pet.yaml` for a whole other document.
            let fragment = String(reference.drop { $0 != "#" }.dropFirst())
            let name =
                (try? JSONPointer(parsing: fragment))?.tokens.last
                ?? reference.split(separator: "/").last.map(String.init) ?? reference
            guard expand > 0, depth < 8, let target = Self.pointer(reference, in: document) else { return name }
            let inner = summary(target, expand: expand - 1, depth: depth + 1)
            return inner.hasPrefix("{") ? "\(name) \(inner)" : inner
        }
        var text: String
        if case .array(let values)? = schema["enum"] {
            text = values.prefix(8).map(SchemaEvaluation.short).joined(separator: "|") + (values.count > 8 ? "|…" : "")
        } else if let constant = schema["const"] {
            text = SchemaEvaluation.short(constant)
        } else if let combined = combination(schema, expand: expand, depth: depth) {
            text = combined
        } else {
            var types = Self.types(of: schema)
            if types.isEmpty {
                types = schema["properties"] != nil ? ["object"] : schema["items"] != nil ? ["array"] : ["any"]
            }
            text = types.filter { $0 != "null" }.map { type in
                switch type {
                case "object": return object(schema, expand: expand, depth: depth)
                case "array":
                    guard let items = schema["items"] else { return "[any]" }
                    return "[" + summary(items, expand: expand, depth: depth + 1) + "]"
                default:
                    return schema["format"]?.string.map { "\(type)(\($0))" } ?? type
                }
            }.joined(separator: "|")
            if types.contains("null") { text += "|null" }
        }
        if schema["nullable"] == .bool(true) { text += "|null" }
        return text
    }

    private func combination(_ schema: JSON, expand: Int, depth: Int) -> String? {
        for (keyword, separator) in [("oneOf", " | "), ("anyOf", " | "), ("allOf", " & ")] {
            if case .array(let parts)? = schema[keyword] {
                return parts.map { summary($0, expand: expand, depth: depth + 1) }.joined(separator: separator)
            }
        }
        return nil
    }

    private func object(_ schema: JSON, expand: Int, depth: Int) -> String {
        guard case .object(let properties)? = schema["properties"], !properties.isEmpty else {
            if let additional = schema["additionalProperties"], additional != .bool(false), additional != .bool(true) {
                return "{ *: " + summary(additional, expand: expand, depth: depth + 1) + " }"
            }
            return "object"
        }
        guard depth < 4 else { return "{ … }" }
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.string))
        let fields = properties.map { property in
            let marks = [
                resolved(property.value)?["readOnly"] == .bool(true) ? "read-only" : nil,
                resolved(property.value)?["writeOnly"] == .bool(true) ? "write-only" : nil,
            ].compactMap { $0 }
            return "\(property.key)\(required.contains(property.key) ? "" : "?"): "
                + summary(property.value, expand: expand, depth: depth + 1)
                + (marks.isEmpty ? "" : " (\(marks.joined(separator: ", ")))")
        }
        return "{ " + fields.joined(separator: ", ") + " }"
    }
}

extension APIDescription {
    /// A schema's `default`, as compact JSON text, following `$ref`s.
    public func resolvedDefault(_ schema: JSON) -> String? {
        guard let value = resolved(schema)?["default"] else { return nil }
        return SchemaEvaluation.short(value)
    }
}
