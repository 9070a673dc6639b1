import Foundation

/// A minimal proxy on 127.0.0.1 that records what it was asked to reach, then tunnels bytes to it
/// (on loopback, whatever name it was given): an HTTP `CONNECT` proxy, or a SOCKS5 one (RFC 1928,
/// no authentication, `CONNECT` only).
public final class TunnelProxy: @unchecked Sendable {
    public enum Kind: Sendable { case httpConnect, socks5 }

    public let port: Int
    /// What each client asked for: the `CONNECT` request's head, or `SOCKS5 host:port`.
    public let requests = Locked<[String]>([])
    private let listener: Int32
    private let kind: Kind

    public init(_ kind: Kind = .httpConnect) throws {
        (listener, port) = try Sockets.listener()
        self.kind = kind
        let acceptingOn = listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(acceptingOn, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread { self.serve(client) }
            }
        }
    }

    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        let upstream = Sockets.newTCPSocket()
        defer { close(upstream) }
        switch kind {
        case .httpConnect:
            var head = Data()
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                guard let byte = Self.read(client, 1) else { return }
                head += byte
            }
            let text = String(decoding: head, as: UTF8.self)
            requests.withLock { $0.append(text) }
            let target = text.split(separator: " ")[1].split(separator: ":")
            let connected = Sockets.connect(upstream, port: Int(target.last!) ?? 0)
            let reply = connected ? "HTTP/1.1 200 Connection established\r\n\r\n" : "HTTP/1.1 502 Bad Gateway\r\n\r\n"
            guard Sockets.send(Data(reply.utf8), on: client), connected else { return }
        case .socks5:
            // The greeting: version 5 and the methods offered; "no authentication" is chosen.
            guard let greeting = Self.read(client, 2), greeting.first == 5,
                Self.read(client, Int(greeting.last!)) != nil, Sockets.send(Data([5, 0]), on: client),
                let request = Self.read(client, 4), request[request.startIndex + 1] == 1
            else { return }
            let host: String
            switch request.last {
            case 1: host = (Self.read(client, 4) ?? Data()).map(String.init).joined(separator: ".")
            case 3:
                guard let length = Self.read(client, 1), let name = Self.read(client, Int(length.first!)) else {
                    return
                }
                host = String(decoding: name, as: UTF8.self)
            default: return
            }
            guard let portBytes = Self.read(client, 2) else { return }
            let port = Int(portBytes.first!) << 8 | Int(portBytes.last!)
            requests.withLock { $0.append("SOCKS5 \(host):\(port)") }
            let connected = Sockets.connect(upstream, port: port)
            guard Sockets.send(Data([5, connected ? 0 : 5, 0, 1, 0, 0, 0, 0, 0, 0]), on: client), connected else {
                return
            }
        }
        Self.relay(client, upstream)
    }

    /// Exactly `count` bytes from `fd`, or `nil` when it closed first.
    private static func read(_ fd: Int32, _ count: Int) -> Data? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: max(count, 1))
        while data.count < count {
            let got = Glibc.read(fd, &buffer, count - data.count)
            guard got > 0 else { return nil }
            data += buffer[..<got]
        }
        return data
    }

    /// Copies bytes both ways until either side closes (or 5 s pass with none).
    private static func relay(_ a: Int32, _ b: Int32) {
        var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while poll(&fds, 2, 5000) > 0 {
            for index in fds.indices where fds[index].revents != 0 {
                let count = Glibc.read(fds[index].fd, &buffer, buffer.count)
                guard count > 0, Sockets.send(Data(buffer[..<count]), on: fds[1 - index].fd) else { return }
            }
        }
    }
}
