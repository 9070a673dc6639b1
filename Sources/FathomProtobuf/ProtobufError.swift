/// Why descriptors could not be linked or a message could not be read or written: one line, saying
/// where (a file, a type, a field path, a byte offset) and what.
///
/// Every input FathomProtobuf reads comes from outside — a server's reflection answer, a
/// protoset file, a message on the wire, JSON a person typed — so nothing it reads traps: each
/// problem is one of these.
public struct ProtobufError: Error, Hashable, Sendable, CustomStringConvertible {
    private let detail: String
    /// The fields from the outermost message down to where it happened (`friend`, `tags`, `[2]`).
    private var path: [String] = []
    /// The type of the outermost message on the path.
    private var root: String?

    /// Makes an error saying `message`.
    public init(_ message: String) {
        detail = message
    }

    /// What went wrong, as one line: the field path (a long one shortened in the middle) and what.
    public var message: String {
        guard let root, !path.isEmpty else { return detail }
        let shown = path.count > 8 ? path.prefix(4) + ["…(\(path.count) fields deep)…"] + path.suffix(3) : path[...]
        var text = root
        for part in shown { text += part.hasPrefix("[") ? part : "." + part }
        return text + ": " + detail
    }

    /// The message.
    public var description: String { message }

    /// Whether two errors say the same.
    public static func == (lhs: ProtobufError, rhs: ProtobufError) -> Bool { lhs.message == rhs.message }

    /// Hashes what it says.
    public func hash(into hasher: inout Hasher) { hasher.combine(message) }

    /// This error as it happened inside `field` of a message of type `type`.
    func inside(_ type: String, field: String) -> ProtobufError {
        var copy = self
        copy.path.insert(field, at: 0)
        copy.root = type
        return copy
    }

    /// This error as it happened at element `index` of a repeated field.
    func atElement(_ index: Int) -> ProtobufError {
        var copy = self
        copy.path.insert("[\(index)]", at: 0)
        return copy
    }
}
