/// An HTTP request method, such as `GET` or `POST`.
///
/// Well-known methods are static members (`.get`, `.post`, …). Any other token can be written as a
/// string literal and is sent as written: methods are case-sensitive
/// ([RFC 9110 §9.1](https://www.rfc-editor.org/rfc/rfc9110#section-9.1)), so `"get"` is not `.get`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
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
    /// Only `TRACE` forbids one ([RFC 9110 §9.3.8](https://www.rfc-editor.org/rfc/rfc9110#section-9.3.8)),
    /// and Fathom refuses it rather than dropping it silently. A body on `GET` or `HEAD` has no
    /// generally defined meaning, but some APIs (search engines, for one) expect it, and curl sends
    /// it: it is sent as given.
    public var permitsBody: Bool { self != .trace }
}
