import Foundation
import Testing

@testable import FathomHTTP

@Suite struct RedactorTests {
    @Test func longSecretsKeepTheirLastFourCharacters() {
        #expect(Redactor.masked("sk_live_0123456789abcd") == "••••abcd")
        #expect(Redactor.masked("short-secret") == "••••")
    }

    @Test func secretHeadersAreMaskedKeepingTheScheme() {
        let redactor = Redactor()
        let headers = redactor.redact([
            "Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "X-API-Key": "k-123",
            "Cookie": "session=abc123def456ghi789; theme=dark", "Accept": "application/json",
        ])
        #expect(headers["Authorization"] == "Bearer ••••.sig")
        #expect(headers["X-API-Key"] == "••••")
        #expect(headers["Cookie"] == "session=••••i789; theme=••••")
        #expect(headers["Accept"] == "application/json")
    }

    @Test func markedHeadersAndQueryParametersAreMasked() throws {
        let redactor = Redactor()
        redactor.markSecretHeader("X-Signature")
        redactor.markSecretQuery("sig")
        #expect(redactor.redact(["x-signature": "abc"])["X-Signature"] == "••••")
        let url = try RequestURL(parsing: "https://a.test/p?sig=xyz&access_token=tok&page=2")
        #expect(redactor.redact(url) == "https://a.test/p?sig=••••&access_token=••••&page=2")
    }

    @Test func secretValuesAreMaskedInEverySpelling() {
        let redactor = Redactor()
        let secret = "p@ss word/with\"quotes"
        redactor.addSecret(secret)
        #expect(redactor.redact("raw \(secret) end") == "raw ••••otes end")
        #expect(!redactor.redact("q=p%40ss%20word%2Fwith%22quotes").contains("p%40ss"))
        #expect(!redactor.redact(#"{"v":"p@ss word\/with\"quotes"}"#).contains("word"))
        #expect(!redactor.redact("form=p%40ss+word%2Fwith%22quotes").contains("word"))
    }

    @Test func longerSecretsAreMaskedWhole() {
        let redactor = Redactor()
        redactor.addSecret("abc")
        redactor.addSecret("abcdefghijklmnop")
        #expect(redactor.redact("x abcdefghijklmnop y") == "x ••••mnop y")
    }

    /// A body in UTF-16 (either order) or Latin-1 holds a secret's bytes in that charset: masked too.
    @Test(arguments: [String.Encoding.utf8, .utf16LittleEndian, .utf16BigEndian, .isoLatin1])
    func secretsAreMaskedInTheBodysCharset(_ encoding: String.Encoding) throws {
        let redactor = Redactor()
        let secret = "tok-Ünïcode-90210"
        redactor.addSecret(secret)
        let body = try #require("{\"token\": \"\(secret)\", \"ok\": true}".data(using: encoding))
        let masked = redactor.redact(bytes: body)
        #expect(masked.range(of: try #require(secret.data(using: encoding))) == nil)
        #expect(masked.range(of: try #require("\"ok\": true".data(using: encoding))) != nil, "the rest is as it was")
    }
}
