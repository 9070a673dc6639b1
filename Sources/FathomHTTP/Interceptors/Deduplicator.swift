import Foundation

/// Shares one network call among identical requests in flight at the same time.
///
/// Requests are identical when method, URL, headers (names compared case-insensitively, values
/// exactly) and body bytes are all the same. The first one is sent; the others wait for its response
/// and each gets a copy. A caller that is cancelled stops waiting at once; the shared call is
/// cancelled only when every caller has gone. Requests streaming a file body are never shared.
public final class Deduplicator: Interceptor {
    private let registry = Registry()

    /// A de-duplicator with nothing in flight.
    public init() {}

    /// Sends the request, or waits for the identical request already in flight and shares its response.
    public func intercept(_ request: PreparedRequest, next: @escaping Next) async throws -> NetworkResponse<Data> {
        guard let key = Key(request) else { return try await next(request) }
        let id = UUID()
        let registry = self.registry
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Task { await registry.join(key, id: id, continuation: continuation) { try await next(request) } }
            }
        } onCancel: {
            Task { await registry.leave(key, id: id) }
        }
    }

    /// How many distinct requests are in flight.
    @_spi(Fathom) public var inFlightCount: Int {
        get async { await registry.count }
    }

    /// How many callers wait on the requests in flight (tests wait for this rather than a clock).
    var waitingCount: Int {
        get async { await registry.waiting }
    }

    struct Key: Hashable, Sendable {
        let method: HTTPMethod
        let url: String
        let headers: [String]
        let body: Data?

        init?(_ request: PreparedRequest) {
            if case .file = request.body { return nil }
            method = request.method
            url = request.url.description
            headers = request.headers.fields.map { "\($0.name.canonicalName):\($0.value)" }.sorted()
            if case .bytes(let data) = request.body { body = data } else { body = nil }
        }
    }

    actor Registry {
        typealias Waiter = CheckedContinuation<NetworkResponse<Data>, any Error>

        struct Entry {
            let token = UUID()
            var task: Task<Void, Never>?
            var waiters: [UUID: Waiter]
        }

        private var entries: [Key: Entry] = [:]
        private var leftBeforeJoining: Set<UUID> = []

        var count: Int { entries.count }
        var waiting: Int { entries.values.reduce(0) { $0 + $1.waiters.count } }

        func join(
            _ key: Key, id: UUID, continuation: Waiter,
            operation: @escaping @Sendable () async throws -> NetworkResponse<Data>
        ) {
            if leftBeforeJoining.remove(id) != nil {
                continuation.resume(throwing: CancellationError())
                return
            }
            if entries[key] != nil {
                entries[key]?.waiters[id] = continuation
                return
            }
            var entry = Entry(waiters: [id: continuation])
            let token = entry.token
            entry.task = Task {
                let result: Result<NetworkResponse<Data>, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                self.finish(key, token: token, result: result)
            }
            entries[key] = entry
        }

        func leave(_ key: Key, id: UUID) {
            guard var entry = entries[key], let waiter = entry.waiters.removeValue(forKey: id) else {
                leftBeforeJoining.insert(id)
                return
            }
            waiter.resume(throwing: CancellationError())
            if entry.waiters.isEmpty {
                entry.task?.cancel()
                entries[key] = nil
            } else {
                entries[key] = entry
            }
        }

        private func finish(_ key: Key, token: UUID, result: Result<NetworkResponse<Data>, any Error>) {
            guard let entry = entries[key], entry.token == token else { return }
            entries[key] = nil
            for waiter in entry.waiters.values {
                waiter.resume(with: result)
            }
        }
    }
}

extension Interceptor where Self == Deduplicator {
    /// Shares one network call among identical requests in flight; see ``Deduplicator``.
    public static func deduplicating() -> Deduplicator { Deduplicator() }
}
