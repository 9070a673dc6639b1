import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// The network transport, on AsyncHTTPClient: TLS, HTTP/1.1 and HTTP/2, redirects, proxies,
/// timeouts and decompression.
///
/// Connections are pooled and kept alive across requests. Redirects are followed here rather than
/// inside AsyncHTTPClient so that each hop is checked: `Authorization`, `Proxy-Authorization` and
/// `Cookie` are dropped when a redirect leaves the origin (scheme, host and port), `303` (and `301`/`302`
/// after `POST`) becomes `GET` without a body, and the chain is reported in
/// ``NetworkResponse/redirects``.
///
/// A body larger than ``Configuration/maxBodySize`` fails with ``NetworkError/bodyTooLarge(limit:decompressed:)``
/// rather than being truncated, so a partial document is never mistaken for a whole one.
///
/// A transport you create owns connections: call ``shutdown()`` when done with it. ``shared`` lives
/// as long as the process.
public final class AsyncHTTPClientTransport: Transport {
    /// How the transport connects: TLS, HTTP/2, redirects, timeouts, proxies, decompression, body size, cookies.
    public struct Configuration: Hashable, Sendable {
        /// Whether server certificates are verified.
        ///
        /// `true` by default; `false` is the insecure switch.
        public var verifyCertificates: Bool
        /// A PEM file of extra trusted CA certificates.
        public var caFile: String?
        /// Whether HTTP/2 may be negotiated (over TLS).
        ///
        /// `true` by default.
        public var allowHTTP2: Bool
        /// The most redirects followed; `nil` returns 3xx responses as they are.
        ///
        /// 10 by default.
        public var redirectLimit: Int?
        /// The longest a connection may take to establish.
        ///
        /// 10 s by default.
        public var connectTimeout: Duration
        /// The longest a whole request may take, redirects included, unless the request sets its own.
        ///
        /// 60 s by default.
        public var timeout: Duration
        /// Proxies; from the environment by default.
        public var proxy: ProxySettings
        /// Whether gzip and deflate responses are decompressed (and `Accept-Encoding` sent).
        ///
        /// `true` by default.
        public var decompression: Bool
        /// The largest decompressed/compressed ratio accepted, against decompression bombs.
        ///
        /// 100 by default.
        public var decompressionRatioLimit: Int
        /// The largest body kept in memory, after decompression.
        ///
        /// 64 MiB by default.
        public var maxBodySize: Int
        /// Where cookies are kept between requests and redirect hops; `nil` (the default) keeps none.
        public var cookieJar: CookieJar?
        /// The most HTTP/1.1 connections open to one host at once: requests beyond it wait for one.
        ///
        /// 64 by default, so that a batch of 64 at once (``NetworkClient/send(_:isolation:through:makeRequest:handle:)``)
        /// gets a connection each; connections are opened only as requests need them.
        public var maxConnectionsPerHost = 64

        /// A configuration; every part has the default its property states.
        public init(
            verifyCertificates: Bool = true, caFile: String? = nil, allowHTTP2: Bool = true,
            redirectLimit: Int? = 10, connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(60),
            proxy: ProxySettings = .environment, decompression: Bool = true, decompressionRatioLimit: Int = 100,
            maxBodySize: Int = 64 * 1024 * 1024, cookieJar: CookieJar? = nil
        ) {
            self.cookieJar = cookieJar
            self.verifyCertificates = verifyCertificates
            self.caFile = caFile
            self.allowHTTP2 = allowHTTP2
            self.redirectLimit = redirectLimit
            self.connectTimeout = connectTimeout
            self.timeout = timeout
            self.proxy = proxy
            self.decompression = decompression
            self.decompressionRatioLimit = decompressionRatioLimit
            self.maxBodySize = maxBodySize
        }
    }

    /// How the transport connects.
    public let configuration: Configuration
    /// One AsyncHTTPClient per proxy in use (most often just the direct one).
    private let clients = Mutex<[ProxyServer?: HTTPClient]>([:])
    /// Each request's own TLS (a client certificate, trust roots), built once per pair: the PEM
    /// files are read and parsed on first use, not on every request of a batch.
    private let requestTLSConfigurations = Mutex<[RequestTLS: TLSConfiguration]>([:])

    private struct RequestTLS: Hashable {
        var identity: ClientIdentity?
        var trustRootsFile: String?
    }
    private let bodyDeadlines = BodyDeadlines()
    /// The batch's engine (``HTTP1Engine``), once a batch has used it.
    let batchEngine = Mutex<HTTP1Engine?>(nil)

