import FathomGraphQL
@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation
import Synchronization

/// A GraphQL subscription's conversation on an open WebSocket, in the protocol the server chose:
/// what ``Executor/subscribe(_:variables:)`` runs once the connection is open. It knows the
/// protocol's messages and the bounds on waiting; the session is the executor's.
enum GraphQLSubscriptionConversation {
    /// The one subscription a connection carries.
    static let id = "1"

    /// The conversation: `connection_init`, its acknowledgement, the subscription, its results
    /// (each to `result`), until it completes or is stopped; then the WebSocket is closed.
    static func converse(
        _ connection: WebSocketConnection, _ chosen: GraphQLOverWebSocket, body: JSON, wait: Duration, limit: Int?,
        result: @escaping @Sendable (JSON) -> Void
    ) async throws -> StreamWatch.Ending {
        func send(_ message: JSON) async throws {
            try await connection.send(.text(message.formatted(.compactText).trimmingCharacters(in: .newlines)))
        }
        try await send(chosen.connectionInit)
        var acknowledged = false
        var count = 0
        var ending: StreamWatch.Ending = .complete
        var failure: CommandError?
        // A timer closes the connection when nothing came for `wait`: every wait has a bound.
        let lastActivity = Mutex(ContinuousClock.now)
        let timedOut = Mutex(false)
        let watchdog = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(200))
                if ContinuousClock.now - lastActivity.withLock({ $0 }) > wait {
                    timedOut.withLock { $0 = true }
                    _ = await connection.close(code: 1000, reason: "no result for \(wait)")
                    return
                }
            }
        }
        defer { watchdog.cancel() }
        reading: for await event in connection.events {
            lastActivity.withLock { $0 = .now }
            guard case .message(let message, _) = event else {
                if case .closed = event { break reading }
                continue
            }
            guard case .text(let text) = message else { continue }
            switch chosen.read(text) {
            case .acknowledged:
                guard !acknowledged else { continue }
                acknowledged = true
                try await send(chosen.subscribe(id: id, body: body))
            case .next(_, let payload):
                count += 1
                result(payload)
                if let limit, count >= limit {
                    ending = .stopped
                    try? await send(chosen.stop(id: id))
                    break reading
                }
            case .error(_, let payload):
                let errors = GraphQLResponseError.errors(in: .object([.init(key: "errors", value: Self.list(payload))]))
                failure = CommandError(
                    .network, .stated("the subscription failed: " + errors.map(\.message).joined(separator: "; ")))
                break reading
            case .complete:
                break reading
            case .ping:
                try? await send(chosen.pong)
            case .keepAlive, .unknown:
                continue
            }
        }
        if Task.isCancelled { ending = .cancelled } else if timedOut.withLock({ $0 }) { ending = .timedOut }
        _ = await connection.close(code: 1000)
        if let failure { throw failure }
        if !acknowledged, ending != .cancelled {
            throw CommandError(
                .network, "the server did not acknowledge connection_init (\(chosen.rawValue)) within \(wait)")
        }
        return ending
    }

    /// Whether the WebSocket failed because the server cannot be reached at all (then server-sent
    /// events cannot reach it either).
    static func isUnreachable(_ error: NetworkError) -> Bool {
        switch error {
        case .connectionRefused, .timeout, .dnsFailure, .cancelled: true
        default: false
        }
    }

    /// An error payload as a list of errors (`graphql-ws` sends one object).
    private static func list(_ payload: JSON) -> JSON {
        if case .array = payload { return payload }
        return .array([payload])
    }

}
