/// One query parameter.
///
/// Names may repeat; a `nil` value is written as a bare name (`?verbose`).
public struct QueryItem: Hashable, Sendable {
    /// The item's name, not yet encoded.
    public var name: String
    /// The item's value, not yet encoded; `nil` for a name alone (`?flag`).
    public var value: String?

    /// An item from its name and value.
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

extension String: QueryValueConvertible {
    /// The string itself.
    public var queryValue: String { self }
}
extension Substring: QueryValueConvertible {
    /// The substring as a string.
    public var queryValue: String { String(self) }
}
extension Int: QueryValueConvertible {
    /// The number in decimal.
    public var queryValue: String { String(self) }
}
extension Int64: QueryValueConvertible {
    /// The number in decimal.
    public var queryValue: String { String(self) }
}
extension UInt: QueryValueConvertible {
    /// The number in decimal.
    public var queryValue: String { String(self) }
}
extension Double: QueryValueConvertible {
    /// The number as Swift writes it (`1.5`).
    public var queryValue: String { String(self) }
}
extension Bool: QueryValueConvertible {
    /// `true` or `false`.
    public var queryValue: String { self ? "true" : "false" }
}
