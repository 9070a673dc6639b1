import FathomTestSupport
import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

/// A secret planted in every place a request can carry one, against a real server that echoes it
/// all back, must never reach the log at any level.
@Suite struct SecretLoggingIntegrationTests {
    static let secret = "sk_test_51HplantedSecretValue9Qz"

    @Test(arguments: LogDetail.allCases)
    func plantedSecretNeverReachesTheLog(detail: LogDetail) async throws {
        let capture = LogRecorder()
        let redactor = Redactor()
        redactor.addSecret(Self.secret)
        redactor.markSecretHeader("X-Session")
        let client = NetworkClient(
            configuration: .init(
                baseURL: try await TestServer.baseURL(),
                interceptors: [.authenticator(.bearer(Self.secret))],
                logger: capture.logger(), logDetail: detail, redactor: redactor))

        let echoed = try await client.send(
            .post("/echo").query("api_key", Self.secret).query("q", "x \(Self.secret) y")
                .header("X-Session", Self.secret).header("Cookie", "sid=\(Self.secret)")
                .body(json: ["token": Self.secret, "nested": Self.secret]))
        _ = try await client.send(.get("/redirect/2").query("token", Self.secret))
        _ = try? await client.send(.get("http://127.0.0.1:\(try Sockets.closedPort())/?k=\(Self.secret)"))

        // The server did see and echo the secret: the test is meaningful.
        #expect(String(decoding: echoed.body, as: UTF8.self).contains(Self.secret))
        #expect(!capture.text.contains(Self.secret))
        #expect(!capture.text.contains("plantedSecret"))
        if detail >= .info { #expect(capture.text.contains("status=200")) }
    }
}
