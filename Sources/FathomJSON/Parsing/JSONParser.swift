/// Builds a ``JSON`` tree from bytes (strict [RFC 8259](https://www.rfc-editor.org/rfc/rfc8259)).
///
/// Children are collected on reusable scratch stacks and moved into exactly-sized arrays when
/// their container closes, so no array grows geometrically and no partial array is copied.
struct JSONParser {
    var lexer: JSONLexer
    let maxDepth: Int
    private var text: [UInt8] = []
    private var values: [JSON] = []
    private var members: [JSON.Member] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, options: JSON.ParsingOptions) {
        lexer = JSONLexer(bytes, lenient: options.lenientUTF8)
        maxDepth = options.maxDepth
    }

    mutating func document() throws(LexError) -> JSON {
        lexer.skipWhitespace()
        guard !lexer.isAtEnd else { throw lexer.error("empty input: expected a JSON value") }
        let value = try self.value(depth: 0)
        lexer.skipWhitespace()
        guard lexer.isAtEnd else {
            throw lexer.error("unexpected \(lexer.currentDescription) after the JSON value")
        }
        return value
    }

    private mutating func value(depth: Int) throws(LexError) -> JSON {
        switch lexer.current {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try lexer.literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try lexer.literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try lexer.literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let range = try lexer.number()
            return .number(String(decoding: UnsafeBufferPointer(rebasing: lexer.bytes[range]), as: UTF8.self))
        default:
            throw lexer.error("expected a value, found \(lexer.currentDescription)")
        }
    }

    /// A string token; one without escapes is made straight from the input bytes.
    private mutating func string() throws(LexError) -> String {
        if let range = lexer.plainString() {
            return String(
                decoding: UnsafeBufferPointer(rebasing: lexer.bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]),
                as: UTF8.self)
        }
        try lexer.string(into: &text)
        // The lexer has validated (or repaired) the UTF-8 already.
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func array(depth: Int) throws(LexError) -> JSON {
        guard depth < maxDepth else { throw lexer.error("nesting deeper than \(maxDepth) levels") }
        lexer.index += 1
        lexer.skipWhitespace()
        if lexer.current == UInt8(ascii: "]") {
            lexer.index += 1
            return .array([])
        }
        let base = values.count
        while true {
            values.append(try value(depth: depth + 1))
            lexer.skipWhitespace()
            switch lexer.current {
            case UInt8(ascii: ","):
                lexer.index += 1
                lexer.skipWhitespace()
            case UInt8(ascii: "]"):
                lexer.index += 1
                let elements = Array(values[base...])
                values.removeSubrange(base...)
                return .array(elements)
            default:
                throw lexer.error("expected ',' or ']' in array, found \(lexer.currentDescription)")
            }
        }
    }

    private mutating func object(depth: Int) throws(LexError) -> JSON {
        guard depth < maxDepth else { throw lexer.error("nesting deeper than \(maxDepth) levels") }
        lexer.index += 1
        lexer.skipWhitespace()
        if lexer.current == UInt8(ascii: "}") {
            lexer.index += 1
            return .object([])
        }
        let base = members.count
        while true {
            guard lexer.current == UInt8(ascii: "\"") else {
                throw lexer.error("expected a string key in object, found \(lexer.currentDescription)")
            }
            let key = try string()
            lexer.skipWhitespace()
            guard lexer.current == UInt8(ascii: ":") else {
                throw lexer.error("expected ':' after object key, found \(lexer.currentDescription)")
            }
            lexer.index += 1
            lexer.skipWhitespace()
            members.append(JSON.Member(key: key, value: try value(depth: depth + 1)))
            lexer.skipWhitespace()
            switch lexer.current {
            case UInt8(ascii: ","):
                lexer.index += 1
                lexer.skipWhitespace()
            case UInt8(ascii: "}"):
                lexer.index += 1
                let result = Array(members[base...])
                members.removeSubrange(base...)
                return .object(result)
            default:
                throw lexer.error("expected ',' or '}' in object, found \(lexer.currentDescription)")
            }
        }
    }
}