    /// The transport ``NetworkClient`` uses by default, with the default configuration.
    public static let shared = AsyncHTTPClientTransport()

    /// A transport with its own connection pool, made from `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    deinit {
        let clients = self.clients.withLock { $0.values }
        for client in clients {
            client.shutdown { _ in }
        }
    }

    /// Closes every connection.
    ///
    /// Requests sent afterwards fail.
    public func shutdown() async throws {
        let clients = self.clients.withLock { state in
            defer { state.removeAll() }
            return Array(state.values)
        }
        for client in clients {
            try await client.shutdown()
        }
        batchEngine.withLock { engine in
            defer { engine = nil }
            return engine
        }?.closeIdle()
    }

    /// Sends the request, following redirects and keeping cookies as configured.
    public func send(_ request: PreparedRequest) async throws -> NetworkResponse<Data> {
        let timeout = request.timeout ?? configuration.timeout
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        let start = ContinuousClock.now
        var current = request
        if configuration.decompression, !current.headers.contains(.acceptEncoding) {
            current.headers.add(.acceptEncoding, "gzip, deflate")
        }
        var redirects: [RequestURL] = []
        // The jar manages `Cookie` unless the caller set one.
        let jar = current.headers.contains(.cookie) ? nil : configuration.cookieJar
        while true {
            if let jar {
                current.headers.remove(.cookie)
                if let cookie = jar.header(for: current.url) { current.headers.add(.cookie, cookie) }
            }
            let response = try await receive(current, start: start, deadline: deadline, timeout: timeout)
            let code = Int(response.status.code)
            if let jar, response.headers.contains(name: "set-cookie") {
                jar.store(from: NetworkHeaders(response.headers.map { ($0.name, $0.value) }), url: current.url)
            }
            if let limit = configuration.redirectLimit, Redirect.isRedirect(code),
                let location = response.headers.first(name: "location")
            {
                await response.discardBody()
                guard redirects.count < limit else {
                    throw NetworkError.tooManyRedirects(limit: limit, lastURL: current.url.description)
                }
                redirects.append(current.url)
                current = try Redirect.follow(current, status: code, location: location)
                continue
            }
            let body: Data
            let status = HTTPStatus(code: code, reasonPhrase: response.status.reasonPhrase)
            switch response.body {
            case .whole(let buffer):
                body = Data(buffer.readableBytesView)
            case .streaming(let streaming):
                if let watch = current.watch,
                    watch.streams(status, NetworkHeaders(response.headers.map { ($0.name, $0.value) }))
                {
                    body = await stream(streaming, to: watch, deadline: deadline)
                } else {
                    do {
                        body = try await collect(streaming, deadline: deadline, timeout: timeout)
                    } catch {
                        throw map(error, url: current.url, timeout: timeout)
                    }
                }
            }
            return NetworkResponse(
                status: status,
                headers: NetworkHeaders(response.headers.map { ($0.name, $0.value) }),
                body: body,
                httpVersion: response.version.major == 2
                    ? "HTTP/2" : "HTTP/\(response.version.major).\(response.version.minor)",
                request: current,
                redirects: redirects,
                timing: .init(firstByte: response.firstByte, total: ContinuousClock.now - start))
        }
    }

    /// Opens the batch engine's connections for `request` when the engine would carry it.
    public func openConnections(for request: PreparedRequest, count: Int) async {
        guard HTTP1Engine.carries(request), configuration.proxy.proxy(for: request.url) == nil else { return }
        await engine.open(count, for: request.url)
    }

    /// A response's head, and its body still to read or already whole.
    private struct Received {
        enum Body {
            /// AsyncHTTPClient's body, to be read.
            case streaming(HTTPClientResponse)
            /// The batch engine's, gathered.
            case whole(ByteBuffer)
        }
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var version: HTTPVersion
        var firstByte: Duration
        var body: Body

        func discardBody() async {
            if case .streaming(let response) = body { await AsyncHTTPClientTransport.discard(response.body) }
        }
    }

    /// Sends one hop of a request and waits for its response's head: through the batch engine
    /// when a batch is running and the engine carries the request, through AsyncHTTPClient
    /// otherwise.
    private func receive(
        _ request: PreparedRequest, start: ContinuousClock.Instant, deadline: NIODeadline, timeout: Duration
    ) async throws -> Received {
        if HTTP1Engine.batched, HTTP1Engine.carries(request), configuration.proxy.proxy(for: request.url) == nil {
            do {
                let answer = try await engine.exchange(
                    request, deadline: deadline, timeout: NetworkError.timeout(.total, after: timeout))
                return Received(
                    status: answer.head.status, headers: answer.head.headers, version: answer.head.version,
                    firstByte: answer.headArrived - start, body: .whole(answer.body))
            } catch {
                throw map(error, url: request.url, timeout: timeout)
            }
        }
        let response: HTTPClientResponse
        do {
            let client = try self.client(for: request.url)
            do {
                response = try await client.execute(try makeRequest(request), deadline: deadline)
            } catch  where request.method.isIdempotent && Self.closedBeforeAnswering(error) {
                // A kept-alive connection the server had closed (or a 204 that carried a body
                // and left the connection unusable) fails before any response: an idempotent
                // request goes once more, on a new connection, as curl and browsers do.
                response = try await client.execute(try makeRequest(request), deadline: deadline)
            }
        } catch {
            throw map(error, url: request.url, timeout: timeout)
        }
        return Received(
            status: response.status, headers: response.headers, version: response.version,
            firstByte: ContinuousClock.now - start, body: .streaming(response))
    }

    /// The batch engine, made when a batch first needs it.
    private var engine: HTTP1Engine {
        batchEngine.withLock { engine in
            if let engine { return engine }
            let made = HTTP1Engine(
                settings: .init(
                    connectTimeout: configuration.connectTimeout, decompression: configuration.decompression,
                    decompressionRatioLimit: configuration.decompressionRatioLimit,
                    maxBodySize: configuration.maxBodySize),
                group: HTTPClient.defaultEventLoopGroup)
            engine = made
            return made
        }
    }

    // MARK: - Clients

    private func client(for url: RequestURL) throws -> HTTPClient {
        let proxy = configuration.proxy.proxy(for: url)
        return try clients.withLock { clients in
            if let client = clients[proxy] { return client }
            let client = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: try makeConfiguration(proxy: proxy))
            clients[proxy] = client
            return client
        }
    }

    /// The TLS every connection starts from: verification as configured, the configured CA file
    /// trusted beside the system's.
    private func baseTLS() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !configuration.verifyCertificates {
            tls.certificateVerification = .none
        }
        if let caFile = configuration.caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw NetworkError.file(path: caFile, reason: "CA file not readable")
            }
            tls.additionalTrustRoots = [.file(caFile)]
        }
        return tls
    }

    /// The TLS of a request that brings its own client certificate or trust roots, or `nil` for
    /// the client's own.
    private func requestTLS(_ request: PreparedRequest) throws -> TLSConfiguration? {
        guard request.clientIdentity != nil || request.trustRootsFile != nil else { return nil }
        let key = RequestTLS(identity: request.clientIdentity, trustRootsFile: request.trustRootsFile)
        if let built = requestTLSConfigurations.withLock({ $0[key] }) { return built }
        let built = try makeRequestTLS(request)
        requestTLSConfigurations.withLock { $0[key] = built }
        return built
    }

    private func makeRequestTLS(_ request: PreparedRequest) throws -> TLSConfiguration {
        var tls = try baseTLS()
        if let file = request.trustRootsFile {
            // A file of CA certificates, or a folder of them (curl's --capath).
            tls.additionalTrustRoots += try TrustRoots.files(at: file).map { .file($0) }
        }
        if let identity = request.clientIdentity {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(identity.certificateFile)
            } catch {
                throw NetworkError.file(path: identity.certificateFile, reason: "no PEM certificate in it")
            }
            guard !certificates.isEmpty else {
                throw NetworkError.file(path: identity.certificateFile, reason: "no PEM certificate in it")
            }
            let key = try identity.privateKey()
            tls.certificateChain = certificates.map { .certificate($0) }
            tls.privateKey = .privateKey(key)
        }
        return tls
    }

    private func makeConfiguration(proxy: ProxyServer?) throws -> HTTPClient.Configuration {
        let tls = try baseTLS()
        var timeout = HTTPClient.Configuration.Timeout()
        timeout.connect = TimeAmount(configuration.connectTimeout)
        var ahcProxy: HTTPClient.Configuration.Proxy?
        if let proxy {
            switch proxy.kind {
            case .http:
                let authorization = proxy.username.map {
                    HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
                }
                ahcProxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
            case .socks5:
                ahcProxy = .socksServer(host: proxy.host, port: proxy.port)
            }
        }
        var result = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: timeout,
            proxy: ahcProxy,
            decompression: configuration.decompression
                ? .enabled(limit: .ratio(configuration.decompressionRatioLimit)) : .disabled)
        // Fail at once on a refused connection instead of retrying until the connect timeout.
        result.connectionPool.retryConnectionEstablishment = false
        result.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = configuration.maxConnectionsPerHost
        result.httpVersion = configuration.allowHTTP2 ? .automatic : .http1Only
        return result
    }

    // MARK: - Requests and bodies

    private func makeRequest(_ request: PreparedRequest) throws -> HTTPClientRequest {
        var result = HTTPClientRequest(url: request.url.description)
        result.tlsConfiguration = try requestTLS(request)
        result.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        result.headers = HTTPHeaders(request.headers.map { ($0.name.rawName, $0.value) })
        // HTTP/1.1 asks for a Host; a socket's URL names none, so `localhost`, as curl sends with
        // `--unix-socket`.
        if request.url.socketPath != nil, !request.headers.contains(.host) {
            result.headers.add(name: "Host", value: "localhost")
        }
        switch request.body {
        case nil:
            break
        case .bytes(let data):
            result.body = .bytes(ByteBuffer(bytes: data))
        case .file, .pieces:
            let body = request.body!
            result.body = .stream(Buffers(chunks: body.chunks), length: .known(Int64(body.length)))
        }
        return result
    }

    /// Collects the body, failing with a total timeout at `deadline`.
    ///
    /// AsyncHTTPClient's deadline covers the wait for the response head only; a body that trickles
    /// in would otherwise outlive the timeout the caller set.
    private func collect(_ response: HTTPClientResponse, deadline: NIODeadline, timeout: Duration) async throws -> Data
    {
        guard deadline > NIODeadline.now(),
            let body = try await bodyDeadlines.run(until: deadline, { try await self.collect(response) })
        else {
            throw NetworkError.timeout(.total, after: timeout)
        }
        return body
    }

    private func collect(_ response: HTTPClientResponse) async throws -> Data {
        let limit = configuration.maxBodySize
        if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > limit,
            response.headers.first(name: "content-encoding") == nil
        {
            throw NetworkError.bodyTooLarge(limit: limit, decompressed: false)
        }
        var body = Data()
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= limit else {
                throw NetworkError.bodyTooLarge(
                    limit: limit, decompressed: response.headers.first(name: "content-encoding") != nil)
            }
            chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        }
        return body
    }

    /// A watched body: each chunk handed to `watch` as it arrives, kept up to the size limit.
    ///
    /// It never fails: however the stream ends — the server, the watch, the deadline, a
    /// cancellation, a broken connection — what arrived is the body, and the watch says why.
    private func stream(_ response: HTTPClientResponse, to watch: StreamWatch, deadline: NIODeadline) async -> Data {
        let limit = configuration.maxBodySize
        let collected = try? await bodyDeadlines.run(until: deadline) { () async -> Data in
            var body = Data()
            do {
                for try await chunk in response.body {
                    guard body.count + chunk.readableBytes <= limit else {
                        watch.end(.tooLarge)
                        return body
                    }
                    let data = chunk.withUnsafeReadableBytes { Data($0) }
                    body.append(data)
                    if !watch.chunk(data) {
                        watch.end(.stopped)
                        return body
                    }
                }
                watch.end(.complete)
            } catch {
                watch.end(
                    NIODeadline.now() >= deadline
                        ? .timedOut : Task.isCancelled ? .cancelled : .failed(String(describing: error)))
            }
            return body
        }
        if watch.ending == nil { watch.end(.timedOut) }
        return collected ?? Data()
    }

    /// Reads and drops a redirect's body (up to 64 KiB; a longer one closes the connection).
    fileprivate static func discard(_ body: HTTPClientResponse.Body) async {
        var seen = 0
        do {
            for try await chunk in body {
                seen += chunk.readableBytes
                if seen > 64 * 1024 { break }
            }
        } catch {}
    }

    /// A streamed body's chunks as `ByteBuffer`s.
    private struct Buffers: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let chunks: FileBody.Pieces

        struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: FileBody.Pieces.AsyncIterator
            mutating func next() async throws -> ByteBuffer? {
                try await chunks.next().map { ByteBuffer(bytes: $0) }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(chunks: chunks.makeAsyncIterator())
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
