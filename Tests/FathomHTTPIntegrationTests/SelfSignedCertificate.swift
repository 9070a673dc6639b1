import Foundation

/// A self-signed certificate for 127.0.0.1 and its key, made with the openssl command in a
/// temporary folder. Call `remove()` when done.
struct SelfSignedCertificate {
    let directory: URL

    static var opensslAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-tls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory.appendingPathComponent("key.pem").path,
            "-out", directory.appendingPathComponent("cert.pem").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }

    var certificateFile: String { directory.appendingPathComponent("cert.pem").path }
    var keyFile: String { directory.appendingPathComponent("key.pem").path }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
