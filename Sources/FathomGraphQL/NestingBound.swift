/// How deep a document's brackets nest, read before GraphQLSwift parses it.
///
/// Its parser recurses once per level, so a document of a million `[` would take the process
/// down with it. Strings, block strings and comments are skipped as the lexer skips them.
enum NestingBound {
    /// Deeper than any operation or schema people write (GitHub's deepest is under 20).
    static let limit = 256

    /// Whether `text` nests `{`, `[` and `(` deeper than ``limit``.
    static func exceeds(_ text: String) -> Bool {
        var depth = 0
        var bytes = text.utf8[...]
        while let byte = bytes.popFirst() {
            switch byte {
            case UInt8(ascii: "#"):
                while let next = bytes.first, next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r") {
                    bytes.removeFirst()
                }
            case UInt8(ascii: "\""):
                if bytes.starts(with: "\"\"".utf8) {
                    bytes.removeFirst(2)
                    while !bytes.isEmpty, !bytes.starts(with: "\"\"\"".utf8) {
                        if bytes.starts(with: "\\\"\"\"".utf8) { bytes.removeFirst(4) } else { bytes.removeFirst() }
                    }
                    bytes = bytes.dropFirst(3)
                } else {
                    while let next = bytes.popFirst(), next != UInt8(ascii: "\""), next != UInt8(ascii: "\n") {
                        if next == UInt8(ascii: "\\") { _ = bytes.popFirst() }
                    }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                depth -= 1
            default:
                continue
            }
        }
        return false
    }
}
