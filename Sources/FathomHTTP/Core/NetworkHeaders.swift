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

        /// A name as written; it compares case-insensitively.
        public init(_ name: String) {
            self.rawName = name
            self.canonicalName = name.lowercased()
        }

        /// A name from a string literal: `"X-Trace"`.
        public init(stringLiteral value: String) {
            self.init(value)
        }

        /// The name as it was written.
        public var description: String { rawName }

        /// Whether two names are the same, case aside.
        public static func == (lhs: Name, rhs: Name) -> Bool { lhs.canonicalName == rhs.canonicalName }
        /// Hashes the lower-cased name, as names compare.
        public func hash(into hasher: inout Hasher) { hasher.combine(canonicalName) }

        /// `Accept`: the media types a response may have.
        public static let accept: Name = "Accept"
        /// `Accept-Encoding`: the content codings a response may use.
        public static let acceptEncoding: Name = "Accept-Encoding"
        /// `Authorization`: the request's credentials.
        public static let authorization: Name = "Authorization"
        /// `Content-Encoding`: the coding a body is in (`gzip`).
        public static let contentEncoding: Name = "Content-Encoding"
        /// `Content-Length`: the body's size in bytes.
        public static let contentLength: Name = "Content-Length"
        /// `Content-Type`: the body's media type.
        public static let contentType: Name = "Content-Type"
        /// `Cookie`: the cookies a request carries.
        public static let cookie: Name = "Cookie"
        /// `Host`: the request's authority.
        public static let host: Name = "Host"
        /// `Link`: related resources ([RFC 8288](https://www.rfc-editor.org/rfc/rfc8288)), pagination among them.
        public static let link: Name = "Link"
        /// `Location`: where a redirect or a created resource is.
        public static let location: Name = "Location"
        /// `Proxy-Authorization`: credentials for a proxy.
        public static let proxyAuthorization: Name = "Proxy-Authorization"
        /// `Retry-After`: how long to wait before trying again.
        public static let retryAfter: Name = "Retry-After"
        /// `Set-Cookie`: a cookie a response sets.
        public static let setCookie: Name = "Set-Cookie"
        /// `User-Agent`: the client that sends the request.
        public static let userAgent: Name = "User-Agent"
        /// `X-API-Key`: an API key, where an API takes one in a header.
        public static let xAPIKey: Name = "X-API-Key"
    }

    /// One header field: a name and its value.
    public struct Field: Hashable, Sendable {
        /// The field's name.
        public var name: Name
        /// The field's value, as it goes on the wire.
        public var value: String

        /// A field from its name and value.
        public init(name: Name, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    /// Fields from name and value pairs, in order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: Name($0.0), value: $0.1) }
    }

    /// Fields from a dictionary literal, in the order written: `["Accept": "application/json"]`.
    public init(dictionaryLiteral elements: (Name, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value for `name`, or `nil`.
    ///
    /// Setting replaces every value; `nil` removes them.
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

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }
    /// How many fields there are, repeated names counted each time.
    public var count: Int { fields.count }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// The fields as `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: "\n")
    }
}
