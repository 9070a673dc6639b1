import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import Synchronization

/// A batch's engine: plain HTTP/1.1 on SwiftNIO's own pipeline, connections kept alive and reused,
/// one request on a connection at a time.
///
/// AsyncHTTPClient is the ceiling of a batch when every request goes through it (about 18,000
/// requests a second at 64 at once on a 2-core machine, where `wrk` reaches 45,000 against the
/// same server): its per-request state machines cost more than the exchange itself. A batch's
/// requests are alike and many, so ``AsyncHTTPClientTransport`` hands the ones this engine can
/// carry — `http` to a host with no proxy, a body in memory, no stream watched — to it while a
/// batch runs (``NetworkClient/send(_:isolation:through:makeRequest:handle:)`` marks its tasks);
/// everything else, and every request at the prompt, still goes through AsyncHTTPClient. What
/// surrounds the exchange is the transport's either way: redirects, cookies, the timeout, the
/// body's bound, decompression, the errors' words.
final class HTTP1Engine: Sendable {
    /// Whether the running task is one request of a batch (set by the scheduled batch).
    @TaskLocal static var batched = false

    /// Where connections go.
    struct Origin: Hashable, Sendable {
        var host: String
        var port: Int
    }

    /// How the engine's connections are made.
    struct Settings: Sendable {
        var connectTimeout: Duration
        var decompression: Bool
        var decompressionRatioLimit: Int
        var maxBodySize: Int
        /// The most idle connections kept per origin.
        var maxIdle = 256
    }

    private let settings: Settings
    private let group: any EventLoopGroup
    private let idle = Mutex<[Origin: [HTTP1Connection]]>([:])
    private let opened = Atomic(0)

    /// How many connections the engine has opened.
    var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    init(settings: Settings, group: any EventLoopGroup) {
        self.settings = settings
        self.group = group
    }

    deinit {
        closeIdle()
    }

    /// Closes every connection not in use.
    func closeIdle() {
        let connections = idle.withLock { idle in
            defer { idle.removeAll() }
            return idle.values.joined()
        }
        for connection in connections { connection.close() }
    }

    /// Whether this engine can carry `request`.
    static func carries(_ request: PreparedRequest) -> Bool {
        guard request.url.scheme == "http", request.watch == nil else { return false }
        switch request.body {
        case nil, .bytes: return true
        case .file, .pieces: return false
        }
    }

    /// Sends `request` on a kept-alive connection to its origin (a new one when none is free)
    /// and gathers its answer, failing at `deadline` with `timeout`.
    ///
    /// An idempotent request whose kept-alive connection turns out closed before any answer goes
    /// once more on a new connection, as AsyncHTTPClient's path does.
    func exchange(
        _ request: PreparedRequest, deadline: NIODeadline, timeout: any Error & Sendable
    ) async throws -> HTTP1Answer {
        let origin = Origin(host: Self.connectableHost(request.url.host), port: request.url.effectivePort)
        let head = Self.head(of: request)
        let body = request.body.flatMap { body -> ByteBuffer? in
            if case .bytes(let data) = body { return ByteBuffer(bytes: data) }
            return nil
        }
        try Task.checkCancellation()
        let reused = takeIdle(origin)
        do {
            let connection: HTTP1Connection
            if let reused { connection = reused } else { connection = try await connect(origin) }
            if Task.isCancelled {
                putIdle(connection, origin)
                throw CancellationError()
            }
            return try await exchange(head, body, on: connection, origin, deadline, timeout)
        } catch HTTP1ExchangeFailure.closedBeforeAnswering where reused != nil && request.method.isIdempotent {
            return try await exchange(head, body, on: connect(origin), origin, deadline, timeout)
        }
    }

    /// Opens connections to `url`'s origin until `count` are idle there, at once; a connection
    /// that cannot be made is left for the requests to meet.
    func open(_ count: Int, for url: RequestURL) async {
        let origin = Origin(host: Self.connectableHost(url.host), port: url.effectivePort)
        let missing = count - idle.withLock { $0[origin]?.count ?? 0 }
        guard missing > 0 else { return }
        await withTaskGroup(of: HTTP1Connection?.self) { group in
            for _ in 0..<missing {
                group.addTask { try? await self.connect(origin) }
            }
            for await connection in group {
                if let connection { putIdle(connection, origin) }
            }
        }
    }

    private func exchange(
        _ head: HTTPRequestHead, _ body: ByteBuffer?, on connection: HTTP1Connection, _ origin: Origin,
        _ deadline: NIODeadline, _ timeout: any Error & Sendable
    ) async throws -> HTTP1Answer {
        let answer = try await withTaskCancellationHandler {
            try await connection.exchange(head, body: body, deadline: deadline, timeout: timeout).get()
        } onCancel: {
            connection.cancel()
        }
        if answer.keepAlive { putIdle(connection, origin) } else { connection.close() }
        return answer
    }

