import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A native app's redirect URI: an HTTP listener on `127.0.0.1` for one answer.
///
/// As [RFC 8252 §7.3](https://www.rfc-editor.org/rfc/rfc8252#section-7.3) has it, the browser
/// comes back here with the authorization's answer in the query. The listener answers the browser
/// with a short page and hands the query over; any other path (a browser's `favicon.ico`) is a
/// 404 and the wait goes on.
final class LoopbackRedirect: Sendable {
    /// The port it listens on (the one asked for, or the system's choice for 0).
    let port: Int
    /// The path the redirect URI names.
    let path: String
    private let channel: any Channel
    private let answers: AsyncStream<[String: String]>

    /// `http://127.0.0.1:PORT/PATH`, as the authorization request names it.
    var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

    private init(port: Int, path: String, channel: any Channel, answers: AsyncStream<[String: String]>) {
        self.port = port
        self.path = path
        self.channel = channel
        self.answers = answers
    }

    /// Listens on `127.0.0.1:port` (0: any free port) for requests to `path`.
    static func listen(port: Int, path: String = "/callback") async throws -> LoopbackRedirect {
        let (answers, continuation) = AsyncStream.makeStream(of: [String: String].self)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(
                        RedirectHandler(path: path, answers: continuation))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
        } catch {
            throw NetworkError.transport(
                "cannot listen for the OAuth2 redirect on 127.0.0.1:\(port): \(error)"
                    + (port == 0 ? "" : " (is the port in use? --redirect-port 0 takes a free one)"))
        }
        let bound = channel.localAddress?.port ?? port
        return LoopbackRedirect(port: bound, path: path, channel: channel, answers: answers)
    }

    /// The query of the first request to ``path``, waiting at most `timeout`.
    func answer(within timeout: Duration) async throws -> [String: String] {
        let answers = self.answers
        return try await withThrowingTaskGroup(of: [String: String]?.self) { group in
            group.addTask {
                for await answer in answers { return answer }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw NetworkError.timeout(.total, after: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else {
                throw NetworkError.cancelled(after: nil)
            }
            return answer
        }
    }

    /// Stops listening.
    func close() async {
        try? await channel.close()
    }
}

/// Answers each request on the listener: the redirect's path hands its query over and tells the
/// person to go back to the terminal.
private final class RedirectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let path: String
    let answers: AsyncStream<[String: String]>.Continuation
    private var uri: String?

    init(path: String, answers: AsyncStream<[String: String]>.Continuation) {
        self.path = path
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): uri = head.uri
        case .body: break
        case .end:
            let components = URLComponents(string: "http://127.0.0.1" + (uri ?? "/"))
            let query = Dictionary(
                (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                uniquingKeysWith: { first, _ in first })
            let page: (HTTPResponseStatus, String)
            if components?.path == path {
                answers.yield(query)
                page =
                    query["error"] != nil
                    ? (
                        .ok,
                        "Fathom: the authorization server answered \(Self.escaped(query["error"] ?? "")). You can close this tab."
                    )
                    : (.ok, "Fathom has the answer. You can close this tab and go back to the terminal.")
            } else {
                page = (.notFound, "Not found.")
            }
            respond(context: context, status: page.0, text: page.1)
        }
    }

    private func respond(context: ChannelHandlerContext, status: HTTPResponseStatus, text: String) {
        let html = "<!doctype html><meta charset=utf-8><title>Fathom</title><p>\(text)</p>\n"
        var buffer = context.channel.allocator.buffer(capacity: html.utf8.count)
        buffer.writeString(html)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: String(buffer.readableBytes))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// The server's error code shown in the page, with nothing that could be markup.
    private static func escaped(_ text: String) -> String {
        String(text.prefix(80).filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
    }
}
