import Foundation

extension NetworkClient {
    /// Sends all `requests` with at most `maxConcurrent` in flight at once.
    ///
    /// Results come back in the order of `requests`, one per request, each a response or the error
    /// for that request; one failure does not stop the others. Cancelling the calling task cancels
    /// every request still running or waiting, and those results are ``NetworkError/cancelled(after:)``.
    ///
    /// - Parameters:
    ///   - requests: The requests to send.
    ///   - maxConcurrent: The most requests in flight at once; 6 by default, at least 1.
    /// - Returns: A result per request, in the order of `requests`.
    public func sendAll(
        _ requests: [NetworkRequest], maxConcurrent: Int = 6
    ) async
        -> [Result<NetworkResponse<Data>, NetworkError>]
    {
        let limit = max(1, maxConcurrent)
        var results = [Result<NetworkResponse<Data>, NetworkError>?](repeating: nil, count: requests.count)
        await withTaskGroup(of: (Int, Result<NetworkResponse<Data>, NetworkError>).self) { group in
            var nextIndex = 0
            func startNext() {
                guard nextIndex < requests.count else { return }
                let index = nextIndex
                let request = requests[index]
                nextIndex += 1
                group.addTask {
                    if Task.isCancelled { return (index, .failure(.cancelled(after: nil))) }
                    return (index, await self.result(of: request))
                }
            }
            for _ in 0..<min(limit, requests.count) { startNext() }
            for await (index, result) in group {
                results[index] = result
                startNext()
            }
        }
        return results.map { $0 ?? .failure(.cancelled(after: nil)) }
    }

    /// Sends `request` and returns the response or the error as a `Result`.
    public func result(of request: NetworkRequest) async -> Result<NetworkResponse<Data>, NetworkError> {
        do throws(NetworkError) {
            return .success(try await send(request))
        } catch {
            return .failure(error)
        }
    }
}
