import FathomHTTP
import FathomTestSupport
import Foundation
import Testing

/// RFC 6455 held against servers that break it (``RogueWebSocketServer``): the client fails the
/// connection with the right code and says why, and every wait — a close nobody answers — ends.
@Suite struct WebSocketProtocolTests {
    /// How the connection ended, after the messages before it.
    static func ending(_ socket: WebSocketConnection) async -> (messages: [WebSocketMessage], close: WebSocketClose?) {
        var messages: [WebSocketMessage] = []
        for await event in socket.events {
            switch event {
            case .message(let message, _): messages.append(message)
            case .closed(let close): return (messages, close)
            }
        }
        return (messages, socket.closed)
    }

    /// Waits until the server has read a frame from the client (it reads on its own thread).
    static func sent(_ server: RogueWebSocketServer) async throws -> [RogueWebSocketServer.Frame] {
        for _ in 0..<200 where server.frames.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        return server.frames
    }

    /// A server that never answers the close: `close` returns after its bound all the same.
    @Test func aCloseNobodyAnswersEndsWithinItsBound() async throws {
        let server = try RogueWebSocketServer(.neverAnswersClose)
        defer { server.stop() }
        let socket = try await WebSocketConnection.open(server.url)
        let start = ContinuousClock.now
        let close = await socket.close(code: 4000, reason: "bye")
        let took = ContinuousClock.now - start
        #expect(took >= .seconds(2.5) && took < .seconds(6), "\(took)")
        #expect(close.initiator == .client && close.code == 4000, "\(close)")
        #expect(close.error?.contains("did not answer the close within 3 s") == true, "\(close)")
        #expect(try await Self.sent(server).contains { $0.closeCode == 4000 })
    }

    @Test func textThatIsNotUTF8FailsTheConnectionWith1007() async throws {
        let server = try RogueWebSocketServer(.invalidUTF8)
        defer { server.stop() }
        let socket = try await WebSocketConnection.open(server.url)
        let (messages, close) = await Self.ending(socket)
        #expect(messages.isEmpty, "the broken message is not delivered")
        #expect(close?.initiator == .client && close?.code == 1007, "\(String(describing: close))")
        #expect(close?.error?.contains("not UTF-8") == true)
        #expect(try await Self.sent(server).contains { $0.closeCode == 1007 })
    }

    @Test func aMaskedFrameFromTheServerFailsTheConnection() async throws {
        let server = try RogueWebSocketServer(.maskedFrame)
        defer { server.stop() }
        let socket = try await WebSocketConnection.open(server.url)
        let (messages, close) = await Self.ending(socket)
        #expect(messages.isEmpty)
        #expect(close?.code == 1002 && close?.error?.contains("masked frame") == true, "\(String(describing: close))")
        #expect(try await Self.sent(server).contains { $0.closeCode == 1002 })
    }

