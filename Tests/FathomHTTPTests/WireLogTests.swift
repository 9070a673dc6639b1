import FathomTestSupport
import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

@Suite struct WireLogTests {
    static let secret = "planted-secret-7f3a9c21e5"

    /// A server stand-in that echoes the request, secret included, in headers and body.
    private func echoingTransport() -> MockTransport {
        let transport = MockTransport()
        transport.register(
            "/",
            .handler { request in
                var response = MockResponse.json(
                    "{\"url\":\"\(request.url)\",\"auth\":\"\(request.headers[.authorization] ?? "")\",\"body\":\(String(decoding: try request.body?.data() ?? Data("null".utf8), as: UTF8.self))}"
                )
                response.headers.add("Set-Cookie", "session=\(Self.secret)")
                response.headers.add("X-Echo-Token", Self.secret)
                return response
            })
        return transport
    }

    @Test(arguments: LogDetail.allCases)
    func plantedSecretNeverAppearsInTheLog(detail: LogDetail) async throws {
        let capture = LogRecorder()
        let redactor = Redactor()
        redactor.addSecret(Self.secret)
        let client = NetworkClient(
            configuration: .init(
                baseURL: "http://api.test",
                interceptors: [.authenticator(.bearer(Self.secret))],
                logger: capture.logger(), logDetail: detail, redactor: redactor),
            transport: echoingTransport())

        _ = try await client.send(
            .post("/echo").query("api_key", Self.secret).header("X-Custom", "value=\(Self.secret)")
                .body(json: ["password": Self.secret]))
        _ = try? await client.send(.get("/fail").query("token", Self.secret).body(text: "x"))

        #expect(!capture.text.contains(Self.secret))
        #expect(!capture.text.contains("7f3a9c21"))
        if detail == .off {
            #expect(capture.count == 0)
        } else {
            #expect(capture.text.contains("request"))
            #expect(capture.text.contains("response"))
        }
        if detail >= .headers { #expect(capture.text.contains("Authorization: Bearer ••••21e5")) }
        if detail >= .body { #expect(capture.text.contains("\"password\":\"••••21e5\"")) }
    }

    @Test func nothingIsLoggedWithoutALogger() async throws {
        // The client has no logger: there is nowhere for output to go, and nothing must fail.
        let client = NetworkClient(baseURL: "http://api.test", transport: echoingTransport())
        #expect(try await client.send(.get("/")).status.code == 200)
    }

    @Test func errorsAreMaskedToo() async throws {
        let redactor = Redactor()
        redactor.addSecret(Self.secret)
        let client = NetworkClient(configuration: .init(redactor: redactor), transport: MockTransport())
        await #expect {
            try await client.send(.get("http://api.test/x?key=\(Self.secret)"))
        } throws: { error in
            !"\(error)".contains(Self.secret) && "\(error)".contains("no mock for")
        }
        await #expect {
            try await client.send(.get("ftp://\(Self.secret)/"))
        } throws: { error in
            !"\(error)".contains(Self.secret)
        }
    }

    /// A body longer than the log shows is masked first, then cut: a secret across the cut is
    /// masked whole, never half-shown.
    @Test func aSecretAcrossTheCutIsMaskedWhole() async throws {
        let capture = LogRecorder()
        let redactor = Redactor()
        redactor.addSecret(Self.secret)
        let transport = MockTransport()
        let filler = String(repeating: "a", count: WireLog.bodyLimit - 10)
        transport.register("/", .data(Data((filler + Self.secret + filler).utf8), contentType: "text/plain"))
        let client = NetworkClient(
            configuration: .init(logger: capture.logger(), logDetail: .body, redactor: redactor), transport: transport)
        _ = try await client.send(.get("http://api.test/long"))
        #expect(!capture.text.contains("planted-se"), "no part of the secret before the cut")
        #expect(capture.text.contains("aaaa•"), "masked, then cut")
        #expect(!capture.text.contains("\u{FFFD}"), "cut between characters")
    }

    @Test func bytesAreMaskedBeforeTheyAreLaidOut() {
        let redactor = Redactor()
        redactor.addSecret(Self.secret)
        var bytes = Data([0, 1, 2, 0xFF])
        bytes.append(Data(Self.secret.utf8))
        bytes.append(contentsOf: [0xFE, 0])
        let masked = redactor.redact(bytes: bytes)
        #expect(masked.range(of: Data(Self.secret.utf8)) == nil)
        #expect(masked.prefix(4) == Data([0, 1, 2, 0xFF]), "the bytes around it are kept")
        #expect(masked.suffix(2) == Data([0xFE, 0]))
    }
}
