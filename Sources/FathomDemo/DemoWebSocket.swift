import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

/// The demo's WebSocket, `GET /ws`: it greets, echoes, pushes ticks, and closes or drops the
/// connection when asked, so that every way a conversation goes can be tried.
///
/// - On opening: `{"type":"welcome","user":"ada"}` (`user` is `null` without a valid bearer token).
/// - `?ticks=N&ms=M`: N messages `{"type":"tick","n":i}` pushed one every M ms (100 by default).
/// - A text message is echoed as `{"type":"echo","n":k,"data":…}` (its JSON, or its text);
///   a binary message comes back as it is.
/// - `{"type":"close","code":4000,"reason":"…"}` closes with that code (1000 without one).
/// - `{"type":"drop"}` sends half of a message and drops the connection, as a failing server would.
enum DemoWebSocket {
    /// The upgrade: `/ws` becomes a WebSocket, anything else stays HTTP.
    static func server(store: DemoStore) -> HTTPServerBuilder {
        .http1WebSocketUpgrade { request, channel, _ in
            let uri = URI(request.path ?? "/")
            // GraphQL subscriptions, at the GraphQL endpoint, for a client that speaks graphql-transport-ws.
            let offered = request.headerFields[HTTPField.Name("Sec-WebSocket-Protocol")!] ?? ""
            if uri.path == "/graphql",
                offered.split(separator: ",").contains(where: {
                    $0.trimmingCharacters(in: .whitespaces) == "graphql-transport-ws"
                })
            {
                let token = DemoAPI.bearerToken(request.headerFields)
                let authorized = if let token { await store.isValid(token) } else { false }
                return .upgrade([HTTPField.Name("Sec-WebSocket-Protocol")!: "graphql-transport-ws"]) {
                    inbound, outbound, _ in
                    try await DemoGraphQL.serveSubscriptions(inbound, outbound, store: store, authorized: authorized)
                }
            }
            guard uri.path == "/ws" else { return .dontUpgrade }
            let query = uri.queryParameters
            let ticks = min(1_000_000, max(0, query["ticks"].flatMap { Int($0) } ?? 0))
            let ms = min(60_000, max(0, query["ms"].flatMap { Int($0) } ?? 100))
            let token = DemoAPI.bearerToken(request.headerFields)
            let user: String? =
                if let token, await store.isValid(token) { DemoStore.username } else { nil }
            return .upgrade([:]) { inbound, outbound, _ in
                try await outbound.write(
                    .text("{\"type\":\"welcome\",\"user\":\(user.map { DemoJSON.serialize($0) } ?? "null")}"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    if ticks > 0 {
                        group.addTask {
                            for n in 1...ticks {
                                if ms > 0 { try await Task.sleep(for: .milliseconds(ms)) }
                                try await outbound.write(.text("{\"type\":\"tick\",\"n\":\(n)}"))
                            }
                        }
                    }
                    var count = 0
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        count += 1
                        switch message {
                        case .binary(let buffer):
                            try await outbound.write(.binary(buffer))
                        case .text(let text):
                            let request = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                            switch request?["type"] as? String {
                            case "close":
                                let code = (request?["code"] as? Int) ?? 1000
                                let reason = request?["reason"] as? String
                                try await outbound.close(WebSocketErrorCode(codeNumber: code), reason: reason)
                                group.cancelAll()
                                return
                            case "drop":
                                // Half a message, then the connection goes: no close frame.
                                try await outbound.write(
                                    .custom(
                                        WebSocketFrame(
                                            fin: false, opcode: .text, data: ByteBuffer(string: "{\"type\":\"par"))))
                                try await channel.close()
                                group.cancelAll()
                                return
                            default:
                                let data =
                                    (try? JSONSerialization.jsonObject(
                                        with: Data(text.utf8), options: .fragmentsAllowed))
                                        != nil ? text : DemoJSON.serialize(text)
                                try await outbound.write(.text("{\"type\":\"echo\",\"n\":\(count),\"data\":\(data)}"))
                            }
                        }
                    }
                    group.cancelAll()
                }
            }
        }
    }
}
