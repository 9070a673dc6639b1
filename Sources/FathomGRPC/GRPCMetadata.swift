/// Metadata sent or received with a call: names (lower case) and values in order, a name
/// ending `-bin` holding bytes.
public struct GRPCMetadata: Hashable, Sendable {
    /// One entry.
    public struct Entry: Hashable, Sendable {
        /// The name, lower case.
        public let name: String
        /// The value: text, or bytes for a `-bin` name.
        public let value: Value

        /// An entry.
        public init(name: String, value: Value) {
            self.name = name.lowercased()
            self.value = value
        }
    }

    /// A value: text, or bytes.
    public enum Value: Hashable, Sendable {
        /// Text.
        case text(String)
        /// Bytes (a `-bin` name).
        case bytes([UInt8])
    }

    /// The entries, in order.
    public var entries: [Entry]

    /// Metadata of `entries`.
    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// Adds a text value, or bytes when the name ends in `-bin`.
    public mutating func add(_ name: String, _ text: String) {
        entries.append(Entry(name: name, value: .text(text)))
    }

    /// The text values named `name`.
    public subscript(name: String) -> [String] {
        let key = name.lowercased()
        return entries.compactMap { entry in
            guard entry.name == key, case .text(let text) = entry.value else { return nil }
            return text
        }
    }

    /// The byte values named `name`.
    public func bytes(_ name: String) -> [[UInt8]] {
        let key = name.lowercased()
        return entries.compactMap { entry in
            guard entry.name == key, case .bytes(let bytes) = entry.value else { return nil }
            return bytes
        }
    }
}
