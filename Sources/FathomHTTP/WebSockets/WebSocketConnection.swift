import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization
import WSClient

/// One message of a WebSocket conversation.
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message (UTF-8).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's size in bytes.
    public var size: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }
}

/// How a WebSocket connection ended.
public struct WebSocketClose: Sendable, Equatable {
    /// Who ended it.
    public enum Initiator: Sendable, Equatable {
        /// This side sent the first close frame (``WebSocketConnection/close(code:reason:)``).
        case client
        /// The server sent the first close frame.
        case server
        /// Nobody closed it: the connection dropped without a close frame.
        case dropped
    }

    /// Who ended the conversation.
    public var initiator: Initiator
    /// The close code of the side that closed first (1000 normal, 1001 going away, 4000–4999
    /// the application's), or `nil` when none was sent.
    public var code: Int?
    /// The reason given with the code, if any.
    public var reason: String?
    /// When this side closed first: the code the server answered with, if it answered.
    public var answer: Int?
    /// The bytes of a message that had begun to arrive and never finished (a connection dropped
    /// mid-message), or `nil`.
    public var unfinishedBytes: Int?
    /// What went wrong when the connection did not close cleanly, as a sentence.
    public var error: String?

    /// Creates a close description.
    public init(
        initiator: Initiator, code: Int? = nil, reason: String? = nil, answer: Int? = nil, unfinishedBytes: Int? = nil,
        error: String? = nil
    ) {
        self.initiator = initiator
        self.code = code
        self.reason = reason
        self.answer = answer
        self.unfinishedBytes = unfinishedBytes
        self.error = error
    }

    /// The name RFC 6455 gives a close code (`normal closure`), or `nil` for an application's.
    public static func name(of code: Int) -> String? {
        switch code {
        case 1000: "normal closure"
        case 1001: "going away"
        case 1002: "protocol error"
        case 1003: "unacceptable data"
        case 1005: "no status"
        case 1006: "abnormal closure"
        case 1007: "invalid data"
        case 1008: "policy violation"
        case 1009: "message too big"
        case 1010: "extension required"
        case 1011: "server error"
        case 1012: "service restart"
        case 1013: "try again later"
        case 1014: "bad gateway"
        default: nil
        }
    }
}

/// What a WebSocket connection delivers: messages as they arrive, then how it ended.
public enum WebSocketEvent: Sendable, Equatable {
    /// A whole message (its fragments joined), with the time since the connection opened.
    case message(WebSocketMessage, at: Duration)
    /// The connection ended; nothing follows.
    case closed(WebSocketClose)
}

/// A WebSocket connection (RFC 6455): open it with the headers and TLS and proxy settings a
/// request would have, read ``events`` as they arrive, send text and binary messages, ping, and
/// close with a code.
///
/// ```swift
/// let socket = try await WebSocketConnection.open("ws://127.0.0.1:8080/ws")
/// try await socket.send(.text(#"{"hello": "world"}"#))
/// for await event in socket.events {
///     if case .message(let message, _) = event { print(message) }
/// }
/// ```
///
/// Built on hummingbird-project's WSClient (swift-websocket), on the same SwiftNIO as the HTTP
/// transport: AsyncHTTPClient has no WebSocket client.
public final class WebSocketConnection: Sendable {
    /// How a connection is opened.
    public struct Configuration: Sendable {
        /// Header fields sent with the upgrade request (`Authorization`, `Cookie`, defaults).
        public var headers: NetworkHeaders
        /// Whether the server's certificate is verified (`wss`); `false` is `insecure`.
        public var verifyCertificates: Bool
        /// A proxy the connection goes through (HTTP `CONNECT` or SOCKS5), if any.
        public var proxy: ProxyServer?
        /// The longest opening (connecting and the upgrade) may take.
        public var connectTimeout: Duration
        /// The largest message accepted; a bigger one ends the connection (1009).
        public var maxMessageSize: Int
        /// Where the upgrade request and the close are logged (as a ``NetworkClient`` logs its
        /// requests); `nil` logs nothing.
        public var logger: Logger?
        /// How much of the upgrade is logged: ``LogDetail/headers`` adds its header fields, masked.
        public var logDetail: LogDetail
        /// Masks secrets in what is logged.
        public var redactor: Redactor

