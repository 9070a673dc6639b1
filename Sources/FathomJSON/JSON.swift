/// A JSON value that keeps what Foundation loses: the order of object members, duplicate keys, and
/// the exact text of every number (`1.0`, `-0`, `1e3`, `12345678901234567890`).
public enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number as written in the source, validated against RFC 8259's grammar.
    case number(String)
    case string(String)
    case array([JSON])
    case object([Member])

    /// One object member. A struct rather than a tuple: tuples cost generic metadata look-ups.
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSON

        public init(key: String, value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the first member named `key`, when this is an object.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index`, when this is an array and the index is in range.
    public subscript(index: Int) -> JSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The kind of value, for messages: `null`, `boolean`, `number`, `string`, `array`, `object`.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
