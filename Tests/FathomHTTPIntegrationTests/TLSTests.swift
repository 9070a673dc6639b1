import FathomTestSupport
import Foundation
import Testing

@testable import FathomHTTP

/// TLS against `openssl s_server` on loopback with a self-signed certificate.
@Suite(.serialized) struct TLSTests {
    final class OpenSSLServer {
        let port: Int
        let certificate: SelfSignedCertificate
        private let process: Process

        init() throws {
            certificate = try SelfSignedCertificate()
            port = try Sockets.closedPort()
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate.certificateFile, "-key",
                certificate.keyFile, "-www", "-quiet",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until it accepts connections.
            for _ in 0..<100 {
                if Sockets.isListening(port) { return }
                usleep(50_000)
            }
            throw NetworkError.transport("openssl s_server did not start")
        }

        var caFile: String { certificate.certificateFile }

        func stop() {
            // s_server may outlive SIGTERM mid-handshake, and waitUntilExit() then spins forever.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            certificate.remove()
        }
    }

    static var opensslAvailable: Bool { SelfSignedCertificate.opensslAvailable }

    @Test(.enabled(if: opensslAvailable)) func selfSignedIsRefusedUnlessTrustedOrInsecure() async throws {
        let server = try OpenSSLServer()
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/"

        await #expect {
            try await NetworkClient().send(.get(url).timeout(.seconds(5)))
        } throws: { error in
            "\(error)".hasPrefix("TLS handshake with 127.0.0.1 failed: certificate not trusted (self-signed")
        }

        let insecure = AsyncHTTPClientTransport(configuration: .init(verifyCertificates: false))
        let trusted = AsyncHTTPClientTransport(configuration: .init(caFile: server.caFile))
        defer {
            Task {
                try await insecure.shutdown()
                try await trusted.shutdown()
            }
        }
        #expect(try await NetworkClient(transport: insecure).send(.get(url).timeout(.seconds(5))).status.code == 200)
        #expect(try await NetworkClient(transport: trusted).send(.get(url).timeout(.seconds(5))).status.code == 200)
    }
}