        /// Creates a configuration.
        public init(
            headers: NetworkHeaders = NetworkHeaders(), verifyCertificates: Bool = true, proxy: ProxyServer? = nil,
            connectTimeout: Duration = .seconds(10), maxMessageSize: Int = 16 << 20, logger: Logger? = nil,
            logDetail: LogDetail = .info, redactor: Redactor = Redactor()
        ) {
            self.headers = headers
            self.verifyCertificates = verifyCertificates
            self.proxy = proxy
            self.connectTimeout = connectTimeout
            self.maxMessageSize = maxMessageSize
            self.logger = logger
            self.logDetail = logDetail
            self.redactor = redactor
        }
    }

    /// The URL the connection was opened to (`ws://` or `wss://`).
    public let url: RequestURL
    /// The connection's messages as they arrive, then how it ended.
    ///
    /// It ends with ``WebSocketEvent/closed(_:)``; it has one reader.
    public let events: AsyncStream<WebSocketEvent>

    private let state: Mutex<State>
    private let task: Mutex<Task<Void, Never>?>

    private struct State {
        var writer: WebSocketOutboundWriter?
        var opening: CheckedContinuation<Void, any Error>?
        /// Fails the opening when it takes longer than the connect timeout.
        var timer: Task<Void, any Error>?
        /// The code and reason this side closed with, once it did.
        var closing: (code: Int, reason: String?)?
        /// The bytes of a message still unfinished when the messages stopped.
        var unfinished: Int?
        var close: WebSocketClose?
        /// This side closed and the server did not answer in time: the connection was ended.
        var unanswered = false
    }

    private init(url: RequestURL, events: AsyncStream<WebSocketEvent>) {
        self.url = url
        self.events = events
        self.state = Mutex(State())
        self.task = Mutex(nil)
    }

