import FathomJSON

/// The two protocols GraphQL subscriptions speak over a WebSocket.
///
/// The subprotocol the server accepts chooses: `graphql-transport-ws` (the graphql-ws library's, the current one) and the
/// legacy `graphql-ws` (Apollo's subscriptions-transport-ws). The messages each way, as JSON; the
/// connection itself is the caller's.
public enum GraphQLOverWebSocket: String, CaseIterable, Sendable {
    /// `graphql-transport-ws`, the graphql-ws library's protocol.
    case transportWS = "graphql-transport-ws"
    /// `graphql-ws`, Apollo's subscriptions-transport-ws protocol (no longer maintained, still served).
    case legacy = "graphql-ws"

    /// The `Sec-WebSocket-Protocol` header that offers both, the current one first.
    public static let offered = allCases.map(\.rawValue).joined(separator: ", ")

    /// What the server sent, read.
    public enum Message: Sendable, Equatable {
        /// The server accepted `connection_init`.
        case acknowledged
        /// A result of the subscription (`next`, legacy `data`): `{"data": …, "errors": …}`.
        case next(id: String?, payload: JSON)
        /// The subscription failed; its errors (`error`, or legacy `connection_error`).
        case error(id: String?, payload: JSON)
        /// The subscription ended.
        case complete(id: String?)
        /// The server asks for a `pong` (`graphql-transport-ws`).
        case ping
        /// A keep-alive (legacy `ka`) or a `pong`: nothing to do.
        case keepAlive
        /// Not a message of the protocol (not JSON, or of a type it does not have).
        case unknown(String)
    }

    /// The first message: asks the server to accept the connection.
    public var connectionInit: JSON {
        .object([.init(key: "type", value: .string("connection_init")), .init(key: "payload", value: .object([]))])
    }

    /// Starts the subscription `id` with a GraphQL request body (``GraphQLOperation/body(variables:)``).
    public func subscribe(id: String, body: JSON) -> JSON {
        .object([
            .init(key: "id", value: .string(id)),
            .init(key: "type", value: .string(self == .transportWS ? "subscribe" : "start")),
            .init(key: "payload", value: body),
        ])
    }

    /// Ends the subscription `id` from this side.
    public func stop(id: String) -> JSON {
        .object([
            .init(key: "id", value: .string(id)),
            .init(key: "type", value: .string(self == .transportWS ? "complete" : "stop")),
        ])
    }

    /// The answer to a `ping`.
    public var pong: JSON { .object([.init(key: "type", value: .string("pong"))]) }

    /// Reads a text message from the server.
    public func read(_ text: String) -> Message {
        guard let json = try? JSON(parsing: text), case .string(let type)? = json["type"] else {
            return .unknown(text)
        }
        var id: String?
        if case .string(let given)? = json["id"] { id = given }
        switch (self, type) {
        case (_, "connection_ack"): return .acknowledged
        case (.transportWS, "next"), (.legacy, "data"): return .next(id: id, payload: json["payload"] ?? .null)
        case (.transportWS, "error"), (.legacy, "error"), (.legacy, "connection_error"):
            return .error(id: id, payload: json["payload"] ?? .null)
        case (_, "complete"): return .complete(id: id)
        case (.transportWS, "ping"): return .ping
        case (.transportWS, "pong"), (.legacy, "ka"): return .keepAlive
        default: return .unknown(text)
        }
    }
}
