import FathomJSON
import Foundation

extension APIDescription {
    /// A request body for the operation: its own example, else its schema's, else an instance generated from the schema
    /// (required properties, the first enum value, format-shaped strings, minimums).
    ///
    /// `nil` when it takes no body.
    public func exampleBody(for operation: APIOperation) -> (mediaType: String, value: JSON)? {
        guard let content = operation.requestBody?.content, !content.isEmpty else { return nil }
        let mediaType =
            content.first { $0.essence.hasSuffix("json") }
            ?? content.first { $0.essence == "application/x-www-form-urlencoded" } ?? content[0]
        if let example = mediaType.example { return (mediaType.name, example) }
        guard let schema = mediaType.schema else { return nil }
        var visiting: Set<String> = []
        return (mediaType.name, example(of: schema, visiting: &visiting, depth: 0))
    }

    /// An instance of `schema`, as a person would write one to try the API.
    public func example(of schema: JSON) -> JSON {
        var visiting: Set<String> = []
        return example(of: schema, visiting: &visiting, depth: 0)
    }

    private func example(of schema: JSON, visiting: inout Set<String>, depth: Int) -> JSON {
        guard depth < 12 else { return .null }
        if case .string(let reference)? = schema["$ref"] {
            // A schema that contains itself stops where it comes round again.
            guard !visiting.contains(reference), let target = Self.pointer(reference, in: document) else {
                return .null
            }
            visiting.insert(reference)
            defer { visiting.remove(reference) }
            return example(of: target, visiting: &visiting, depth: depth + 1)
        }
        if let example = schema["example"] { return example }
        if case .array(let examples)? = schema["examples"], let first = examples.first { return first }
        if let value = schema["default"] { return value }
        if let value = schema["const"] { return value }
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        if case .array(let parts)? = schema["allOf"] {
            var members: [JSON.Member] = []
            for part in parts {
                if case .object(let more) = example(of: part, visiting: &visiting, depth: depth + 1) {
                    for member in more where !members.contains(where: { $0.key == member.key }) {
                        members.append(member)
                    }
                }
            }
            if !members.isEmpty || schema["properties"] == nil { return .object(members) }
        }
        for keyword in ["oneOf", "anyOf"] {
            if case .array(let alternatives)? = schema[keyword], let first = alternatives.first {
                return example(of: first, visiting: &visiting, depth: depth + 1)
            }
        }
        var type = schema["type"]?.string
        if case .array(let types)? = schema["type"] { type = types.compactMap(\.string).first { $0 != "null" } }
        if type == nil { type = schema["properties"] != nil ? "object" : schema["items"] != nil ? "array" : nil }
        switch type {
        case "object":
            guard case .object(let properties)? = schema["properties"] else { return .object([]) }
            let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.string))
            var members: [JSON.Member] = []
            for property in properties {
                guard required.isEmpty || required.contains(property.key) else { continue }
                if resolved(property.value)?["readOnly"] == .bool(true) { continue }
                members.append(
                    JSON.Member(
                        key: property.key, value: example(of: property.value, visiting: &visiting, depth: depth + 1)))
            }
            return .object(members)
        case "array":
            guard let items = schema["items"] else { return .array([]) }
            let count = max(1, SchemaEvaluation.integer(schema["minItems"]) ?? 1)
            return .array(
                Array(repeating: example(of: items, visiting: &visiting, depth: depth + 1), count: min(count, 3)))
        case "integer":
            if case .number(let minimum)? = schema["minimum"] { return .number(minimum) }
            return .number("0")
        case "number":
            if case .number(let minimum)? = schema["minimum"] { return .number(minimum) }
            return .number("0")
        case "boolean": return .bool(false)
        case "string": return .string(Self.sampleString(format: schema["format"]?.string, schema: schema))
        default: return .null
        }
    }

    private static func sampleString(format: String?, schema: JSON) -> String {
        switch format {
        case "date-time": return "2024-01-01T00:00:00Z"
        case "date": return "2024-01-01"
        case "time": return "12:00:00Z"
        case "email": return "user@example.com"
        case "uuid": return "00000000-0000-4000-8000-000000000000"
        case "uri", "url": return "https://example.com"
        case "hostname": return "example.com"
        case "ipv4": return "192.0.2.1"
        case "ipv6": return "2001:db8::1"
        case "byte": return "ZXhhbXBsZQ=="
        case "password": return "********"
        default:
            if let pattern = schema["pattern"]?.string, let sample = PatternSample.sample(pattern) { return sample }
            let minimum = SchemaEvaluation.integer(schema["minLength"]) ?? 0
            return minimum > 6 ? String(repeating: "x", count: min(minimum, 64)) : "string"
        }
    }
}

extension JSON {
    var arrayValue: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

/// A string that matches a simple `pattern` (literals, classes, `\\d`/`\\w`, quantifiers; no groups
/// or alternation), checked against the pattern before it is offered.
enum PatternSample {
    static func sample(_ pattern: String) -> String? {
        var characters = Array(pattern)[...]
        if characters.first == "^" { characters = characters.dropFirst() }
        if characters.last == "$" { characters = characters.dropLast() }
        var result = ""
        while let first = characters.first {
            characters = characters.dropFirst()
            var unit: Character
            switch first {
            case "(", ")", "|", "^", "$": return nil
            case "\\":
                guard let escaped = characters.popFirst() else { return nil }
                switch escaped {
                case "d": unit = "0"
                case "w": unit = "a"
                case "s": unit = " "
                case "D", "W", "S", "b", "B": return nil
                default: unit = escaped
                }
            case "[":
                guard let close = characters.firstIndex(of: "]") else { return nil }
                let set = characters[characters.startIndex..<close]
                characters = characters[characters.index(after: close)...]
                if set.first == "^" {
                    unit = set.contains("x") ? "y" : "x"
                } else if let start = set.first {
                    unit = start == "\\" ? (set.dropFirst().first == "d" ? "0" : "a") : start
                } else {
                    return nil
                }
            case ".": unit = "a"
            default: unit = first
            }
            var count = 1
            switch characters.first {
            case "?", "*":
                characters = characters.dropFirst()
                count = 0
            case "+":
                characters = characters.dropFirst()
            case "{":
                guard let close = characters.firstIndex(of: "}") else { return nil }
                let bounds = String(characters[characters.index(after: characters.startIndex)..<close])
                characters = characters[characters.index(after: close)...]
                guard let low = Int(bounds.split(separator: ",", omittingEmptySubsequences: false).first ?? "") else {
                    return nil
                }
                count = low
            default: break
            }
            result += String(repeating: String(unit), count: count)
        }
        guard let regex = PatternCache.shared.regex(pattern),
            regex.firstMatch(in: result, range: NSRange(result.startIndex..., in: result)) != nil
        else { return nil }
        return result
    }
}
