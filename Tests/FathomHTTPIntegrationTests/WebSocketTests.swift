import FathomDemo
import FathomHTTP
import FathomTestSupport
import Foundation
import Testing

/// `WebSocketConnection` against the demo's `/ws` on loopback: echo, server push, close codes
/// each way, a server that drops the connection mid-message, refusals.
@Suite struct WebSocketTests {
    /// The events up to the n-th message (or the end).
    static func messages(_ connection: WebSocketConnection, count: Int) async -> [WebSocketMessage] {
        var messages: [WebSocketMessage] = []
        for await event in connection.events {
            guard case .message(let message, _) = event else { break }
            messages.append(message)
            if messages.count == count { break }
        }
        return messages
    }

    static func json(_ message: WebSocketMessage?) throws -> [String: Any] {
        guard case .text(let text)? = message else {
            throw Failure("not a text message: \(String(describing: message))")
        }
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test func echoesTextAndBinaryAndPushesTicks() async throws {
        let server = try await DemoAPI.start()
        let socket = try await WebSocketConnection.open("ws://127.0.0.1:\(server.port)/ws?ticks=3&ms=20")
        try await socket.send(.text(#"{"hello": "world"}"#))
        try await socket.send(.binary(Data([0, 1, 2, 255])))
        let messages = await Self.messages(socket, count: 6)
        #expect(try Self.json(messages.first)["type"] as? String == "welcome")
        let echo = try #require(messages.compactMap { try? Self.json($0) }.first { $0["type"] as? String == "echo" })
        #expect((echo["data"] as? [String: Any])?["hello"] as? String == "world")
        #expect(messages.contains(.binary(Data([0, 1, 2, 255]))))
        let ticks = messages.compactMap { try? Self.json($0) }.filter { $0["type"] as? String == "tick" }
        #expect(ticks.map { $0["n"] as? Int } == [1, 2, 3])
        let close = await socket.close(code: 4000, reason: "done")
        #expect(close == WebSocketClose(initiator: .client, code: 4000, reason: "done", answer: close.answer))
        #expect(close.answer != nil)
        await #expect(throws: NetworkError.self) { try await socket.send(.text("after")) }
        await server.stop()
    }

    @Test func theServerClosesWithItsCodeAndReason() async throws {
        let server = try await DemoAPI.start()
        let socket = try await WebSocketConnection.open("http://127.0.0.1:\(server.port)/ws")
        try await socket.send(.text(#"{"type": "close", "code": 4002, "reason": "enough"}"#))
        var last: WebSocketEvent?
        for await event in socket.events { last = event }
        #expect(last == .closed(WebSocketClose(initiator: .server, code: 4002, reason: "enough")))
        await server.stop()
    }

    @Test func aConnectionDroppedMidMessageSaysSo() async throws {
        let server = try await DemoAPI.start()
        let socket = try await WebSocketConnection.open("ws://127.0.0.1:\(server.port)/ws")
        try await socket.send(.text(#"{"type": "drop"}"#))
        var last: WebSocketEvent?
        for await event in socket.events { last = event }
        guard case .closed(let close)? = last else { throw Failure("no close: \(String(describing: last))") }
        #expect(close.initiator == .dropped)
        #expect(close.code == nil)
        #expect(close.unfinishedBytes == 12)
        #expect(close.error != nil)
        await server.stop()
    }

    @Test func theUpgradeCarriesTheGivenHeaders() async throws {
        let server = try await DemoAPI.start()
        struct Token: Decodable { var token: String }
        let token = try await NetworkClient(baseURL: server.baseURL).value(
            .post("/login").body(json: ["username": DemoAPI.username, "password": DemoAPI.password]),
            as: Token.self
        ).token
        var headers = NetworkHeaders()
        headers.add(.authorization, "Bearer \(token)")
        let socket = try await WebSocketConnection.open(
            "ws://127.0.0.1:\(server.port)/ws", configuration: .init(headers: headers))
        let welcome = await Self.messages(socket, count: 1)
        #expect(try Self.json(welcome.first)["user"] as? String == DemoAPI.username)
        await socket.close()
        await server.stop()
    }

    @Test func refusalsAreClearErrors() async throws {
        let server = try await DemoAPI.start()
        // Not a WebSocket endpoint: no 101.
        await #expect {
            _ = try await WebSocketConnection.open("ws://127.0.0.1:\(server.port)/users")
        } throws: { error in
            "\(error)".contains("answered 400 Bad Request to the upgrade of /users, not 101 Switching Protocols")
        }
        await server.stop()
        // Nothing listens there any more.
        await #expect {
            _ = try await WebSocketConnection.open("ws://127.0.0.1:\(server.port)/ws")
        } throws: { error in
            if case NetworkError.connectionRefused = error { return true }
            return false
        }
        await #expect(throws: NetworkError.self) { _ = try await WebSocketConnection.open("ftp://127.0.0.1/ws") }
    }

    @Test func openingGivesUpAtTheConnectTimeout() async throws {
        // A listener that accepts and never answers the upgrade.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(listener, 4)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let start = ContinuousClock.now
        await #expect {
            _ = try await WebSocketConnection.open(
                "ws://127.0.0.1:\(port)/ws", configuration: .init(connectTimeout: .milliseconds(300)))
        } throws: { error in
            if case NetworkError.timeout(.connect, _) = error { return true }
            return false
        }
        // It gives up instead of waiting forever for an upgrade that never comes; the bound is
        // loose for a busy machine (a parallel test run on 2 cores took 8 s to fire the 300 ms timer).
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func aConversationGoesThroughAnHTTPOrSOCKS5Proxy() async throws {
        let server = try await DemoAPI.start()
        for kind in [TunnelProxy.Kind.httpConnect, .socks5] {
            let proxy = try TunnelProxy(kind)
            defer { proxy.stop() }
            let through =
                kind == .socks5
                ? ProxyServer(host: "127.0.0.1", port: proxy.port, kind: .socks5)
                : ProxyServer(host: "127.0.0.1", port: proxy.port, username: "u", password: "p w")
            let socket = try await WebSocketConnection.open(
                "ws://127.0.0.1:\(server.port)/ws", configuration: .init(proxy: through))
            try await socket.send(.text("via the proxy"))
            let messages = await Self.messages(socket, count: 2)
            #expect(try Self.json(messages.last)["data"] as? String == "via the proxy")
            await socket.close()
            let seen = proxy.requests.value
            if kind == .socks5 {
                #expect(seen == ["SOCKS5 127.0.0.1:\(server.port)"])
            } else {
                #expect(seen.first?.hasPrefix("CONNECT 127.0.0.1:\(server.port) HTTP/1.1") == true)
                #expect(seen.first?.range(of: "proxy-authorization: Basic dTpwIHc=", options: .caseInsensitive) != nil)
            }
        }
        await server.stop()
    }

    /// `wss`: a self-signed certificate is refused unless certificates are not verified
    /// (`insecure`); then the TLS handshake passes, and this server (not a WebSocket) says no.
    @Test(.enabled(if: SelfSignedCertificate.opensslAvailable)) func wssVerifiesTheCertificateUnlessInsecure()
        async throws
    {
        let server = try TLSTests.OpenSSLServer()
        defer { server.stop() }
        let url = "wss://localhost:\(server.port)/ws"
        await #expect {
            _ = try await WebSocketConnection.open(url, configuration: .init(connectTimeout: .seconds(5)))
        } throws: { error in
            "\(error)".contains("certificate not trusted")
        }
        await #expect {
            _ = try await WebSocketConnection.open(
                url, configuration: .init(verifyCertificates: false, connectTimeout: .seconds(5)))
        } throws: { error in
            "\(error)".contains("answered 200 OK to the upgrade of /ws, not 101 Switching Protocols")
        }
        // An address takes no server name (SNI); its certificate is still checked, against the address.
        await #expect {
            _ = try await WebSocketConnection.open(
                "wss://127.0.0.1:\(server.port)/ws", configuration: .init(connectTimeout: .seconds(5)))
        } throws: { error in
            "\(error)".contains("certificate not trusted")
        }
        await #expect {
            _ = try await WebSocketConnection.open(
                "wss://127.0.0.1:\(server.port)/ws",
                configuration: .init(verifyCertificates: false, connectTimeout: .seconds(5)))
        } throws: { error in
            "\(error)".contains("answered 200 OK to the upgrade of /ws")
        }
    }
}
