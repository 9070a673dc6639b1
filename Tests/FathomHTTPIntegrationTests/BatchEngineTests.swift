import FathomDemo
import FathomTestSupport
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import FathomHTTP

/// The batch engine (``HTTP1Engine``) against AsyncHTTPClient, the oracle: the same request sent
/// both ways reaches the server the same (the echo shows what arrived) and comes back the same —
/// status, headers, body, redirects, the request as sent — or fails with the same words.
@Suite struct BatchEngineTests {
    let client: NetworkClient
    let base: String

    init() async throws {
        base = try await TestServer.baseURL()
        client = NetworkClient(baseURL: base)
    }

    /// `request` sent as a batch's request (through the engine) and as the prompt's (through
    /// AsyncHTTPClient).
    private typealias Outcome = Result<NetworkResponse<Data>, NetworkError>

    private func bothWays(
        _ request: NetworkRequest, on client: NetworkClient? = nil
    ) async -> (
        engine: Outcome, oracle: Outcome
    ) {
        let client = client ?? self.client
        let engine = await HTTP1Engine.$batched.withValue(true) { await client.result(of: request) }
        let oracle = await client.result(of: request)
        return (engine, oracle)
    }

    /// What must agree: everything but the `Date` header and the timings.
    private func comparable(_ result: Result<NetworkResponse<Data>, NetworkError>) -> String {
        switch result {
        case .failure(let error):
            return "error: \(error)"
        case .success(let response):
            let headers = response.headers.filter { $0.name != "date" }.map { "\($0.name.rawName): \($0.value)" }
            let sent = response.request.headers.map { "\($0.name.rawName): \($0.value)" }
            return """
                \(response.httpVersion) \(response.status.code) \(response.status.reasonPhrase)
                \(headers.joined(separator: "\n"))
                redirects: \(response.redirects.map(\.description))
                sent: \(response.request.method.rawValue) \(response.request.url) \(sent)
                \(String(decoding: response.body, as: UTF8.self))
                """
        }
    }

    private func expectSame(_ request: NetworkRequest, on client: NetworkClient? = nil) async {
        let (engine, oracle) = await bothWays(request, on: client)
        #expect(comparable(engine) == comparable(oracle))
    }

