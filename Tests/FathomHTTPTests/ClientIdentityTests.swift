import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

/// A client certificate and a CA given with a request belong to its origin, as credentials do.
@Suite struct ClientIdentityTests {
    @Test func aRedirectToAnotherOriginGoesWithoutThem() throws {
        var request = PreparedRequest(method: .get, url: try RequestURL(parsing: "https://api.test/a"))
        request.clientIdentity = ClientIdentity(certificateFile: "/c.pem", keyFile: "/c.key")
        request.trustRootsFile = "/ca.pem"
        let same = try Redirect.follow(request, status: 302, location: "/b")
        #expect(same.clientIdentity == request.clientIdentity && same.trustRootsFile == "/ca.pem")
        let elsewhere = try Redirect.follow(request, status: 302, location: "https://other.test/b")
        #expect(elsewhere.clientIdentity == nil && elsewhere.trustRootsFile == nil)
    }

    @Test func theyArePartOfTheRequest() throws {
        let plain = PreparedRequest(method: .get, url: try RequestURL(parsing: "https://api.test/a"))
        var identified = plain
        identified.clientIdentity = ClientIdentity(certificateFile: "/c.pem")
        #expect(plain != identified)
    }

    /// The handshake's failures say what the server wanted.
    @Test func aHandshakeSaysWhatTheServerWanted() {
        #expect(
            AsyncHTTPClientTransport.tlsReason("sslError([…TLSV1_ALERT_CERTIFICATE_REQUIRED…])")
                == "the server asks for a client certificate, and none was given")
        #expect(
            AsyncHTTPClientTransport.tlsReason("sslError([…TLSV1_ALERT_UNKNOWN_CA…])")
                == "the server refused the client certificate (not issued by a CA it trusts)")
        let required = NetworkError.tls(host: "h", reason: AsyncHTTPClientTransport.clientCertificateRequired)
        #expect(required.isAboutTheClientCertificate)
        #expect(!NetworkError.tls(host: "h", reason: "certificate not trusted").isAboutTheClientCertificate)
    }
}
