import FathomJSON
import Foundation

extension APIDescription {
    /// A request body for the operation: its own example, else its schema's, else an instance generated from the schema
    /// (required properties, the first enum value, format-shaped strings, values inside the bounds).
    ///
    /// An example the description gives is used only when it is valid against its schema; what
    /// is generated always is, as far as one instance can be (a pattern Fathom cannot sample is
    /// the one exception). `nil` when the operation takes no body.
    public func exampleBody(for operation: APIOperation) -> (mediaType: String, value: JSON)? {
        guard let content = operation.requestBody?.content, !content.isEmpty else { return nil }
        let mediaType =
            content.first { $0.essence.hasSuffix("json") }
            ?? content.first { $0.essence == "application/x-www-form-urlencoded" } ?? content[0]
        guard let schema = mediaType.schema else { return mediaType.example.map { (mediaType.name, $0) } }
        if let example = mediaType.example, isValidRequest(example, schema) { return (mediaType.name, example) }
        return (mediaType.name, example(of: schema))
    }

    /// An instance of `schema`, as a person would write one to try the API: its own valid
    /// example when it has one, else one made from its keywords.
    public func example(of schema: JSON) -> JSON {
        var generator = ExampleGenerator(description: self)
        return generator.example(of: schema, depth: 0)
    }

    func isValidRequest(_ instance: JSON, _ schema: JSON) -> Bool {
        validator.with(direction: .request).isValid(instance, against: schema)
    }
}

/// Makes an instance of a schema, keyword by keyword, and keeps to every bound it reads:
/// lengths, ranges, `multipleOf`, item and property counts, `allOf` merged with the schema's own
/// properties.
private struct ExampleGenerator {
    let description: APIDescription
    /// The `$ref`s being expanded: a schema that contains itself stops where it comes round.
    var visiting: Set<String> = []
    /// Bounds the work a wide, deep schema can ask for.
    var budget = 20_000

    /// Deeper than any real schema nests; a `$ref` chain counts each link.
    static let maximumDepth = 64

    init(description: APIDescription) { self.description = description }

    mutating func example(of schema: JSON, depth: Int) -> JSON {
        budget -= 1
        guard depth < Self.maximumDepth, budget > 0 else { return Self.smallest(schema) }
        if case .string(let reference)? = schema["$ref"] {
            guard !visiting.contains(reference),
                let target = APIDescription.pointer(reference, in: description.document)
            else { return Self.smallest(schema) }
            visiting.insert(reference)
            defer { visiting.remove(reference) }
            return example(of: target, depth: depth + 1)
        }
        if let value = schema["const"] { return value }
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        // What the author wrote, when it is valid (real descriptions carry stale examples).
        var authored: [JSON] = [schema["example"], schema["default"]].compactMap { $0 }
        if case .array(let examples)? = schema["examples"] { authored.insert(contentsOf: examples.prefix(3), at: 0) }
        if let valid = authored.first(where: { description.isValidRequest($0, schema) }) { return valid }

        var own = generated(schema, depth: depth)
        if case .array(let parts)? = schema["allOf"] {
            for part in parts {
                let value = example(of: part, depth: depth + 1)
                guard case .object(let more) = value else {
                    // A wrapped enum, a string with a pattern: the part says what it is.
                    if own == nil || own == .object([]) { own = value }
                    continue
                }
                own = Self.merged(own, more)
            }
        }
        for keyword in ["oneOf", "anyOf"] {
            guard case .array(let alternatives)? = schema[keyword], !alternatives.isEmpty else { continue }
            // The first alternative that comes out valid against the whole schema.
            var first: JSON?
            for alternative in alternatives.prefix(4) {
                var value = example(of: alternative, depth: depth + 1)
                if case .object(let more) = value, own != nil { value = Self.merged(own, more) ?? value }
                if first == nil { first = value }
                if description.isValidRequest(value, schema) { return value }
            }
            return first!
        }
        return own ?? .null
    }

