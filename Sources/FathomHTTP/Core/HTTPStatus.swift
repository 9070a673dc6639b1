/// An HTTP response status: the code and the reason phrase the server sent.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code.
    public let code: Int
    /// The reason phrase the server sent, or the standard one for the code.
    public let reasonPhrase: String

    /// A status from its code; without a phrase, the standard one (`404` → `Not Found`).
    public init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? HTTPStatus.standardReason(for: code)
    }

    /// The class of the status ([RFC 9110 §15](https://www.rfc-editor.org/rfc/rfc9110#section-15)).
    public enum Category: Sendable {
        case informational, success, redirection, clientError, serverError, unknown
    }

    /// Whether the status is informational, a success, a redirect, a client or a server error.
    public var category: Category {
        switch code {
        case 100..<200: .informational
        case 200..<300: .success
        case 300..<400: .redirection
        case 400..<500: .clientError
        case 500..<600: .serverError
        default: .unknown
        }
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { category == .success }

    /// `404 Not Found`.
    public var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }

    /// Whether two statuses have the same code (phrases aside).
    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }
    /// Hashes the code, as statuses compare.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `200 OK`.
    public static let ok = HTTPStatus(code: 200)
    /// `201 Created`.
    public static let created = HTTPStatus(code: 201)
    /// `204 No Content`.
    public static let noContent = HTTPStatus(code: 204)
    /// `401 Unauthorized`.
    public static let unauthorized = HTTPStatus(code: 401)
    /// `404 Not Found`.
    public static let notFound = HTTPStatus(code: 404)

    static func standardReason(for code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
