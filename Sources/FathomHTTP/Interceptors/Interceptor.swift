import Foundation

/// A step around the transport: it may change the request, send it (or not) through `next`, look at
/// the response, and send again.
///
/// Interceptors run in the order the client lists them: the first is outermost. A typical order is
/// `[.deduplicating(), .defaultHeaders(…), .authenticator(…), .retry(…), .signing(…)]`, so that a
/// retried request is signed afresh and authentication wraps the retries.
public protocol Interceptor: Sendable {
    /// Sends `request` on through `next` and returns the response, changed or not.
    func intercept(_ request: PreparedRequest, next: @escaping Next) async throws -> NetworkResponse<Data>
}

/// The rest of the chain after an interceptor.
public typealias Next = @Sendable (PreparedRequest) async throws -> NetworkResponse<Data>

/// An interceptor backed by a closure.
public struct ClosureInterceptor: Interceptor {
    private let body: @Sendable (PreparedRequest, @escaping Next) async throws -> NetworkResponse<Data>

    /// An interceptor from a closure that gets the request and the rest of the chain.
    public init(_ body: @escaping @Sendable (PreparedRequest, @escaping Next) async throws -> NetworkResponse<Data>) {
        self.body = body
    }

    /// Runs the closure.
    public func intercept(_ request: PreparedRequest, next: @escaping Next) async throws -> NetworkResponse<Data> {
        try await body(request, next)
    }
}

extension Interceptor where Self == ClosureInterceptor {
    /// An interceptor that runs `body`.
    public static func intercept(
        _ body: @escaping @Sendable (PreparedRequest, @escaping Next) async throws -> NetworkResponse<Data>
    ) -> ClosureInterceptor {
        ClosureInterceptor(body)
    }

    /// An interceptor that changes each request before it is sent.
    public static func adapt(
        _ adapt: @escaping @Sendable (inout PreparedRequest) async throws -> Void
    )
        -> ClosureInterceptor
    {
        ClosureInterceptor { request, next in
            var request = request
            try await adapt(&request)
            return try await next(request)
        }
    }
}

/// Builds the chain `interceptors[0] → … → interceptors[n-1] → transport`.
enum InterceptorChain {
    static func make(_ interceptors: [any Interceptor], ending last: @escaping Next) -> Next {
        interceptors.reversed().reduce(last) { next, interceptor in
            { @Sendable request in try await interceptor.intercept(request, next: next) }
        }
    }
}

/// Adds header fields that a request does not set itself.
public struct DefaultHeadersInterceptor: Interceptor {
    /// The headers added to every request that does not set them itself.
    public var headers: NetworkHeaders

    /// Adds `headers` to every request that does not set them itself.
    public init(_ headers: NetworkHeaders) {
        self.headers = headers
    }

    /// Sends the request with the missing headers added.
    public func intercept(_ request: PreparedRequest, next: @escaping Next) async throws -> NetworkResponse<Data> {
        var request = request
        request.headers.addMissing(from: headers)
        return try await next(request)
    }
}

extension Interceptor where Self == DefaultHeadersInterceptor {
    /// Adds `headers` to every request that does not set them itself.
    public static func defaultHeaders(_ headers: NetworkHeaders) -> DefaultHeadersInterceptor {
        DefaultHeadersInterceptor(headers)
    }
}