    private func connect(_ origin: Origin) async throws -> HTTP1Connection {
        let settings = self.settings
        let connecting = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(settings.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHTTPClientHandlers()
                    if settings.decompression {
                        try pipeline.addHandler(
                            NIOHTTPResponseDecompressor(limit: .ratio(settings.decompressionRatioLimit)))
                    }
                    try pipeline.addHandler(HTTP1ExchangeHandler(maxBodySize: settings.maxBodySize))
                }
            }
            .connect(host: origin.host, port: origin.port)
        let channel = try await Self.cancellable(connecting)
        opened.add(1, ordering: .relaxed)
        return try await HTTP1Connection.on(channel)
    }

    /// The channel `connecting` makes, or `CancellationError` as soon as the task is cancelled —
    /// a host that never answers is not waited for until the connect timeout after Ctrl-C (a
    /// channel that connects after that is closed).
    private static func cancellable(_ connecting: EventLoopFuture<any Channel>) async throws -> any Channel {
        let loop = connecting.eventLoop
        let answer = loop.makePromise(of: (any Channel).self)
        let settled = NIOLoopBoundBox.makeBoxSendingValue(false, eventLoop: loop)
        connecting.whenComplete { result in
            guard !settled.value else {
                if case .success(let channel) = result { channel.close(promise: nil) }
                return
            }
            settled.value = true
            answer.completeWith(result)
        }
        return try await withTaskCancellationHandler {
            try await answer.futureResult.get()
        } onCancel: {
            loop.execute {
                guard !settled.value else { return }
                settled.value = true
                answer.fail(CancellationError())
            }
        }
    }

    private func takeIdle(_ origin: Origin) -> HTTP1Connection? {
        idle.withLock { idle in
            while let connection = idle[origin]?.popLast() {
                if connection.channel.isActive { return connection }
            }
            return nil
        }
    }

    private func putIdle(_ connection: HTTP1Connection, _ origin: Origin) {
        let kept = idle.withLock { idle in
            guard idle[origin, default: []].count < settings.maxIdle else { return false }
            idle[origin, default: []].append(connection)
            return true
        }
        if !kept { connection.close() }
    }

    /// The request line and headers as AsyncHTTPClient sends them: `Host` from the URL when the
    /// request names none; `Content-Length` for a body, and `0` for none — except where a method
    /// gives a body no meaning (GET, HEAD, DELETE, CONNECT, TRACE) and there is none.
    static func head(of request: PreparedRequest) -> HTTPRequestHead {
        var headers = HTTPHeaders(request.headers.map { ($0.name.rawName, $0.value) })
        if !headers.contains(name: "host") { headers.add(name: "Host", value: request.url.authority) }
        if !headers.contains(name: "content-length"), !headers.contains(name: "transfer-encoding") {
            let length = request.body?.length ?? 0
            if length > 0 || !["GET", "HEAD", "DELETE", "CONNECT", "TRACE"].contains(request.method.rawValue) {
                headers.add(name: "Content-Length", value: String(length))
            }
        }
        return HTTPRequestHead(
            version: .http1_1, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue),
            uri: request.url.pathAndQuery, headers: headers)
    }

    /// A host as a socket connects to it: an IPv6 address without its brackets.
    static func connectableHost(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

/// One kept-alive connection of an ``HTTP1Engine``.
final class HTTP1Connection: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<HTTP1ExchangeHandler>

    /// The connection on `channel`, whose pipeline ends in an ``HTTP1ExchangeHandler``.
    static func on(_ channel: any Channel) async throws -> HTTP1Connection {
        let handler = try await channel.eventLoop.submit {
            NIOLoopBound(
                try channel.pipeline.syncOperations.handler(type: HTTP1ExchangeHandler.self),
                eventLoop: channel.eventLoop)
        }.get()
        return HTTP1Connection(channel: channel, handler: handler)
    }

    private init(channel: any Channel, handler: NIOLoopBound<HTTP1ExchangeHandler>) {
        self.channel = channel
        self.handler = handler
    }

    /// Sends one request and answers with its response.
    func exchange(
        _ head: HTTPRequestHead, body: ByteBuffer?, deadline: NIODeadline, timeout: any Error & Sendable
    ) -> EventLoopFuture<HTTP1Answer> {
        let promise = channel.eventLoop.makePromise(of: HTTP1Answer.self)
        let handler = self.handler
        channel.eventLoop.execute {
            // A cancel that came before the exchange began (it runs first) ends it here.
            if self.cancelled.load(ordering: .relaxed) {
                promise.fail(CancellationError())
                return
            }
            handler.value.start(head, body: body, deadline: deadline, timeout: timeout, promise: promise)
        }
        return promise.futureResult
    }

    /// Ends the exchange in flight (or about to begin) as cancelled, and the connection with it.
    func cancel() {
        let handler = self.handler
        cancelled.store(true, ordering: .relaxed)
        channel.eventLoop.execute { handler.value.fail(CancellationError()) }
    }

    /// Whether the connection's exchange was cancelled: it carries no more.
    private let cancelled = Atomic(false)

    func close() {
        channel.close(promise: nil)
    }
}
