/// One query parameter. Names may repeat; a `nil` value is written as a bare name (`?verbose`).
public struct QueryItem: Hashable, Sendable {
    public var name: String
    public var value: String?

    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }

    /// The item percent-encoded for a query string: unreserved characters pass, space is `%20`.
    var encoded: String {
        let name = PercentEncoding.encode(name, as: .queryItem)
        guard let value else { return name }
        return name + "=" + PercentEncoding.encode(value, as: .queryItem)
    }
}

/// A value that can be written into a query string or a form.
public protocol QueryValueConvertible: Sendable {
    /// The text sent for this value.
    var queryValue: String { get }
}

extension String: QueryValueConvertible { public var queryValue: String { self } }
extension Substring: QueryValueConvertible { public var queryValue: String { String(self) } }
extension Int: QueryValueConvertible { public var queryValue: String { String(self) } }
extension Int64: QueryValueConvertible { public var queryValue: String { String(self) } }
extension UInt: QueryValueConvertible { public var queryValue: String { String(self) } }
extension Double: QueryValueConvertible { public var queryValue: String { String(self) } }
extension Bool: QueryValueConvertible { public var queryValue: String { self ? "true" : "false" } }