    /// An instance made from the schema's own type keywords, ignoring its combinators; `nil`
    /// when it names no type.
    private mutating func generated(_ schema: JSON, depth: Int) -> JSON? {
        switch Self.type(of: schema) {
        case "object":
            var members: [JSON.Member] = []
            guard case .object(let properties)? = schema["properties"] else {
                return .object(Self.filler(count: SchemaEvaluation.integer(schema["minProperties"]) ?? 0))
            }
            let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.string))
            let minimum = SchemaEvaluation.integer(schema["minProperties"]) ?? 0
            // The required properties, then others while `minProperties` asks for more.
            for property in properties where required.contains(property.key) || required.isEmpty && minimum == 0 {
                if description.resolved(property.value)?["readOnly"] == .bool(true) { continue }
                members.append(JSON.Member(key: property.key, value: example(of: property.value, depth: depth + 1)))
            }
            for property in properties
            where members.count < minimum && !members.contains(where: { $0.key == property.key }) {
                members.append(JSON.Member(key: property.key, value: example(of: property.value, depth: depth + 1)))
            }
            if members.count < minimum { members += Self.filler(count: minimum - members.count) }
            // Names the schema says nothing of, for `required` it lists without `properties`.
            for name in required.sorted()
            where !members.contains(where: { $0.key == name }) && properties.allSatisfy({ $0.key != name }) {
                members.append(JSON.Member(key: name, value: .string("string")))
            }
            return .object(members)
        case "array":
            let minimum = SchemaEvaluation.integer(schema["minItems"]) ?? 0
            let maximum = SchemaEvaluation.integer(schema["maxItems"])
            let count = min(max(minimum, min(1, maximum ?? 1)), 100)
            guard count > 0 else { return .array([]) }
            guard let items = schema["items"], case .object = items else {
                return .array((0..<count).map { .number(String($0)) })
            }
            let item = example(of: items, depth: depth + 1)
            let unique = schema["uniqueItems"] == .bool(true)
            return .array((0..<count).map { index in unique && index > 0 ? Self.varied(item, index) : item })
        case "integer": return .number(Self.number(schema, integer: true))
        case "number": return .number(Self.number(schema, integer: false))
        case "boolean": return .bool(false)
        case "string": return .string(Self.string(schema))
        case "null": return .null
        default: return nil
        }
    }

    /// The type a schema names, or that its keywords imply; the first that is not `null`.
    private static func type(of schema: JSON) -> String? {
        if let type = schema["type"]?.string { return type }
        if case .array(let types)? = schema["type"] {
            return types.compactMap(\.string).first { $0 != "null" } ?? types.first?.string
        }
        if schema["properties"] != nil || schema["required"] != nil || schema["minProperties"] != nil {
            return "object"
        }
        if schema["items"] != nil { return "array" }
        return nil
    }

    /// The least instance of a schema's type, where the generator stops (a cycle, its depth).
    private static func smallest(_ schema: JSON) -> JSON {
        switch type(of: schema) {
        case "object": return .object([])
        case "array": return .array([])
        case "string": return .string("")
        case "integer", "number": return .number("0")
        case "boolean": return .bool(false)
        default: return .null
        }
    }

    private static func merged(_ own: JSON?, _ more: [JSON.Member]) -> JSON? {
        guard case .object(var members)? = own ?? .object([]) else { return own }
        for member in more where !members.contains(where: { $0.key == member.key }) { members.append(member) }
        return .object(members)
    }

    private static func filler(count: Int) -> [JSON.Member] {
        (0..<min(count, 100)).map { JSON.Member(key: "property\($0 + 1)", value: .string("string")) }
    }

    /// `value` made different from the item before it, for `uniqueItems`.
    private static func varied(_ value: JSON, _ index: Int) -> JSON {
        switch value {
        case .string(let text): .string(text + String(index))
        case .number(let text): .number(String((Int(text) ?? 0) + index))
        default: value
        }
    }

    /// A number inside the schema's bounds: the minimum (past it when exclusive), else 0 or the
    /// maximum, rounded up to a `multipleOf`.
    private static func number(_ schema: JSON, integer: Bool) -> String {
        func value(_ keyword: String) -> Decimal? {
            guard case .number(let text)? = schema[keyword] else { return nil }
            return Decimal(string: text)
        }
        let step = value("multipleOf").flatMap { $0 > 0 ? $0 : nil } ?? (integer ? 1 : nil)
        var low = value("minimum")
        var lowExclusive = schema["exclusiveMinimum"] == .bool(true)
        if let bound = value("exclusiveMinimum"), low.map({ bound >= $0 }) ?? true {
            low = bound
            lowExclusive = true
        }
        var high = value("maximum")
        var highExclusive = schema["exclusiveMaximum"] == .bool(true)
        if let bound = value("exclusiveMaximum"), high.map({ bound <= $0 }) ?? true {
            high = bound
            highExclusive = true
        }
        var candidate: Decimal = low ?? min(0, high ?? 0)
        if let step {
            var quotient = candidate / step
            var rounded = Decimal()
            NSDecimalRound(&rounded, &quotient, 0, .up)
            candidate = rounded * step
            if let low, lowExclusive, candidate <= low { candidate += step }
            if let high, highExclusive ? candidate >= high : candidate > high {
                // Below the maximum instead: the largest multiple under it.
                var quotient = high / step
                NSDecimalRound(&rounded, &quotient, 0, .down)
                candidate = rounded * step
                if highExclusive, candidate >= high { candidate -= step }
            }
        } else {
            if let low, lowExclusive, candidate <= low { candidate = low + (high.map { ($0 - low) / 2 } ?? 1) }
            if let high, highExclusive ? candidate >= high : candidate > high { candidate = high - 1 }
        }
        return NSDecimalNumber(decimal: candidate).stringValue
    }

    /// A string of the schema's format or pattern, of a length inside its bounds.
    private static func string(_ schema: JSON) -> String {
        let minimum = SchemaEvaluation.integer(schema["minLength"]) ?? 0
        let maximum = SchemaEvaluation.integer(schema["maxLength"]) ?? Int.max
        let fits = { (text: String) in (minimum...max(minimum, maximum)).contains(text.count) }
        if let sample = formatSample(schema["format"]?.string), fits(sample) { return sample }
        if let pattern = schema["pattern"]?.string, let sample = PatternSample.sample(pattern, minimumLength: minimum),
            fits(sample)
        {
            return sample
        }
        if fits("string") { return "string" }
        return String(repeating: "x", count: min(max(minimum, min(maximum, 1)), 10_000))
    }

    private static func formatSample(_ format: String?) -> String? {
        switch format {
        case "date-time": "2024-01-01T00:00:00Z"
        case "date": "2024-01-01"
        case "time": "12:00:00Z"
        case "email": "user@example.com"
        case "uuid": "00000000-0000-4000-8000-000000000000"
        case "uri", "url": "https://example.com"
        case "hostname": "example.com"
        case "ipv4": "192.0.2.1"
        case "ipv6": "2001:db8::1"
        case "byte": "ZXhhbXBsZQ=="
        case "password": "********"
        default: nil
        }
    }
}

