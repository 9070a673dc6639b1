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
        var results = [Result<NetworkResponse<Data>, NetworkError>?](repeating: nil, count: requests.count)
        // A request that cannot be prepared is its own failure; the others go as one scheduled batch.
        var ready: [(index: Int, request: PreparedRequest)] = []
        for (index, request) in requests.enumerated() {
            do throws(NetworkError) {
                ready.append((index, try prepared(request)))
            } catch {
                results[index] = .failure(error)
            }
        }
        if !ready.isEmpty {
            _ = await send(BatchPlan(count: ready.count, maxConcurrent: max(1, maxConcurrent))) { position in
                ready[position].request
            } handle: { done in
                results[ready[done.index].index] = done.result
            }
        }
        // What a cancelled batch never finished (abandoned in flight, or never started).
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
