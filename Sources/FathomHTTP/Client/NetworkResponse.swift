import Foundation

/// A response: status, headers, the body as `Body`, and what it took to get it.
public struct NetworkResponse<Body> {
    /// The status.
    public var status: HTTPStatus
    /// The header fields, in the order they came.
    public var headers: NetworkHeaders
    /// The body: the bytes, or what a decoder made of them.
    public var body: Body
    /// `HTTP/1.1`, `HTTP/2`, ….
    public var httpVersion: String
    /// The request as it was actually sent (after interceptors; the last one when redirected).
    public var request: PreparedRequest
    /// The URLs redirected from, in order; empty when there was no redirect.
    public var redirects: [RequestURL]
    /// When the first byte came and when the whole response had.
    public var timing: Timing

    /// How long the response took.
    public typealias Timing = ResponseTiming

    /// A response; `redirects` are the URLs followed before it, `timing` how long it took.
    public init(
        status: HTTPStatus, headers: NetworkHeaders = NetworkHeaders(), body: Body, httpVersion: String = "HTTP/1.1",
        request: PreparedRequest, redirects: [RequestURL] = [], timing: Timing = Timing(firstByte: .zero, total: .zero)
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
        self.request = request
        self.redirects = redirects
        self.timing = timing
    }

    /// The URL the response came from.
    public var url: RequestURL { request.url }

    /// The same response with another body.
    @_spi(Fathom) public func withBody<Other>(_ body: Other) -> NetworkResponse<Other> {
        NetworkResponse<Other>(
            status: status, headers: headers, body: body, httpVersion: httpVersion, request: request,
            redirects: redirects, timing: timing)
    }

    /// The response's `Content-Type`, if any.
    public var contentType: String? { headers[.contentType] }
}

extension NetworkResponse: Sendable where Body: Sendable {}

/// How long a response took.
public struct ResponseTiming: Hashable, Sendable {
    /// From sending the request to receiving the response head (time to first byte).
    public var firstByte: Duration
    /// From sending the request to the last byte of the body.
    public var total: Duration

    /// Timings from the first byte and the whole response.
    public init(firstByte: Duration, total: Duration) {
        self.firstByte = firstByte
        self.total = total
    }
}
