/// An HTTP request method, such as `GET` or `POST`.
///
/// Well-known methods are static members (`.get`, `.post`, …). Any other token can be written as a
/// string literal; it is upper-cased, as methods are case-sensitive and conventionally upper case
/// ([RFC 9110 §9.1](https://www.rfc-editor.org/rfc/rfc9110#section-9.1)).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public var description: String { rawValue }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"
    public static let trace: HTTPMethod = "TRACE"
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether sending the request twice has the same effect as sending it once
    /// ([RFC 9110 §9.2.2](https://www.rfc-editor.org/rfc/rfc9110#section-9.2.2)).
    ///
    /// Only idempotent requests are retried automatically.
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .options, .trace, .put, .delete: true
        default: false
        }
    }

    /// Whether a request with this method may carry a body.
    ///
    /// `GET`, `HEAD` and `TRACE` define no meaning for a body; Fathom refuses one rather than
    /// dropping it silently.
    public var permitsBody: Bool {
        switch self {
        case .get, .head, .trace: false
        default: true
        }
    }
}
