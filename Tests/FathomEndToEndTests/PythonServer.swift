import Foundation

/// A test server written in Python (`Tests/Servers/…`) in its own process, under FATHOM_PYTHON: it
/// prints its port on its first line, and is killed when this is released.
final class PythonServer {
    static let python = ProcessInfo.processInfo.environment["FATHOM_PYTHON"]
    let process = Process()
    let port: Int

    init(script: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Self.python ?? "/usr/bin/python3")
        process.arguments = [script] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = try out.firstLine()
        guard let port = Int(line) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [NSLocalizedDescriptionKey: "\((script as NSString).lastPathComponent) did not start"])
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the test process blocks SIGTERM on its threads, and a child started from one
        // inherits the mask, so the server would never see a terminate.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

extension Pipe {
    /// The first line a started process writes here, read a byte at a time so nothing after it is
    /// taken from the pipe; without its newline.
    func firstLine() throws -> String {
        var line = Data()
        while let byte = try fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
