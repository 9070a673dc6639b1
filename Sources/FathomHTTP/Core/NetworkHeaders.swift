/// An ordered list of HTTP header fields with case-insensitive names.
///
/// Names compare case-insensitively ([RFC 9110 §5.1](https://www.rfc-editor.org/rfc/rfc9110#section-5.1))
/// but keep the spelling they were added with. A name may occur several times; ``values(for:)``
/// returns every value in order.
public struct NetworkHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// A header field name.
    public struct Name: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name as it was written.
        public let rawName: String
        /// The lower-cased name used for comparison.
        public let canonicalName: String

        public init(_ name: String) {
            self.rawName = name
            self.canonicalName = name.lowercased()
        }

        public init(stringLiteral value: String) {
            self.init(value)
        }

        public var description: String { rawName }

        public static func == (lhs: Name, rhs: Name) -> Bool { lhs.canonicalName == rhs.canonicalName }
        public func hash(into hasher: inout Hasher) { hasher.combine(canonicalName) }

        public static let accept: Name = "Accept"
        public static let acceptEncoding: Name = "Accept-Encoding"
        public static let authorization: Name = "Authorization"
        public static let contentEncoding: Name = "Content-Encoding"
        public static let contentLength: Name = "Content-Length"
        public static let contentType: Name = "Content-Type"
        public static let cookie: Name = "Cookie"
        public static let host: Name = "Host"
        public static let link: Name = "Link"
        public static let location: Name = "Location"
        public static let proxyAuthorization: Name = "Proxy-Authorization"
        public static let retryAfter: Name = "Retry-After"
        public static let setCookie: Name = "Set-Cookie"
        public static let userAgent: Name = "User-Agent"
        public static let xAPIKey: Name = "X-API-Key"
    }

    /// One header field: a name and its value.
    public struct Field: Hashable, Sendable {
        public var name: Name
        public var value: String

        public init(name: Name, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field] = []

    public init() {}

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: Name($0.0), value: $0.1) }
    }

    public init(dictionaryLiteral elements: (Name, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value for `name`, or `nil`. Setting replaces every value; `nil` removes them.
    public subscript(name: Name) -> String? {
        get { fields.first { $0.name == name }?.value }
        set {
            if let newValue { replace(name, with: newValue) } else { remove(name) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: Name) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// Whether at least one field has this name.
    public func contains(_ name: Name) -> Bool {
        fields.contains { $0.name == name }
    }

    /// Adds a field, keeping any earlier fields of the same name.
    public mutating func add(_ name: Name, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name with one field.
    public mutating func replace(_ name: Name, with value: String) {
        guard let index = fields.firstIndex(where: { $0.name == name }) else {
            add(name, value)
            return
        }
        let rest = fields[(index + 1)...].filter { $0.name != name }
        fields = Array(fields[..<index]) + [Field(name: name, value: value)] + rest
    }

    /// Removes every field of this name.
    public mutating func remove(_ name: Name) {
        fields.removeAll { $0.name == name }
    }

    /// Adds every field of `other` whose name is not present yet.
    public mutating func addMissing(from other: NetworkHeaders) {
        let present = Set(fields.map(\.name))
        for field in other.fields where !present.contains(field.name) {
            fields.append(field)
        }
    }

    public var isEmpty: Bool { fields.isEmpty }
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    public var description: String {
        fields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: "\n")
    }
}
