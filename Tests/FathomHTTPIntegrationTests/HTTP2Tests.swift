import FathomDemo
import Foundation
import HummingbirdHTTP2
import NIOSSL
import Testing

@testable import FathomHTTP

/// HTTP/2 negotiated by ALPN with a Hummingbird server over TLS.
@Suite struct HTTP2Tests {
    @Test(.enabled(if: SelfSignedCertificate.opensslAvailable)) func http2IsNegotiatedOverTLS() async throws {
        let certificate = try SelfSignedCertificate()
        defer { certificate.remove() }
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificateFile).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.keyFile, format: .pem)))
        let server = try await LoopbackServer.start(
            router: TestServer.makeRouter(), server: try .http2Upgrade(tlsConfiguration: tls))
        let h2 = AsyncHTTPClientTransport(configuration: .init(caFile: certificate.certificateFile))
        let h1 = AsyncHTTPClientTransport(configuration: .init(caFile: certificate.certificateFile, allowHTTP2: false))
        let url = "https://127.0.0.1:\(server.port)/echo"

        let overH2 = try await NetworkClient(transport: h2).send(.post(url).body(jsonText: #"{"a":1}"#))
        let overH1 = try await NetworkClient(transport: h1).send(.get(url))

        #expect(overH2.httpVersion == "HTTP/2")
        #expect(overH2.status.code == 200)
        #expect(String(decoding: overH2.body, as: UTF8.self).contains(#""body":"{\"a\":1}""#))
        #expect(overH1.httpVersion == "HTTP/1.1")
        try await h2.shutdown()
        try await h1.shutdown()
        await server.stop()
    }
}
