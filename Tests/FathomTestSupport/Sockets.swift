import Foundation

/// Sockets on loopback, for the test servers and for network faults.
public enum Sockets {
    /// `127.0.0.1:port` as a socket address.
    public static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// Binds `fd` to 127.0.0.1 at a free port and returns the port.
    public static func bindToFreePort(_ fd: Int32) -> Int {
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A socket listening on 127.0.0.1 at a free port, and the port.
    public static func listener() throws -> (fd: Int32, port: Int) {
        let fd = newTCPSocket()
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let port = bindToFreePort(fd)
        guard port > 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, port)
    }

    /// Writes all of `data` to `fd`; `false` when the peer has gone.
    public static func send(_ data: Data, on fd: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Connects `fd` to 127.0.0.1:`port`; `true` when connected (or, non-blocking, under way).
    @discardableResult
    public static func connect(_ fd: Int32, port: Int) -> Bool {
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    public static func newTCPSocket() -> Int32 { socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) }

    /// A port on 127.0.0.1 where nothing listens.
    public static func closedPort() throws -> Int {
        let fd = newTCPSocket()
        defer { close(fd) }
        return bindToFreePort(fd)
    }

    /// Whether something accepts connections at 127.0.0.1:`port`.
    public static func isListening(_ port: Int) -> Bool {
        let fd = newTCPSocket()
        defer { close(fd) }
        return connect(fd, port: port)
    }

    /// A listener whose accept queue is full, so new connections hang in SYN-SENT: a connect timeout
    /// without leaving loopback. Close it with `close()`.
    public final class Unresponsive {
        public let port: Int
        private var descriptors: [Int32] = []

        public init() throws {
            let listener = newTCPSocket()
            port = bindToFreePort(listener)
            listen(listener, 0)
            descriptors.append(listener)
            // Fill the accept queue; these are never accepted.
            for _ in 0..<4 {
                let client = newTCPSocket()
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                connect(client, port: port)
                descriptors.append(client)
            }
            usleep(50_000)
        }

        public func close() {
            for fd in descriptors { _ = Glibc.close(fd) }
        }
    }
}
