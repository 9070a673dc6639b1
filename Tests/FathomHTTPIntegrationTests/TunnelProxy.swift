import FathomTestSupport
import Foundation

@testable import FathomHTTP

/// A minimal HTTP CONNECT proxy on 127.0.0.1 that records what it was asked, then tunnels bytes.
final class TunnelProxy: @unchecked Sendable {
    let port: Int
    let requests = Locked<[String]>([])
    private let listener: Int32

    init() throws {
        let fd = Sockets.newTCPSocket()
        port = Sockets.bindToFreePort(fd)
        listen(fd, 16)
        listener = fd
        let acceptingOn = fd
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(acceptingOn, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread { self.serve(client) }
            }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var head = [UInt8]()
        var byte: UInt8 = 0
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            guard read(client, &byte, 1) == 1 else { return }
            head.append(byte)
        }
        let text = String(decoding: head, as: UTF8.self)
        requests.withLock { $0.append(text) }
        let target = text.split(separator: " ")[1].split(separator: ":")
        let upstream = Sockets.newTCPSocket()
        defer { close(upstream) }
        let connected = Sockets.connect(upstream, port: Int(target[1])!)
        let reply = connected ? "HTTP/1.1 200 Connection established\r\n\r\n" : "HTTP/1.1 502 Bad Gateway\r\n\r\n"
        _ = reply.utf8CString.withUnsafeBufferPointer { write(client, $0.baseAddress, reply.utf8.count) }
        guard connected else { return }
        var fds = [
            pollfd(fd: client, events: Int16(POLLIN), revents: 0),
            pollfd(fd: upstream, events: Int16(POLLIN), revents: 0),
        ]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while poll(&fds, 2, 5000) > 0 {
            for (index, fd) in fds.enumerated() where fds[index].revents != 0 {
                let count = read(fd.fd, &buffer, buffer.count)
                guard count > 0 else { return }
                _ = write(fds[1 - index].fd, buffer, count)
            }
        }
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
