import Foundation
import Synchronization

/// A canned response for ``MockTransport``.
public struct MockResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: NetworkHeaders
    /// The body.
    public var body: Data
    /// When set, the response is built by this closure instead.
    var handler: (@Sendable (PreparedRequest) async throws -> MockResponse)?

    /// A response from its parts.
    public init(status: Int = 200, headers: NetworkHeaders = NetworkHeaders(), body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with these bytes.
    public static func data(_ data: Data, status: Int = 200, contentType: String? = nil) -> MockResponse {
        var headers = NetworkHeaders()
        if let contentType { headers.add(.contentType, contentType) }
        return MockResponse(status: status, headers: headers, body: data)
    }

    /// A JSON response with this text.
    public static func json(_ text: String, status: Int = 200) -> MockResponse {
        .data(Data(text.utf8), status: status, contentType: MediaType.json)
    }

    /// A response with the contents of a file, typed by its extension.
    ///
    /// - Throws: ``NetworkError/file(path:reason:)`` when it cannot be read.
    public static func file(_ path: String, status: Int = 200) throws(NetworkError) -> MockResponse {
        .data(try FileBody.readAll(path), status: status, contentType: MediaType.guess(forPath: path))
    }

    /// An empty response with this status.
    public static func status(_ code: Int) -> MockResponse {
        MockResponse(status: code)
    }

    /// A response built from the request.
    public static func handler(
        _ body: @escaping @Sendable (PreparedRequest) async throws -> MockResponse
    ) -> MockResponse {
        var response = MockResponse()
        response.handler = body
        return response
    }
}

/// A transport that answers from registered responses, for unit tests and offline work.
///
/// A response is registered for a path substring; the first registration whose substring occurs in
/// the request's path and query wins, so register `"category/some-title"` before `"category"`.
/// A request with no match goes to the `fallback` transport when there is one, and otherwise fails
/// with ``NetworkError/noMock(path:)``. Every request is recorded in ``requests``.
public final class MockTransport: Transport {
    private struct State {
        var routes: [(pattern: String, response: MockResponse)] = []
        var requests: [PreparedRequest] = []
    }

    private let state = Mutex(State())
    private let fallback: (any Transport)?

    /// - Parameter fallback: Where unmatched requests go; `nil` makes them fail.
    public init(fallback: (any Transport)? = nil) {
        self.fallback = fallback
    }

    /// Answers requests whose path contains `pathSubstring` with `response`.
    public func register(_ pathSubstring: String, _ response: MockResponse) {
        state.withLock { $0.routes.append((pathSubstring, response)) }
    }

    /// Removes the registrations for `pathSubstring`.
    public func unregister(_ pathSubstring: String) {
        state.withLock { $0.routes.removeAll { $0.pattern == pathSubstring } }
    }

    /// Removes every registration and recorded request.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// The registered path substrings in match order.
    @_spi(Fathom) public var patterns: [String] { state.withLock { $0.routes.map(\.pattern) } }

    /// The requests received, in order.
    public var requests: [PreparedRequest] { state.withLock { $0.requests } }

    /// The first registered response whose path matches, or the fallback's; else ``NetworkError/noMock(path:)``.
    public func send(_ request: PreparedRequest) async throws -> NetworkResponse<Data> {
        let target = request.url.pathAndQuery
        let match = state.withLock { state -> MockResponse? in
            state.requests.append(request)
            return state.routes.first { target.contains($0.pattern) }?.response
        }
        guard var response = match else {
            if let fallback { return try await fallback.send(request) }
            throw NetworkError.noMock(path: target)
        }
        try Task.checkCancellation()
        if let handler = response.handler {
            response = try await handler(request)
        }
        var headers = response.headers
        if !headers.contains(.contentLength) { headers.add(.contentLength, String(response.body.count)) }
        return NetworkResponse(
            status: HTTPStatus(code: response.status), headers: headers,
            body: request.method == .head ? Data() : response.body, httpVersion: "HTTP/1.1", request: request)
    }
}