    /// A subprotocol the client never offered fails the handshake; one it offered is accepted.
    @Test func aSubprotocolNobodyOfferedFailsTheHandshake() async throws {
        let server = try RogueWebSocketServer(.subprotocol("chat"))
        defer { server.stop() }
        await #expect {
            _ = try await WebSocketConnection.open(server.url)
        } throws: { error in
            "\(error)".contains("chose the subprotocol 'chat', which Fathom did not offer")
        }
        var headers = NetworkHeaders()
        headers.add(NetworkHeaders.Name("Sec-WebSocket-Protocol"), "chat, superchat")
        let socket = try await WebSocketConnection.open(server.url, configuration: .init(headers: headers))
        socket.cancel()
    }

    @Test(arguments: [5000, 1005, 1006, 999, 2000])
    func anInvalidCloseCodeIsAProtocolError(code: Int) async throws {
        let server = try RogueWebSocketServer(.closeCode(code))
        defer { server.stop() }
        let socket = try await WebSocketConnection.open(server.url)
        let (_, close) = await Self.ending(socket)
        #expect(close?.initiator == .client && close?.code == 1002, "\(String(describing: close))")
        #expect(close?.error?.contains("\(code)") == true, "\(String(describing: close))")
    }

    /// A close reason of 200 bytes makes a control frame over 125 bytes: a protocol error, named.
    @Test func anOverlongCloseReasonIsNamed() async throws {
        let server = try RogueWebSocketServer(.closeReason(length: 200))
        defer { server.stop() }
        let socket = try await WebSocketConnection.open(server.url)
        let (_, close) = await Self.ending(socket)
        #expect(close?.code == 1002, "\(String(describing: close))")
        #expect(close?.error?.contains("over 125 bytes") == true, "\(String(describing: close))")
    }

    @Test func aWrongAcceptKeyIsSaidPlainly() async throws {
        let server = try RogueWebSocketServer(.wrongAccept)
        defer { server.stop() }
        await #expect {
            _ = try await WebSocketConnection.open(server.url)
        } throws: { error in
            "\(error)".contains("Sec-WebSocket-Accept does not answer the key Fathom sent")
        }
    }

    /// A message over the limit: Fathom closes with 1009 and says it was Fathom.
    @Test func aMessageOverTheLimitIsClosedBy1009() async throws {
        let server = try RogueWebSocketServer(.neverAnswersClose)
        defer { server.stop() }
        let socket = try await WebSocketConnection.open(server.url, configuration: .init(maxMessageSize: 4))
        let (messages, close) = await Self.ending(socket)
        #expect(messages.isEmpty)
        #expect(close?.initiator == .client && close?.code == 1009, "\(String(describing: close))")
        #expect(close?.error?.contains("Fathom closed the connection with 1009") == true)
    }

    /// 50,000 pings, then a message: the pings are answered (a pong for the latest of those read
    /// together, not one each) and the message still arrives. `TrustRunTests` floods 200,000
    /// at the prompt's `expect message`.
    @Test func aPingFloodDoesNotStarveTheMessageAfterIt() async throws {
        let server = try RogueWebSocketServer(.pingFlood(50_000))
        defer { server.stop() }
        let socket = try await WebSocketConnection.open(server.url)
        let start = ContinuousClock.now
        var arrived: WebSocketMessage?
        for await event in socket.events {
            if case .message(let message, _) = event {
                arrived = message
                break
            }
        }
        #expect(arrived == .text(#"{"after":"pings"}"#))
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(server.frames.contains { $0.opcode == 0xA }, "pongs went back")
        #expect(server.frames.filter { $0.opcode == 0xA }.count < 50_000, "fewer pongs than pings")
        socket.cancel()
    }

    /// A reader slower than the server holds the connection back: with nobody reading, the
    /// server can hand over only what the buffers hold, not the whole flood — memory stays flat —
    /// and every message still arrives once the reader reads.
    @Test func aSlowReaderHoldsTheServerBack() async throws {
        // 150,000 messages of 100 bytes: 15 MB, far more than the socket buffers between them hold
        // (about 5 MB here); with nobody reading, no more than those and the mailbox pass.
        let total = 150_000
        let server = try RogueWebSocketServer(.messageFlood(total))
        defer { server.stop() }
        let socket = try await WebSocketConnection.open(server.url)
        try await Task.sleep(for: .seconds(2))
        let handedOver = server.sent
        #expect(handedOver < total * 2 / 3, "\(handedOver) of \(total) handed over with nobody reading")
        var received = 0
        for await event in socket.events {
            guard case .message = event else { break }
            received += 1
            if received == total { break }
        }
        #expect(received == total)
        socket.cancel()
    }

    /// `NetworkClient.webSocket` sends the upgrade through the interceptors: an authenticator's
    /// credentials go with it, and after a `401` to the upgrade it authenticates once and the
    /// upgrade is tried again.
    @Test func theUpgradeGoesThroughTheClientsAuthenticator() async throws {
        let server = try RogueWebSocketServer(.requiresToken("fresh-token-0123"))
        defer { server.stop() }
        let tokens = Locked(["stale-token-0123", "fresh-token-0123"])
        let authenticator = ClosureAuthenticator(
            authorize: { request in
                request.headers.replace(.authorization, with: "Bearer " + tokens.withLock { $0[0] })
            },
            authenticate: { _ = tokens.withLock { $0.removeFirst() } })
        let client = NetworkClient(interceptors: [.authenticator(authenticator)])
        let socket = try await client.webSocket(NetworkRequest.get(server.url))
        #expect(server.requests.count == 2, "refused once, then with the fresh token")
        #expect(server.requests.last?.contains("Bearer fresh-token-0123") == true)
        await socket.close()

        // Without credentials that work, the refusal is the error, with its status.
        let anonymous = NetworkClient()
        await #expect {
            _ = try await anonymous.webSocket(NetworkRequest.get(server.url))
        } throws: { error in
            "\(error)".contains("401")
        }
    }
}
