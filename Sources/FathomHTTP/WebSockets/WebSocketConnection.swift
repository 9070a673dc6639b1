import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

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
/// Fathom's own client on SwiftNIO's WebSocket frames (AsyncHTTPClient has no WebSocket client),
/// on the same event loops as the HTTP transport. It holds a server to the protocol: a masked
/// frame, a reserved bit or opcode, a text message that is not UTF-8, an invalid close code, or a
/// subprotocol or extension the upgrade did not offer fails the connection, and says why.
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
        /// The client certificate shown to a `wss` server that asks for one; `nil` takes the
        /// upgrade request's (``PreparedRequest/clientIdentity``).
        public var clientIdentity: ClientIdentity?
        /// A PEM file of CAs the server's certificate is trusted by, beside the system's; `nil`
        /// takes the upgrade request's (``PreparedRequest/trustRootsFile``).
        public var trustRootsFile: String?

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

    /// The subprotocol the server chose among those the upgrade offered (its
    /// `Sec-WebSocket-Protocol` header), or `nil` when it chose none.
    public var subprotocol: String? { state.withLock { $0.subprotocol } }
    /// The connection's messages as they arrive, then how it ended.
    ///
    /// It ends with ``WebSocketEvent/closed(_:)``; it has one reader. A reader slower than the
    /// server holds the connection back (reading from the network pauses while
    /// 4,096 messages wait), so memory stays flat however fast messages come.
    public let events: AsyncStream<WebSocketEvent>

    /// The most messages that wait for the reader before the connection stops reading.
    @_spi(Fathom) public static let bufferLimit = 4096

    private let state = Mutex(State())
    private let log: WireLog?

    private struct State {
        var channel: (any Channel)?
        /// The subprotocol the server chose among those offered.
        var subprotocol: String?
        /// The code and reason this side closed with, once it did.
        var closing: (code: Int, reason: String?)?
        /// The server's close frame, once it came: the answer to ours, or its own close.
        var serverClose: (code: Int?, reason: String?)?
        /// Fathom failed the connection: the code it sent and why.
        var failure: (code: Int, reason: String)?
        /// What ended the connection when nobody closed it.
        var dropError: String?
        /// This side closed and the server did not answer in time: the connection was ended.
        var unanswered = false
        var close: WebSocketClose?
        /// Completed when the connection has ended and ``close`` is known.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let mailbox = Mailbox()

    /// Messages between the network and the reader of ``events``: handed over as the reader asks,
    /// and past 4,096 waiting, the channel stops reading from the
    /// network until the reader has caught up to a quarter of it.
    private final class Mailbox: Sendable {
        private struct Inbox {
            var waiting = CircularBuffer<WebSocketEvent>()
            var reader: CheckedContinuation<WebSocketEvent?, Never>?
            var finished = false
            var paused = false
            var channel: (any Channel)?
        }

        private let inbox = Mutex(Inbox())

        func attach(_ channel: any Channel) {
            inbox.withLock { $0.channel = channel }
        }

        /// The next event for the reader, waiting for one; `nil` after the last.
        func next() async -> WebSocketEvent? {
            await withCheckedContinuation { continuation in
                let (event, resume) = inbox.withLock { inbox -> (WebSocketEvent??, (any Channel)?) in
                    if let event = inbox.waiting.popFirst() {
                        var resume: (any Channel)?
                        if inbox.paused, inbox.waiting.count <= WebSocketConnection.bufferLimit / 4 {
                            inbox.paused = false
                            resume = inbox.channel
                        }
                        return (.some(event), resume)
                    }
                    if inbox.finished { return (.some(nil), nil) }
                    inbox.reader = continuation
                    return (nil, nil)
                }
                resume?.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
                if let event { continuation.resume(returning: event) }
            }
        }

        /// Hands `event` to a waiting reader, or keeps it (pausing the network past the limit).
        func post(_ event: WebSocketEvent, last: Bool) {
            let (reader, pause) = inbox.withLock {
                inbox -> (CheckedContinuation<WebSocketEvent?, Never>?, (any Channel)?) in
                if last { inbox.finished = true }
                if let reader = inbox.reader {
                    inbox.reader = nil
                    return (reader, nil)
                }
                inbox.waiting.append(event)
                guard !inbox.paused, inbox.waiting.count >= WebSocketConnection.bufferLimit else { return (nil, nil) }
                inbox.paused = true
                return (nil, inbox.channel)
            }
            reader?.resume(returning: event)
            pause?.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        }
    }

    private init(url: RequestURL, log: WireLog?) {
        self.url = url
        self.log = log
        let mailbox = self.mailbox
        events = AsyncStream(unfolding: { await mailbox.next() })
    }

    private func post(_ event: WebSocketEvent, last: Bool = false) {
        mailbox.post(event, last: last)
    }

    /// Opens a connection to `url` (`ws://`, `wss://`, or `http(s)://` taken as them) and
    /// returns once the server has accepted the upgrade.
    ///
    /// - Throws: ``NetworkError``: refused, timed out, TLS, or the server did not switch protocols.
    public static func open(
        _ url: String, configuration: Configuration = Configuration()
    ) async throws(NetworkError) -> WebSocketConnection {
        try await open(url, configuration: configuration, refused: nil)
    }

    /// Opens as ``open(_:configuration:)`` does, and tells `refused` the status a server answered
    /// the upgrade with instead of switching protocols.
    static func open(
        _ url: String, configuration: Configuration, refused: (@Sendable (Int) -> Void)?
    ) async throws(NetworkError) -> WebSocketConnection {
        let target = try webSocketURL(url)
        let log = configuration.logger.map {
            WireLog(logger: $0, detail: configuration.logDetail, redactor: configuration.redactor)
        }
        log?.logUpgrade(url: target, headers: configuration.headers)
        let connection = WebSocketConnection(url: target, log: log)
        let limit = configuration.maxMessageSize
        let opened = ContinuousClock.now
        do {
            // Connecting has its own timeout; this one bounds the rest (a proxy, TLS, the upgrade):
            // it closes the channel, which ends the opening. So does a cancelled task.
            let timedOut = Mutex(false)
            let timer = Task {
                try await Task.sleep(for: configuration.connectTimeout)
                timedOut.withLock { $0 = true }
                connection.cancel()
            }
            defer { timer.cancel() }
            let channel: any Channel
            do {
                channel = try await withTaskCancellationHandler {
                    try await WebSocketOpening.open(
                        target, configuration: configuration,
                        connected: { channel in
                            connection.state.withLock { $0.channel = channel }
                            connection.mailbox.attach(channel)
                        },
                        chosen: { name in connection.state.withLock { $0.subprotocol = name } },
                        handler: { WebSocketFrameHandler(connection: connection, limit: limit, opened: opened) })
                } onCancel: {
                    connection.cancel()
                }
            } catch {
                if timedOut.withLock({ $0 }) {
                    throw NetworkError.timeout(.connect, after: configuration.connectTimeout)
                }
                if Task.isCancelled { throw CancellationError() }
                throw error
            }
            if !channel.isActive { connection.ended(unfinishedBytes: nil) }
        } catch {
            if case WebSocketOpening.Failure.notUpgraded(let status) = error { refused?(Int(status.code)) }
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
        let channel = try openChannel()
        let frame: WebSocketFrame
        switch message {
        case .text(let text):
            frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
        case .binary(let data):
            frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: data))
        }
        try await write(frame, on: channel)
    }

    /// Sends a ping (the server answers with a pong, which the connection consumes).
    ///
    /// - Throws: ``NetworkError/connectionClosed(_:)`` once the connection has ended.
    public func ping(_ payload: Data = Data()) async throws(NetworkError) {
        let channel = try openChannel()
        let frame = WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: ByteBuffer(bytes: payload))
        try await write(frame, on: channel)
    }

    /// Closes the connection with `code` (1000 by default) and returns how it ended.
    ///
    /// Waits for the server's answer at most three seconds; then the connection is ended without
    /// it. Closing an ended connection returns how it ended.
    @discardableResult
    public func close(code: Int = 1000, reason: String? = nil) async -> WebSocketClose {
        let channel = state.withLock { state -> (any Channel)? in
            guard state.close == nil, state.closing == nil, state.failure == nil, state.serverClose == nil else {
                return nil
            }
            state.closing = (code, reason)
            return state.channel
        }
        if let channel {
            var payload = ByteBuffer()
            payload.writeInteger(UInt16(clamping: code))
            if let reason { payload.writeString(reason) }
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
            channel.writeAndFlush(frame, promise: nil)
            // The server has `closeWait` to answer; then the connection is ended without it.
            let wait = Self.closeWait
            channel.eventLoop.scheduleTask(in: TimeAmount(wait)) { [self] in
                guard channel.isActive else { return }
                state.withLock { $0.unanswered = true }
                channel.close(promise: nil)
            }
        }
        await waitForEnd()
        return state.withLock { $0.close } ?? WebSocketClose(initiator: .client)
    }

    /// How long ``close(code:reason:)`` waits for the server's close frame.
    static let closeWait: Duration = .seconds(3)

    /// Ends the connection at once, without a close handshake.
    public func cancel() {
        state.withLock { $0.channel }?.close(promise: nil)
    }

    /// How the connection ended, or `nil` while it is open.
    public var closed: WebSocketClose? { state.withLock { $0.close } }

    // MARK: - Inside

    private func openChannel() throws(NetworkError) -> any Channel {
        let (channel, ended) = state.withLock {
            ($0.channel, $0.close != nil || $0.closing != nil || $0.failure != nil || $0.serverClose != nil)
        }
        guard !ended, let channel, channel.isActive else {
            throw NetworkError.connectionClosed("the WebSocket to \(url.authority) is closed")
        }
        return channel
    }

    private func write(_ frame: WebSocketFrame, on channel: any Channel) async throws(NetworkError) {
        do {
            try await channel.writeAndFlush(frame).get()
        } catch {
            throw Self.map(error, url: url)
        }
    }

    private func waitForEnd() async {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> Bool in
                guard state.close == nil else { return true }
                state.waiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// A whole message arrived (the frame handler, on the event loop).
    func deliver(_ message: WebSocketMessage, at elapsed: Duration) {
        post(.message(message, at: elapsed))
    }

    /// The server's close frame arrived; `true` when the server closed first (it is answered).
    func closeReceived(code: Int?, reason: String?) -> Bool {
        state.withLock { state in
            state.serverClose = (code, reason)
            return state.closing == nil
        }
    }

    /// Fathom failed the connection, sending `code`, for `reason`.
    func failed(code: Int, reason: String) {
        state.withLock { state in
            if state.failure == nil { state.failure = (code, reason) }
        }
    }

    /// The connection broke (an I/O error, TLS).
    func dropped(because error: any Error) {
        let text = Self.map(error, url: url).description
        state.withLock { state in
            if state.dropError == nil { state.dropError = text }
        }
    }

    /// The channel is gone: says how the connection ended, once, as the last event.
    func ended(unfinishedBytes: Int?) {
        let (close, waiters) = state.withLock { state -> (WebSocketClose?, [CheckedContinuation<Void, Never>]) in
            guard state.close == nil else { return (nil, []) }
            let close: WebSocketClose
            if let failure = state.failure {
                close = WebSocketClose(initiator: .client, code: failure.code, error: failure.reason)
            } else if let closing = state.closing {
                if let answer = state.serverClose {
                    close = WebSocketClose(
                        initiator: .client, code: closing.code, reason: closing.reason, answer: answer.code ?? 1005)
                } else if state.unanswered {
                    close = WebSocketClose(
                        initiator: .client, code: closing.code, reason: closing.reason,
                        error:
                            "\(url.authority) did not answer the close within \(Self.closeWait.components.seconds) s: ended without it"
                    )
                } else {
                    // We closed and the server went without answering: ended all the same.
                    close = WebSocketClose(initiator: .client, code: closing.code, reason: closing.reason)
                }
            } else if let server = state.serverClose {
                close = WebSocketClose(initiator: .server, code: server.code, reason: server.reason)
            } else {
                close = WebSocketClose(
                    initiator: .dropped, unfinishedBytes: unfinishedBytes,
                    error: state.dropError ?? "\(url.authority) ended the connection without a close frame")
            }
            state.close = close
            defer { state.waiters = [] }
            return (close, state.waiters)
        }
        guard let close else { return }
        log?.logClose(url: url, close)
        post(.closed(close), last: true)
        for waiter in waiters { waiter.resume() }
    }

    static func number(_ code: WebSocketErrorCode) -> Int {
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
        let port = url.port ?? (url.scheme == "wss" ? 443 : 80)
        if let mapped = NetworkError.socket(error, url: url, port: port, inner: { map($0, url: url) }) {
            return mapped
        }
        switch error {
        case ChannelError.connectTimeout(let after):
            return .timeout(.connect, after: .nanoseconds(after.nanoseconds))
        case let failure as WebSocketOpening.Failure:
            switch failure {
            case .notUpgraded(let status):
                return .transport(
                    "\(url.authority) answered \(status.code) \(status.reasonPhrase) to the upgrade of \(url.path), "
                        + "not 101 Switching Protocols: is it a WebSocket endpoint?")
            case .wrongAccept:
                return .transport(
                    "\(url.authority)'s Sec-WebSocket-Accept does not answer the key Fathom sent (RFC 6455 §4.1): "
                        + "not a WebSocket server, or a proxy in between that changed the upgrade")
            case .notOffered(let header, let value):
                return .transport(
                    "\(url.authority) chose the \(header) '\(value)', which Fathom did not offer (RFC 6455 §4.1): "
                        + "the connection is refused")
            case .proxyRefused(let status):
                return .transport(
                    "the proxy refused the connection to \(url.authority): \(status.code) \(status.reasonPhrase)")
            }
        case is ChannelError:
            return .connectionClosed("the WebSocket to \(url.authority) is closed")
        default:
            return .transport("the WebSocket to \(url.authority) failed: \(error)")
        }
    }
}
