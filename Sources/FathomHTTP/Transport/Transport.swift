import Foundation

/// Sends one prepared request and returns the whole response.
///
/// ``AsyncHTTPClientTransport`` goes to the network; ``MockTransport`` answers from registered
/// responses for unit tests. A transport throws ``NetworkError`` and honours task cancellation.
public protocol Transport: Sendable {
    func send(_ request: PreparedRequest) async throws -> NetworkResponse<Data>

    /// Opens up to `count` connections for requests like `request` ahead of a batch, so that
    /// the batch's clock times requests rather than handshakes; a failure is left for the
    /// requests to meet.
    func openConnections(for request: PreparedRequest, count: Int) async
}

extension Transport {
    /// Opens none: connections are made as requests need them.
    public func openConnections(for request: PreparedRequest, count: Int) async {}
}

/// A transport backed by a closure, for tests and adapters.
public struct ClosureTransport: Transport {
    private let body: @Sendable (PreparedRequest) async throws -> NetworkResponse<Data>

    /// A transport from a closure.
    public init(_ body: @escaping @Sendable (PreparedRequest) async throws -> NetworkResponse<Data>) {
        self.body = body
    }

    /// What the closure answers.
    public func send(_ request: PreparedRequest) async throws -> NetworkResponse<Data> {
        try await body(request)
    }
}

extension Transport where Self == ClosureTransport {
    /// A transport that answers with `body`.
    public static func closure(
        _ body: @escaping @Sendable (PreparedRequest) async throws -> NetworkResponse<Data>
    ) -> ClosureTransport {
        ClosureTransport(body)
    }
}