    /// Opens a connection to `url` (`ws://`, `wss://`, or `http(s)://` taken as them) and
    /// returns once the server has accepted the upgrade.
    ///
    /// - Throws: ``NetworkError``: refused, timed out, TLS, or the server did not switch protocols.
    public static func open(
        _ url: String, configuration: Configuration = Configuration()
    ) async throws(NetworkError) -> WebSocketConnection {
        let target = try webSocketURL(url)
        let log = configuration.logger.map {
            WireLog(logger: $0, detail: configuration.logDetail, redactor: configuration.redactor)
        }
        log?.logUpgrade(url: target, headers: configuration.headers)
        let (events, sink) = AsyncStream<WebSocketEvent>.makeStream()
        let connection = WebSocketConnection(url: target, events: events)
        var clientConfiguration = WebSocketClientConfiguration(
            maxFrameSize: min(configuration.maxMessageSize, 1 << 24), closeTimeout: .seconds(3))
        for field in configuration.headers {
            guard let name = HTTPField.Name(field.name.description) else { continue }
            clientConfiguration.additionalHeaders.append(HTTPField(name: name, value: field.value))
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        if !configuration.verifyCertificates { tls.certificateVerification = .none }
        var logger = Logger(label: "fathom.websocket")
        logger.logLevel = .critical
        let opened = ContinuousClock.now
        let handler: WebSocketDataHandler<WebSocketClient.Context> = { inbound, outbound, _ in
            try await connection.converse(
                inbound: inbound, outbound: outbound, opened: opened, limit: configuration.maxMessageSize, sink: sink)
        }
        let address = target.scheme == "wss" ? "wss" : "ws"
        let written = "\(address)://\(target.authority)\(target.pathAndQuery)"
        var proxySettings: WebSocketProxySettings?
        if let proxy = configuration.proxy {
            var connectHeaders = HTTPFields()
            if let user = proxy.username {
                let token = Data("\(user):\(proxy.password ?? "")".utf8).base64EncodedString()
                connectHeaders[.proxyAuthorization] = "Basic \(token)"
            }
            proxySettings = WebSocketProxySettings(
                host: proxy.host, port: proxy.port,
                type: proxy.kind == .socks5 ? .socks : .http(connectHeaders: connectHeaders),
                timeout: configuration.connectTimeout)
        }
        let settings = (clientConfiguration, tls, proxySettings, logger)
        let run: @Sendable () async throws -> WebSocketCloseFrame? = {
            let (clientConfiguration, tls, proxySettings, logger) = settings
            if let proxySettings {
                return try await WebSocketClient(
                    url: written, configuration: clientConfiguration, tlsConfiguration: tls,
                    proxySettings: proxySettings, logger: logger, handler: handler
                ).run()
            }
            return try await WebSocketClient(
                url: written, configuration: clientConfiguration, tlsConfiguration: tls, logger: logger,
                handler: handler
            ).run()
        }
        let timeout = configuration.connectTimeout
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    connection.state.withLock { $0.opening = continuation }
                    connection.task.withLock {
                        $0 = Task {
                            let result: Result<WebSocketCloseFrame?, any Error>
                            do { result = .success(try await run()) } catch { result = .failure(error) }
                            let close = connection.finish(result, url: target, sink: sink)
                            if let close { log?.logClose(url: target, close) }
                        }
                    }
                    let timer = Task {
                        try await Task.sleep(for: timeout)
                        connection.failOpening(NetworkError.timeout(.connect, after: timeout))
                    }
                    connection.state.withLock { $0.timer = timer }
                }
            } onCancel: {
                connection.failOpening(CancellationError())
            }
        } catch {
            let failure = map(error, url: target)
            log?.logFailure(method: .get, url: target, error: failure)
            throw failure
        }
        return connection
    }

    /// Sends a message.
    ///
    /// - Throws: ``NetworkError/connectionClosed(_:)`` once the connection has ended.
    public func send(_ message: WebSocketMessage) async throws(NetworkError) {
        let writer = try openWriter()
        do {
            switch message {
            case .text(let text): try await writer.writeTextMessage(text)
            case .binary(let data): try await writer.writeBinaryMessage(ByteBuffer(bytes: data))
            }
        } catch {
            throw Self.map(error, url: url)
        }
    }

    /// Sends a ping (the server answers with a pong, which the connection consumes).
    ///
    /// - Throws: ``NetworkError/connectionClosed(_:)`` once the connection has ended.
    public func ping(_ payload: Data = Data()) async throws(NetworkError) {
        let writer = try openWriter()
        do {
            try await writer.write(.custom(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(bytes: payload))))
        } catch {
            throw Self.map(error, url: url)
        }
    }

    /// Closes the connection with `code` (1000 by default) and returns how it ended.
    ///
    /// Waits for the server's answer at most three seconds. Closing an ended connection returns
    /// how it ended.
    @discardableResult
    public func close(code: Int = 1000, reason: String? = nil) async -> WebSocketClose {
        let writer = state.withLock { state -> WebSocketOutboundWriter? in
            guard state.close == nil, state.closing == nil else { return nil }
            state.closing = (code, reason)
            return state.writer
        }
        if let writer {
            try? await writer.close(WebSocketErrorCode(codeNumber: code), reason: reason)
        }
        // The server has `closeWait` to answer; then the connection is ended without it. (The
        // reader goes on reading until the answer comes, so the bound is kept here, not by it.)
        let connection = task.withLock { $0 }
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await connection?.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: Self.closeWait)
                return false
            }
            if await group.next() == false {
                state.withLock { $0.unanswered = true }
                connection?.cancel()
            }
            group.cancelAll()
        }
        return state.withLock { $0.close } ?? WebSocketClose(initiator: .client)
    }

    /// How long ``close(code:reason:)`` waits for the server's close frame.
    static let closeWait: Duration = .seconds(3)

    /// Ends the connection at once, without a close handshake.
    public func cancel() {
        task.withLock { $0?.cancel() }
    }

    /// How the connection ended, or `nil` while it is open.
    public var closed: WebSocketClose? { state.withLock { $0.close } }

    // MARK: - Inside

    /// Fails an opening still under way (a timeout, a cancelled task) and ends the connection.
    private func failOpening(_ error: any Error) {
        let opening = state.withLock { state in
            defer { state.opening = nil }
            return state.opening
        }
        guard let opening else { return }
        opening.resume(throwing: error)
        task.withLock { $0?.cancel() }
    }

    private func openWriter() throws(NetworkError) -> WebSocketOutboundWriter {
        let (writer, close) = state.withLock { ($0.writer, $0.close) }
        guard close == nil, let writer else {
            throw NetworkError.connectionClosed("the WebSocket to \(url.authority) is closed")
        }
        return writer
    }

    /// Runs for as long as the connection is open: joins fragments into messages.
    private func converse(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, opened: ContinuousClock.Instant,
        limit: Int, sink: AsyncStream<WebSocketEvent>.Continuation
    ) async throws {
        let opening = state.withLock { state in
            state.writer = outbound
            state.timer?.cancel()
            defer { state.opening = nil }
            return state.opening
        }
        guard let opening else { return }
        opening.resume()
        var pending: (binary: Bool, bytes: ByteBuffer)?
        defer {
            let unfinished = pending?.bytes.readableBytes
            state.withLock { $0.unfinished = unfinished }
        }
        for try await frame in inbound {
            var data = frame.data
            switch frame.opcode {
            case .text, .binary:
                pending = (frame.opcode == .binary, data)
            case .continuation:
                guard pending != nil else { continue }
                pending?.bytes.writeBuffer(&data)
            }
            if let size = pending?.bytes.readableBytes, size > limit {
                try await outbound.close(.messageTooLarge, reason: nil)
                pending = nil
                continue
            }
            guard frame.fin, let message = pending else { continue }
            pending = nil
            let bytes = Data(message.bytes.readableBytesView)
            let value: WebSocketMessage =
                message.binary ? .binary(bytes) : .text(String(decoding: bytes, as: UTF8.self))
            sink.yield(.message(value, at: ContinuousClock.now - opened))
        }
    }

    /// Records how the connection ended and delivers it as the last event.
    ///
    /// Returns how it ended, or `nil` when it never opened.
    @discardableResult
    private func finish(
        _ result: Result<WebSocketCloseFrame?, any Error>, url: RequestURL,
        sink: AsyncStream<WebSocketEvent>.Continuation
    ) -> WebSocketClose? {
        let (opening, close, opened) = state.withLock {
            state -> (CheckedContinuation<Void, any Error>?, WebSocketClose, Bool) in
            let opening = state.opening
            let opened = state.writer != nil
            state.opening = nil
            state.timer?.cancel()
            let unfinished = state.unfinished
            var close: WebSocketClose
            switch result {
            case .success(let frame?):
                if let closing = state.closing {
                    close = WebSocketClose(
                        initiator: .client, code: closing.code, reason: closing.reason,
                        answer: Self.number(frame.closeCode))
                } else {
                    close = WebSocketClose(
                        initiator: .server, code: Self.number(frame.closeCode),
                        reason: frame.reason.flatMap { $0.isEmpty ? nil : $0 })
                }
            case .success(nil):
                close = WebSocketClose(
                    initiator: .dropped, unfinishedBytes: unfinished,
                    error: "\(url.authority) ended the connection without a close frame")
            case .failure(let error):
                close = WebSocketClose(
                    initiator: .dropped, unfinishedBytes: unfinished,
                    error: Self.map(error, url: url).description)
            }
            if let closing = state.closing, close.initiator == .dropped, unfinished == nil, case .success = result {
                // We closed and the server went without answering: ended all the same.
                close = WebSocketClose(initiator: .client, code: closing.code, reason: closing.reason)
            }
            if let closing = state.closing, state.unanswered {
                close = WebSocketClose(
                    initiator: .client, code: closing.code, reason: closing.reason,
                    error:
                        "\(url.authority) did not answer the close within \(Self.closeWait.components.seconds) s: ended without it"
                )
            }
            state.close = close
            state.writer = nil
            return (opening, close, opened)
        }
        if let opening {
            switch result {
            case .failure(let error): opening.resume(throwing: error)
            case .success:
                opening.resume(throwing: NetworkError.connectionClosed("\(url.authority) closed before the upgrade"))
            }
        }
        sink.yield(.closed(close))
        sink.finish()
        return opened ? close : nil
    }

    private static func number(_ code: WebSocketErrorCode) -> Int {
        switch code {
        case .normalClosure: 1000
        case .goingAway: 1001
        case .protocolError: 1002
        case .unacceptableData: 1003
        case .dataInconsistentWithMessage: 1007
        case .policyViolation: 1008
        case .messageTooLarge: 1009
        case .missingExtension: 1010
        case .unexpectedServerError: 1011
        case .unknown(let value): Int(value)
        }
    }

    /// `ws://` and `wss://` as they are; `http://` and `https://` as the WebSocket schemes.
    static func webSocketURL(_ text: String) throws(NetworkError) -> RequestURL {
        let lower = text.lowercased()
        let scheme: String
        let rest: Substring
        if lower.hasPrefix("ws://") || lower.hasPrefix("http://") {
            scheme = "http"
            rest = text[text.index(after: text.firstIndex(of: ":")!)...]
        } else if lower.hasPrefix("wss://") || lower.hasPrefix("https://") {
            scheme = "https"
            rest = text[text.index(after: text.firstIndex(of: ":")!)...]
        } else {
            throw NetworkError.invalidURL(
                text, reason: "a WebSocket URL starts with ws://, wss://, http:// or https://")
        }
        var url = try RequestURL(parsing: scheme + ":" + rest)
        url.scheme = scheme == "https" ? "wss" : "ws"
        return url
    }

    /// NIO, TLS and upgrade errors as ``NetworkError``, with the host and what to do.
    static func map(_ error: any Error, url: RequestURL) -> NetworkError {
        if let error = error as? NIOSSLExtraError, error == .cannotUseIPAddressInSNI {
            // WSClient always names the host for SNI, which TLS does not allow for an address.
            return .tls(
                host: url.host, reason: "wss:// to an IP address is not supported here: use the server's host name")
        }
        let port = url.port ?? (url.scheme == "wss" ? 443 : 80)
        if let mapped = NetworkError.socket(error, url: url, port: port, inner: { map($0, url: url) }) {
            return mapped
        }
        switch error {
        case ChannelError.connectTimeout(let after):
            return .timeout(.connect, after: .nanoseconds(after.nanoseconds))
        case is ChannelError:
            return .connectionClosed("the WebSocket to \(url.authority) is closed")
        case let error as WebSocketClientError where error == .webSocketUpgradeFailed:
            return .transport(
                "\(url.authority) did not switch \(url.path) to WebSocket (no 101 Switching Protocols): is it a WebSocket endpoint?"
            )
        case let error as WebSocketClientError where error == .proxyHandshakeFailed:
            return .transport("the proxy refused the connection to \(url.authority)")
        case let error as WebSocketClientError where error == .proxyHandshakeTimeout:
            return .transport("the proxy did not connect to \(url.authority) in time")
        case let error as WebSocketClientError:
            return .transport("the WebSocket to \(url.authority) failed: \(error)")
        default:
            return .transport("the WebSocket to \(url.authority) failed: \(error)")
        }
    }
}
