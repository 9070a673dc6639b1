import Foundation

/// Cancels work started with a completion handler.
public struct CancellationHandle: Sendable {
    private let task: Task<Void, Never>

    init(_ task: Task<Void, Never>) {
        self.task = task
    }

    /// Cancels the work; its completion handler receives ``NetworkError/cancelled(after:)``.
    public func cancel() { task.cancel() }

    /// Whether the request was cancelled.
    public var isCancelled: Bool { task.isCancelled }
}

extension NetworkClient {
    /// Sends `request` and calls `completion` with the response or the error.
    ///
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func send(
        _ request: NetworkRequest,
        completion: @escaping @Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void
    ) -> CancellationHandle {
        CancellationHandle(Task { completion(await self.result(of: request)) })
    }

    /// Sends `request`, decodes a successful JSON response as `type`, and calls `completion`.
    @discardableResult
    public func send<Value: Decodable & Sendable>(
        _ request: NetworkRequest, as type: Value.Type,
        completion: @escaping @Sendable (Result<NetworkResponse<Value>, any Error>) -> Void
    ) -> CancellationHandle {
        CancellationHandle(
            Task {
                do {
                    completion(.success(try await self.send(request, as: type)))
                } catch {
                    completion(.failure(error))
                }
            })
    }

    /// Sends all `requests` with at most `maxConcurrent` in flight and calls `completion` with the
    /// results in the order of `requests`.
    ///
    /// - Returns: A handle whose `cancel()` cancels every request of the batch.
    @discardableResult
    public func sendAll(
        _ requests: [NetworkRequest], maxConcurrent: Int = 6,
        completion: @escaping @Sendable ([Result<NetworkResponse<Data>, NetworkError>]) -> Void
    ) -> CancellationHandle {
        CancellationHandle(Task { completion(await self.sendAll(requests, maxConcurrent: maxConcurrent)) })
    }
}
