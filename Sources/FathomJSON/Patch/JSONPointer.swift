/// A JSON Pointer ([RFC 6901](https://www.rfc-editor.org/rfc/rfc6901)): `/users/0/name`.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The reference tokens, unescaped.
    public let tokens: [String]

    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses pointer text; `""` is the whole document.
    public init(parsing text: String) throws(JSONPatchError) {
        guard !text.isEmpty else {
            tokens = []
            return
        }
        guard text.hasPrefix("/") else { throw JSONPatchError(reason: "pointer '\(text)' must start with '/'") }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let c = iterator.next() {
                guard c == "~" else {
                    token.append(c)
                    continue
                }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw JSONPatchError(reason: "pointer '\(text)' has '~' not followed by 0 or 1")
                }
            }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// The pointer to the same place as a normalized path.
    public init(_ path: NormalizedPath) {
        tokens = path.components.map { component in
            switch component {
            case .name(let name): name
            case .index(let index): String(index)
            }
        }
    }

    public var description: String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
            .joined()
    }

    /// The array index a token names (no sign, no leading zeros), or `nil`.
    static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            token == "0" || !token.hasPrefix("0")
        else { return nil }
        return Int(token)
    }
}

extension JSON {
    /// The value a pointer refers to, or `nil`. Where a key is duplicated, the first member is meant,
    /// as with ``subscript(_:)-(String)`` and JSONPath name selectors.
    public func value(at pointer: JSONPointer) -> JSON? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return nil }
                current = member.value
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
