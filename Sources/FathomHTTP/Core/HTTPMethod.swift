/// An HTTP request method, such as `GET` or `POST`.
///
/// Well-known methods are static members (`.get`, `.post`, …). Any other token can be written as a
/// string literal and is sent as written: methods are case-sensitive
/// ([RFC 9110 §9.1](https://www.rfc-editor.org/rfc/rfc9110#section-9.1)), so `"get"` is not `.get`.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's token, exactly as sent: methods are case-sensitive ([RFC 9110 §9.1](https://www.rfc-editor.org/rfc/rfc9110#section-9.1)).
    public let rawValue: String

    /// A method from its token, as written.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A method from a string literal: `"PURGE"`.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The method's token.
    public var description: String { rawValue }

    /// `GET`: read a resource.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: `GET` without the body.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`: process the body.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a resource with the body.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: change part of a resource ([RFC 5789](https://www.rfc-editor.org/rfc/rfc5789)).
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: remove a resource.
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`: what the server allows.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`: the request echoed back; it may carry no body.
    public static let trace: HTTPMethod = "TRACE"
    /// `CONNECT`: a tunnel, as proxies open one.
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