extension JSON {
    var arrayValue: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

/// A string that matches a simple `pattern` (literals, classes, `\\d`/`\\w`, quantifiers, groups
/// of alternatives — the first taken), checked against the pattern before it is offered.
enum PatternSample {
    /// A sample at least `minimumLength` long when the pattern lets one grow (a `+`, `*` or open
    /// `{n,}` quantifier takes more of its unit).
    static func sample(_ pattern: String, minimumLength: Int = 0) -> String? {
        var characters = Array(pattern)[...]
        if characters.first == "^" { characters = characters.dropFirst() }
        if characters.last == "$", characters.dropLast().last != "\\" { characters = characters.dropLast() }
        guard case (var result, let grow)? = build(characters) else { return nil }
        if result.count < minimumLength, let grow {
            let at = result.index(result.startIndex, offsetBy: grow.offset)
            let missing = minimumLength - result.count
            let copies = (missing + grow.unit.count - 1) / max(grow.unit.count, 1)
            result.insert(contentsOf: String(repeating: grow.unit, count: copies), at: at)
        }
        guard let regex = PatternCache.shared.regex(pattern),
            regex.firstMatch(in: result, range: NSRange(result.startIndex..., in: result)) != nil
        else { return nil }
        return result
    }

    /// A string `characters` (no anchors) matches, and where its first repeatable unit sits.
    private static func build(_ pattern: ArraySlice<Character>) -> (String, grow: (offset: Int, unit: String)?)? {
        var characters = pattern
        var result = ""
        var grow: (offset: Int, unit: String)?
        while let first = characters.first {
            characters = characters.dropFirst()
            var unit: String
            switch first {
            case "(":
                // The group's first alternative, to its matching parenthesis.
                var depth = 1
                var end = characters.startIndex
                var bar: Int?
                while end < characters.endIndex {
                    switch characters[end] {
                    case "\\": end += 1
                    case "(": depth += 1
                    case ")": depth -= 1
                    case "|" where depth == 1 && bar == nil: bar = end
                    default: break
                    }
                    if depth == 0 { break }
                    end += 1
                }
                guard end < characters.endIndex else { return nil }
                var inner = characters[characters.startIndex..<(bar ?? end)]
                if inner.starts(with: ["?", ":"]) { inner = inner.dropFirst(2) }
                if inner.first == "?" { return nil }  // lookarounds, named groups
                guard let (text, _) = build(inner) else { return nil }
                unit = text
                characters = characters[(end + 1)...]
            case ")", "|", "^", "$": return nil
            case "\\":
                guard let escaped = characters.popFirst() else { return nil }
                switch escaped {
                case "d": unit = "0"
                case "w": unit = "a"
                case "s": unit = " "
                case "D", "W", "S", "b", "B": return nil
                default: unit = String(escaped)
                }
            case "[":
                guard let close = characters.firstIndex(of: "]") else { return nil }
                let set = characters[characters.startIndex..<close]
                characters = characters[characters.index(after: close)...]
                if set.first == "^" {
                    unit = set.contains("x") ? "y" : "x"
                } else if let start = set.first {
                    unit = start == "\\" ? (set.dropFirst().first == "d" ? "0" : "a") : String(start)
                } else {
                    return nil
                }
            case ".": unit = "a"
            default: unit = String(first)
            }
            var count = 1
            var growable = false
            switch characters.first {
            case "?":
                characters = characters.dropFirst()
                count = 0
            case "*":
                characters = characters.dropFirst()
                count = 0
                growable = true
            case "+":
                characters = characters.dropFirst()
                growable = true
            case "{":
                guard let close = characters.firstIndex(of: "}") else { return nil }
                let bounds = String(characters[characters.index(after: characters.startIndex)..<close])
                characters = characters[characters.index(after: close)...]
                let parts = bounds.split(separator: ",", omittingEmptySubsequences: false)
                guard let low = Int(parts.first ?? ""), low <= 10_000 else { return nil }
                count = low
                growable = parts.count == 2 && parts[1].isEmpty
            default: break
            }
            if growable, grow == nil, !unit.isEmpty { grow = (result.count, unit) }
            result += String(repeating: unit, count: count)
        }
        return (result, grow)
    }
}
