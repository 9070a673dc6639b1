import FathomTestSupport
import Foundation

/// The demo API in its own process (`fathom serve`), so a test blocked on the binary it drives
/// can never starve the server of threads.
final class DemoServerProcess {
    let process = Process()
    let baseURL: String
    /// Its gRPC service's `127.0.0.1:PORT`.
    let grpcTarget: String
    /// The port it listens on.
    var port: Int { Int(baseURL.split(separator: ":").last ?? "") ?? 0 }
    private let log = Locked<[String]>([])

    /// - Parameter accessLog: Keep a line per request received (``requests``).
    init(accessLog: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: FathomBinary.binary)
        process.arguments = accessLog ? ["serve", "--access-log"] : ["serve"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        baseURL = try out.firstLine()
        guard baseURL.hasPrefix("http://127.0.0.1:") else {
            process.terminate()
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "fathom serve printed '\(baseURL)'"])
        }
        // `gRPC 127.0.0.1:PORT`: the demo's gRPC service.
        grpcTarget = String(try out.firstLine().dropFirst("gRPC ".count))
        if accessLog {
            let handle = out.fileHandleForReading
            let log = self.log
            Thread {
                var line = Data()
                while let byte = try? handle.read(upToCount: 1), !byte.isEmpty {
                    if byte == Data("\n".utf8) {
                        let text = String(decoding: line, as: UTF8.self)
                        log.withLock { $0.append(text) }
                        line = Data()
                    } else {
                        line.append(byte)
                    }
                }
            }.start()
        }
    }

    /// The requests received since the last call, one line each (`GET /users?page=2`).
    func takeRequests() -> [String] {
        // The server writes each line before it answers, so every line is in the pipe by now; wait
        // until the reading thread has taken them all (no new line for 0.1 s).
        var count = -1
        for _ in 0..<50 where log.value.count != count {
            count = log.value.count
            Thread.sleep(forTimeInterval: 0.1)
        }
        return log.withLock { lines in
            defer { lines = [] }
            return lines
        }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