    @Test func generatedRequestsArriveAndReturnAlike() async throws {
        var random = SeededGenerator(seed: 36)
        let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .head, .options]
        let paths = [
            "/echo", "/echo/a/b", "/users/1", "/users", "/status/404", "/status/204", "/status/500", "/gzip",
            "/redirect/2", "/t/redirect-same", "/t/redirect-cross", "/t/multi-header", "/nowhere",
        ]
        let values = ["plain", "with space", "café ☕", "a&b=c", "100%", "", "\"quoted\""]
        func any<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }
        func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
        for _ in 0..<1_000 {
            var request = NetworkRequest(any(paths), method: any(methods))
            for _ in 0..<number(0...3) {
                request = request.query("q\(number(0...9))", any(values))
            }
            for _ in 0..<number(0...3) {
                request = request.header(.init("X-Test-\(number(0...3))"), any(values))
            }
            if request.method != .get, request.method != .head, number(0...1) == 1 {
                switch number(0...3) {
                case 0: request = request.body(jsonText: #"{"n":\#(number(0...999))}"#)
                case 1: request = request.body(form: [("name", any(values))])
                case 2:
                    let bytes = Data((0..<number(0...5000)).map { UInt8(truncatingIfNeeded: $0) })
                    request = request.body(bytes, contentType: "application/octet-stream")
                default: request = request.body(text: "")
                }
            }
            await expectSame(request)
        }
    }

    @Test func bodiesAndTheirBoundsAlike() async throws {
        await expectSame(.get("/large").query("mb", 0.5))
        await expectSame(.get("/t/bomb"))
        let transport = AsyncHTTPClientTransport(configuration: .init(maxBodySize: 1 << 20))
        defer { Task { try await transport.shutdown() } }
        let small = NetworkClient(baseURL: base, transport: transport)
        await expectSame(.get("/large").query("mb", 2), on: small)
        let undecompressed = AsyncHTTPClientTransport(configuration: .init(decompression: false))
        defer { Task { try await undecompressed.shutdown() } }
        await expectSame(.get("/gzip"), on: NetworkClient(baseURL: base, transport: undecompressed))
    }

    @Test func failuresAreWordedAlike() async throws {
        let port = try Sockets.closedPort()
        await expectSame(.get("http://127.0.0.1:\(port)/"))
        await expectSame(.get("/slow").query("ms", 3000).timeout(.milliseconds(300)))
        await expectSame(.get("/t/redirect-loop"))
        let listener = try Sockets.Unresponsive()
        defer { listener.close() }
        let transport = AsyncHTTPClientTransport(configuration: .init(connectTimeout: .milliseconds(300)))
        defer { Task { try await transport.shutdown() } }
        await expectSame(.get("http://127.0.0.1:\(listener.port)/"), on: NetworkClient(transport: transport))
    }

    @Test func cookiesAreKeptAlike() async throws {
        let jar = CookieJar()
        let transport = AsyncHTTPClientTransport(configuration: .init(cookieJar: jar))
        defer { Task { try await transport.shutdown() } }
        let client = NetworkClient(baseURL: base, transport: transport)
        _ = try await HTTP1Engine.$batched.withValue(true) { try await client.send(.get("/t/set-cookie")) }
        let echo = try await HTTP1Engine.$batched.withValue(true) { try await client.send(.get("/echo")) }
        let body = try JSONDecoder().decode(EchoBody.self, from: echo.body)
        #expect(body.header("cookie") == ["a=1; b=2"])
    }

    /// A batch of 2,000 at 64 at once goes through the engine on at most 64 connections, kept
    /// for the next batch, each answer whole.
    @Test func aBatchReusesItsConnections() async throws {
        let transport = AsyncHTTPClientTransport()
        defer { Task { try await transport.shutdown() } }
        let client = NetworkClient(baseURL: base, transport: transport)
        let request = try NetworkRequest.post("/echo").body(jsonText: #"{"n":1}"#).prepared(baseURL: base)
        var bodies = 0
        let end = await client.send(BatchPlan(count: 2_000, maxConcurrent: 64)) { _ in
            request
        } handle: { done in
            guard case .success(let response) = done.result, response.status.code == 200,
                let echo = try? JSONDecoder().decode(EchoBody.self, from: response.body), echo.body == #"{"n":1}"#
            else {
                Issue.record("unexpected \(done.result)")
                return
            }
            bodies += 1
        }
        #expect(end.sent == 2_000 && bodies == 2_000)
        let opened = transport.batchEngine.withLock { $0?.connectionsOpened } ?? 0
        #expect((1...64).contains(opened))
        _ = await client.send(BatchPlan(count: 200, maxConcurrent: 64)) { _ in
            request
        } handle: { _ in
        }
        #expect(transport.batchEngine.withLock { $0?.connectionsOpened } == opened)
    }

    /// A server that closes a kept-alive connection between requests: the next request on it
    /// fails before any answer and goes once more on a new connection.
    @Test func aConnectionTheServerClosedIsReplaced() async throws {
        let server = try await ClosingServer.start()
        defer { server.stop() }
        let request = try NetworkRequest.get("http://127.0.0.1:\(server.port)/").prepared()
        var answered = 0
        let end = await client.send(BatchPlan(count: 20, maxConcurrent: 1)) { _ in
            request
        } handle: { done in
            if case .success(let response) = done.result, response.status.code == 200 { answered += 1 }
        }
        #expect(end.sent == 20 && answered == 20)
        #expect(server.connections() >= 10)
    }

    /// Ctrl-C while a batch's connections are being made to a host that never answers ends it
    /// at once, not at the connect timeout — opening them ahead of the clock too.
    @Test func cancellingWhileConnectingEndsAtOnce() async throws {
        let listener = try Sockets.Unresponsive()
        defer { listener.close() }
        let transport = AsyncHTTPClientTransport(configuration: .init(connectTimeout: .seconds(20)))
        defer { Task { try await transport.shutdown() } }
        let client = NetworkClient(transport: transport)
        let request = try NetworkRequest.get("http://127.0.0.1:\(listener.port)/").prepared()
        let plan = BatchPlan(count: 4, maxConcurrent: 4)
        let start = ContinuousClock.now
        let task = Task {
            await client.openConnections(for: request, plan: plan)
            return await client.send(plan) { _ in
                request
            } handle: { _ in
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        _ = await task.value
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func cancellingABatchEndsItsExchanges() async throws {
        let slow = try NetworkRequest.get("/slow").query("ms", 5000).prepared(baseURL: base)
        let start = ContinuousClock.now
        let task = Task { [client] in
            await client.send(BatchPlan(count: 8, maxConcurrent: 8)) { _ in
                slow
            } handle: { done in
                Issue.record("a result was handed over: \(done.result)")
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let end = await task.value
        guard case .cancelled(let sent, let abandoned) = end else {
            Issue.record("not cancelled: \(end)")
            return
        }
        #expect(sent == 8 && abandoned == 8)
        #expect(ContinuousClock.now - start < .seconds(3))
    }
}

/// A server that answers each request with `Connection: close` written nowhere and closes the
/// connection after the answer — as a server whose keep-alive ran out does.
private final class ClosingServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let accepted: Counter

    final class Counter: Sendable {
        let value = Atomic(0)
    }

    private init(port: Int, channel: any Channel, accepted: Counter) {
        self.port = port
        self.channel = channel
        self.accepted = accepted
    }

    static func start() async throws -> ClosingServer {
        let accepted = Counter()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                accepted.value.add(1, ordering: .relaxed)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AnswerAndClose())
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ClosingServer(port: channel.localAddress!.port!, channel: channel, accepted: accepted)
    }

    func connections() -> Int { accepted.value.load(ordering: .relaxed) }

    func stop() { channel.close(promise: nil) }

    private final class AnswerAndClose: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        private var seen = ""

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            seen += String(buffer: unwrapInboundIn(data))
            guard seen.contains("\r\n\r\n") else { return }
            seen = ""
            let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok"
            // Kept alive as far as the headers say; closed a moment after, as an idle timeout would.
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
            let loop = context.eventLoop
            let bound = NIOLoopBound(context, eventLoop: loop)
            loop.scheduleTask(in: .milliseconds(5)) { bound.value.close(promise: nil) }
        }
    }
}
