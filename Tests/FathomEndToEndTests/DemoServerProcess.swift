import Foundation

/// The demo API in its own process (`fathom serve`), so a test blocked on the binary it drives
/// can never starve the server of threads.
final class DemoServerProcess {
    let process = Process()
    let baseURL: String

    init() throws {
        process.executableURL = URL(fileURLWithPath: FathomBinary.binary)
        process.arguments = ["serve"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        baseURL = String(decoding: line, as: UTF8.self)
        guard baseURL.hasPrefix("http://127.0.0.1:") else {
            process.terminate()
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "fathom serve printed '\(baseURL)'"])
        }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
