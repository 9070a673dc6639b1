import Foundation
import Synchronization

/// A TCP listener on 127.0.0.1 (a free port) that serves each connection on a thread of its own:
/// what the test servers that speak raw bytes (``FaultServer``, ``RogueWebSocketServer``) share.
public final class LoopbackListener: Sendable {
    public let port: Int
    private let listener: Int32
    private let stopped = Flag()

    /// Whether the listener was stopped, shared with its accepting thread.
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// Starts accepting; `serve` gets each connection and owns it (closed after it returns).
    public init(serve: @escaping @Sendable (Int32) -> Void) throws {
        let (listener, port) = try Sockets.listener()
        self.listener = listener
        self.port = port
        let stopped = self.stopped
        Thread {
            while !stopped.value.load(ordering: .relaxed) {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else {
                    if errno == EINTR { continue }
                    return
                }
                Thread {
                    defer { close(connection) }
                    serve(connection)
                }.start()
            }
        }.start()
    }

    deinit { stop() }

    /// Stops accepting (connections being served go on).
    public func stop() {
        guard !stopped.value.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
