import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSOCKS
import NIOSSL
import NIOWebSocket
import Synchronization

/// Opens a WebSocket's channel: TCP (through an HTTP `CONNECT` or SOCKS5 proxy when given), TLS
/// for `wss`, then the HTTP/1.1 upgrade (RFC 6455 §4.1), checking the server's answer — 101, the
/// accept key, and no subprotocol or extension the client did not offer.
enum WebSocketOpening {
    /// What went wrong on the way, before ``NetworkError`` words it.
    enum Failure: Error {
        /// The server answered the upgrade with another status.
        case notUpgraded(status: HTTPResponseStatus)
        /// `Sec-WebSocket-Accept` does not answer the key sent.
        case wrongAccept
        /// The server chose a subprotocol or an extension that was not offered.
        case notOffered(header: String, value: String)
        /// The proxy refused the tunnel.
        case proxyRefused(status: HTTPResponseStatus)
    }

    /// Connects, tunnels, secures and upgrades; returns the channel with `handler` reading its frames.
    ///
    /// The channel is closed when anything fails.
    /// `chosen` is told the subprotocol the server chose (one of those offered), if it chose one.
    static func open(
        _ url: RequestURL, configuration: WebSocketConnection.Configuration,
        connected: @Sendable (any Channel) -> Void, chosen: @escaping @Sendable (String) -> Void = { _ in },
        handler: @escaping @Sendable () -> WebSocketFrameHandler
    ) async throws -> any Channel {
        let secure = url.scheme == "wss"
        let port = url.port ?? (secure ? 443 : 80)
        let proxy = configuration.proxy
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
        let channel = try await bootstrap.connect(host: proxy?.host ?? url.host, port: proxy?.port ?? port).get()
        connected(channel)
        // The first error on the way (a TLS handshake refused) is what the opening failed of,
        // not the closed channel it leaves.
        let firstError = FirstError()
        do {
            if let proxy {
                switch proxy.kind {
                case .http: try await tunnel(channel, to: url.host, port: port, proxy: proxy)
                case .socks5: try await socks(channel, to: url.host, port: port)
                }
            }
            var context: NIOSSLContext?
            if secure {
                var tls = TLSConfiguration.makeClientConfiguration()
                if !configuration.verifyCertificates { tls.certificateVerification = .none }
                if let file = configuration.trustRootsFile {
                    tls.additionalTrustRoots += try TrustRoots.files(at: file).map { .file($0) }
                }
                if let identity = configuration.clientIdentity {
                    let certificates: [NIOSSLCertificate]
                    do {
                        certificates = try NIOSSLCertificate.fromPEMFile(identity.certificateFile)
                    } catch {
                        throw NetworkError.file(path: identity.certificateFile, reason: "no PEM certificate in it")
                    }
                    tls.certificateChain = certificates.map { .certificate($0) }
                    tls.privateKey = .privateKey(try identity.privateKey())
                }
                context = try NIOSSLContext(configuration: tls)
            }
            // An address is named by no SNI: the certificate is checked against the address.
            let name = isAddress(url.host) ? nil : url.host
            try await channel.eventLoop.submit { [context] in
                // In one turn of the loop: the recorder is behind TLS before its handshake can fail.
                if let context {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: name))
                }
                try channel.pipeline.syncOperations.addHandler(FirstErrorHandler(firstError))
            }.get()
            try await upgrade(
                channel, url: url, port: port, configuration: configuration, chosen: chosen, handler: handler)
            return channel
        } catch {
            try? await channel.close()
            if let error = error as? ChannelError, error == .ioOnClosedChannel, let first = firstError.error {
                throw first
            }
            throw error
        }
    }

    /// `CONNECT host:port` through an HTTP proxy (with Basic credentials when it has them).
    private static func tunnel(_ channel: any Channel, to host: String, port: Int, proxy: ProxyServer) async throws {
        let established = channel.eventLoop.makePromise(of: Void.self)
        try await settle(established, on: channel) {
            let encoder = HTTPRequestEncoder()
            let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
            let answer = ProxyAnswerHandler(established: established, removing: [encoder, decoder])
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(encoder)
            try pipeline.addHandler(decoder)
            try pipeline.addHandler(answer)
            var headers = HTTPHeaders([("Host", "\(host):\(port)")])
            if let user = proxy.username {
                let token = Data("\(user):\(proxy.password ?? "")".utf8).base64EncodedString()
                headers.add(name: "Proxy-Authorization", value: "Basic \(token)")
            }
            let head = HTTPRequestHead(version: .http1_1, method: .CONNECT, uri: "\(host):\(port)", headers: headers)
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        }
    }

    /// A SOCKS5 tunnel to the host by name (the proxy resolves it).
    private static func socks(_ channel: any Channel, to host: String, port: Int) async throws {
        let established = channel.eventLoop.makePromise(of: Void.self)
        try await settle(established, on: channel) {
            try channel.pipeline.syncOperations.addHandler(SOCKSClientHandler(targetAddress: .domain(host, port: port)))
            try channel.pipeline.syncOperations.addHandler(SOCKSEstablishedHandler(established: established))
        }
    }

    /// The upgrade request, with the configured headers and the subprotocols they offer; the
    /// answer checked before the frame handler takes over.
    private static func upgrade(
        _ channel: any Channel, url: RequestURL, port: Int, configuration: WebSocketConnection.Configuration,
        chosen: @escaping @Sendable (String) -> Void, handler: @escaping @Sendable () -> WebSocketFrameHandler
    ) async throws {
        let upgraded = channel.eventLoop.makePromise(of: Void.self)
        let offered = Set(
            configuration.headers.values(for: NetworkHeaders.Name("Sec-WebSocket-Protocol"))
                .flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } })
        let offeredExtensions = !configuration.headers.values(for: NetworkHeaders.Name("Sec-WebSocket-Extensions"))
            .isEmpty
        let upgrader = NIOWebSocketClientUpgrader(
            maxFrameSize: min(max(configuration.maxMessageSize, 125), 1 << 30), automaticErrorHandling: false
        ) { channel, response in
            // RFC 6455 §4.1: a subprotocol or an extension the client did not ask for fails the
            // connection.
            if let chosen = response.headers.first(name: "Sec-WebSocket-Protocol"),
                !offered.contains(chosen.lowercased())
            {
                upgraded.fail(Failure.notOffered(header: "subprotocol", value: chosen))
                return channel.close()
            }
            if let protocolName = response.headers.first(name: "Sec-WebSocket-Protocol") { chosen(protocolName) }
            if !offeredExtensions, let chosen = response.headers.first(name: "Sec-WebSocket-Extensions") {
                upgraded.fail(Failure.notOffered(header: "extension", value: chosen))
                return channel.close()
            }
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(handler())
                upgraded.succeed()
            }
        }
        try await settle(upgraded, on: channel) {
            let encoder = HTTPRequestEncoder()
            let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
            let answer = UpgradeAnswerHandler(upgraded: upgraded)
            let upgradeHandler = NIOHTTPClientUpgradeHandler(
                upgraders: [upgrader], httpHandlers: [encoder, decoder, answer], upgradeCompletionHandler: { _ in })
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(encoder)
            try pipeline.addHandler(decoder)
            try pipeline.addHandler(upgradeHandler)
            try pipeline.addHandler(answer)
            var headers = HTTPHeaders()
            let defaultPort = url.scheme == "wss" ? 443 : 80
            if !configuration.headers.contains(.host) {
                headers.add(name: "Host", value: port == defaultPort ? url.host : "\(url.host):\(port)")
            }
            for field in configuration.headers { headers.add(name: field.name.description, value: field.value) }
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: url.pathAndQuery, headers: headers)
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        }
    }

    /// Sets the pipeline up for a step (`setUp`, on the event loop) and waits for the step's
    /// `promise`, which a closed channel or a failed set-up fails: it is always completed.
    private static func settle(
        _ promise: EventLoopPromise<Void>, on channel: any Channel,
        _ setUp: @escaping @Sendable () throws -> Void
    ) async throws {
        channel.closeFuture.whenComplete { _ in promise.fail(ChannelError.ioOnClosedChannel) }
        channel.eventLoop.execute {
            do { try setUp() } catch { promise.fail(error) }
        }
        try await promise.futureResult.get()
    }

    /// Whether `host` is an IPv4 or IPv6 address.
    static func isAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: 0)) != nil
    }
}

