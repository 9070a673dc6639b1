import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

@Suite struct RequestSignerTests {
    @Test func signatureFollowsTheDocumentedScheme() throws {
        let signer = RequestSigner(
            keyID: "k1", secret: Data("s3cret".utf8), now: { Date(timeIntervalSince1970: 1_700_000_000) })
        var request = try NetworkRequest.post("http://api.test/v1/pay").query("id", 7).body(jsonText: #"{"a":1}"#)
            .prepared()

        try signer.sign(&request)

        #expect(request.headers[RequestSigner.dateHeader] == "2023-11-14T22:13:20Z")
        let text = RequestSigner.stringToSign(
            method: "POST", pathAndQuery: "/v1/pay?id=7", date: "2023-11-14T22:13:20Z",
            bodySHA256: "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862")
        #expect(
            text
                == "POST\n/v1/pay?id=7\n2023-11-14T22:13:20Z\n015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"
        )
        let header = try #require(request.headers[RequestSigner.signatureHeader])
        #expect(header.hasPrefix("keyId=k1,algorithm=hmac-sha256,signature="))
        // Independently computed: printf '%s' "$text" | openssl dgst -sha256 -hmac s3cret -binary | base64
        #expect(header.hasSuffix("signature=" + Self.expectedSignature))
    }

    static let expectedSignature = "jN3dUksF5x7MJcc7xxBXyJLLmTCxAZcTgu+c+gnNRCE="
}
