import Foundation
import Synchronization

/// A raw TCP server on 127.0.0.1 that misbehaves on purpose, one fault per path: it writes bytes
/// as scripted, not as HTTP would have them, so tests can see what a client makes of resets,
/// trickles, bad framing, bombs and connections that close under it.
///
/// Every connection is served on its own thread; a request is read up to the end of its head
/// (and a `Content-Length` body), then the script for its path runs. Requests are recorded.
public final class FaultServer: Sendable {
    /// What the server does with a request on a connection.
    public enum Action: Sendable {
        /// Write these bytes; keep the connection open for the next request when `keepAlive`.
        case write(Data, keepAlive: Bool)
        /// Write these bytes, then close the connection (a server that promised keep-alive and lied).
        case writeThenClose(Data)
        /// Close at once with a reset (SO_LINGER 0): no response at all.
        case reset
        /// Write `head`, then `body` one chunk every `interval`, then close.
        case trickle(head: Data, body: Data, chunk: Int, interval: Duration)
    }

    public let port: Int
    private let listener: Int32
    private let script: @Sendable (_ path: String, _ head: String) -> Action
    private let recorded = Mutex<[(head: String, body: Data)]>([])
    private let stopped = Atomic<Bool>(false)

    /// - Parameter script: What to do for a request, from its path and its whole head.
    public init(script: @escaping @Sendable (_ path: String, _ head: String) -> Action) throws {
        self.script = script
        let (listener, port) = try Sockets.listener()
        self.listener = listener
        self.port = port
        let server = self
        Thread { server.acceptLoop() }.start()
    }

    deinit { stop() }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The request heads received, oldest first.
    public var requests: [String] { recorded.withLock { $0.map(\.head) } }

    /// The request bodies received, in the order of ``requests``.
    public var bodies: [Data] { recorded.withLock { $0.map(\.body) } }

    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let server = self
            Thread { server.serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var buffer = Data()
        while let (head, body, rest) = Self.readRequest(connection, buffered: buffer) {
            buffer = rest
            recorded.withLock { $0.append((head, body)) }
            let path = head.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? "/"
            switch script(path, head) {
            case .write(let data, let keepAlive):
                guard Sockets.send(data, on: connection), keepAlive else { return }
            case .writeThenClose(let data):
                _ = Sockets.send(data, on: connection)
                return
            case .reset:
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                return
            case .trickle(let head, let body, let chunk, let interval):
                guard Sockets.send(head, on: connection) else { return }
                var offset = 0
                while offset < body.count, !stopped.load(ordering: .relaxed) {
                    let end = min(offset + chunk, body.count)
                    guard Sockets.send(body[offset..<end], on: connection) else { return }
                    offset = end
                    Thread.sleep(
                        forTimeInterval: Double(interval.components.attoseconds) / 1e18
                            + Double(interval.components.seconds))
                }
                return
            }
        }
    }

    /// One request's head and body (by `Content-Length`, or chunked) from `connection`, and what
    /// was read past it; `nil` when the client closed.
    private static func readRequest(_ connection: Int32, buffered: Data) -> (String, Data, Data)? {
        var data = buffered
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let end = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                var rest = Data(data[end.upperBound...])
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let chunked = head.lowercased().contains("transfer-encoding: chunked")
                // A chunked body ends with a zero-size chunk.
                while chunked ? rest.range(of: Data("0\r\n\r\n".utf8)) == nil : rest.count < length {
                    let count = recv(connection, &chunk, chunk.count, 0)
                    guard count > 0 else { return nil }
                    rest.append(contentsOf: chunk[..<count])
                }
                if chunked, let end = rest.range(of: Data("0\r\n\r\n".utf8)) {
                    return (head, Self.dechunk(Data(rest[..<end.upperBound])), Data(rest[end.upperBound...]))
                }
                return (head, Data(rest.prefix(length)), Data(rest.dropFirst(length)))
            }
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            data.append(contentsOf: chunk[..<count])
        }
    }

    private static func dechunk(_ data: Data) -> Data {
        var body = Data()
        var rest = data[...]
        while let line = rest.range(of: Data("\r\n".utf8)),
            let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16), size > 0
        {
            let start = line.upperBound
            body.append(rest[start..<min(start + size, rest.endIndex)])
            rest = rest[min(start + size + 2, rest.endIndex)...]
        }
        return body
    }
}

extension FaultServer.Action {
    /// A complete response with `status`, `headers` and `body` (a `Content-Length` added).
    public static func response(
        _ status: String = "200 OK", headers: [String] = [], body: String = "", keepAlive: Bool = true
    ) -> Self {
        .write(
            raw(status, headers: headers + ["Content-Length: \(body.utf8.count)"], body: Data(body.utf8)),
            keepAlive: keepAlive)
    }

    /// Bytes of a response as written, headers as given (no length added).
    public static func raw(_ status: String, headers: [String], body: Data = Data()) -> Data {
        var head = "HTTP/1.1 \(status)\r\n"
        for header in headers { head += header + "\r\n" }
        return Data((head + "\r\n").utf8) + body
    }
}