/// The first error a channel's pipeline saw.
private final class FirstError: Sendable {
    private let first = Mutex<(any Error)?>(nil)
    var error: (any Error)? { first.withLock { $0 } }
    func record(_ error: any Error) { first.withLock { $0 = $0 ?? error } }
}

/// Records the first error that passes it, and passes everything on.
private final class FirstErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let first: FirstError

    init(_ first: FirstError) { self.first = first }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        first.record(error)
        context.fireErrorCaught(error)
    }
}

/// A handler that waits for a tunnel to be established: an error or a closed channel on the way
/// fails the wait (the two proxy handshakes' handlers share this).
private protocol TunnelWaiter: ChannelInboundHandler {
    var established: EventLoopPromise<Void> { get }
}

extension TunnelWaiter {
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        established.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        established.fail(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }
}

/// Reads an HTTP proxy's answer to `CONNECT`: any 2xx opens the tunnel, and the HTTP handlers
/// leave the pipeline (what follows is the target's bytes, not HTTP to the proxy).
private final class ProxyAnswerHandler: TunnelWaiter, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    let established: EventLoopPromise<Void>
    private let removing: [any RemovableChannelHandler]
    private var status: HTTPResponseStatus?

    init(established: EventLoopPromise<Void>, removing: [any RemovableChannelHandler]) {
        self.established = established
        self.removing = removing
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): status = head.status
        case .body: break
        case .end:
            guard let status, (200..<300).contains(status.code) else {
                established.fail(WebSocketOpening.Failure.proxyRefused(status: status ?? .badGateway))
                context.close(promise: nil)
                return
            }
            let pipeline = context.pipeline.syncOperations
            pipeline.removeHandler(context: context, promise: nil)
            for handler in removing { pipeline.removeHandler(handler, promise: nil) }
            established.succeed()
        }
    }

}

/// Waits for the SOCKS handshake's end.
private final class SOCKSEstablishedHandler: TunnelWaiter, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    let established: EventLoopPromise<Void>

    init(established: EventLoopPromise<Void>) { self.established = established }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is SOCKSProxyEstablishedEvent {
            established.succeed()
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

}

/// Sees the upgrade's answer when it is not an upgrade (another status), and the upgrade
/// handler's errors (a wrong accept key); removed with the HTTP handlers once the upgrade is done.
private final class UpgradeAnswerHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    private let upgraded: EventLoopPromise<Void>

    init(upgraded: EventLoopPromise<Void>) { self.upgraded = upgraded }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            upgraded.fail(WebSocketOpening.Failure.notUpgraded(status: head.status))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NIOHTTPClientUpgradeError, error == .upgraderDeniedUpgrade {
            upgraded.fail(WebSocketOpening.Failure.wrongAccept)
        } else {
            upgraded.fail(error)
        }
        context.close(promise: nil)
    }
}
