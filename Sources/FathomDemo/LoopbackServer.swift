import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A Hummingbird server listening on 127.0.0.1 at a free port, for the demo and for tests.
public final class LoopbackServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// The demo's gRPC service beside it, when it has one (``DemoAPI/start(port:accessLog:)``).
    public let grpc: DemoGRPCServer?
    private let task: Task<Void, any Error>

    private init(port: Int, task: Task<Void, any Error>, grpc: DemoGRPCServer? = nil) {
        self.port = port
        self.task = task
        self.grpc = grpc
    }

    /// The same server with `grpc` beside it: stopped with it.
    func with(_ grpc: DemoGRPCServer) -> LoopbackServer {
        LoopbackServer(port: port, task: task, grpc: grpc)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts serving `router` and returns once the server accepts connections.
    ///
    /// - Parameters:
    ///   - port: The port to listen on; 0 (the default) picks a free one.
    ///   - server: How connections are served; HTTP/1.1 by default.
    /// - Throws: When the server cannot bind.
    public static func start<Context: RequestContext>(
        router: Router<Context>, port: Int = 0, server: HTTPServerBuilder = .http1()
    ) async throws
        -> LoopbackServer
    where Context.Source == ApplicationRequestContextSource {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "fathom.demo")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "fathom-demo"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let task = Task {
            defer { continuation.finish() }
            try await app.run()
        }
        for await port in ports {
            return LoopbackServer(port: port, task: task)
        }
        // The stream ended without a port: the server failed to start; report why.
        _ = try await task.result.get()
        throw ServerError.didNotStart
    }

    /// Stops the server and waits until it has closed its connections.
    public func stop() async {
        await grpc?.stop()
        task.cancel()
        _ = try? await task.value
    }

    /// Blocks until the server stops (when the process is interrupted).
    public func wait() async throws {
        try await task.value
    }

    enum ServerError: Error, CustomStringConvertible {
        case didNotStart
        var description: String { "the server did not start" }
    }
}
