import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

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

    /// A short secret (a password like `admin`, one letter) is masked where it stands as a value,
    /// never inside other words: masking every `a` would hide `http://`, masking `admin` would
    /// turn `administrator` into `••••istrator`.
    @Test func shortSecretsAreMaskedOnlyWhereTheyStandWhole() {
        let redactor = Redactor()
        redactor.addSecret("admin")
        redactor.addSecret("t")
        #expect(
            redactor.redact(#"{"role": "administrator", "url": "http://x.test"}"#)
                == #"{"role": "administrator", "url": "http://x.test"}"#)
        #expect(redactor.redact(#"{"password": "admin"}"#) == #"{"password": "••••"}"#)
        #expect(redactor.redact("ada:admin t") == "ada:•••• ••••")
        #expect(redactor.redact("admin") == "••••")
        let bytes = redactor.redact(bytes: Data(#"{"p":"admin","q":"admins"}"#.utf8))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"p":"••••","q":"admins"}"#)
        let utf16 = redactor.redact(bytes: #"["admin","xadmin"]"#.data(using: .utf16LittleEndian)!)
        #expect(String(data: utf16, encoding: .utf16LittleEndian) == #"["••••","xadmin"]"#)
    }

    /// A preview cut before it was masked must not give a secret's start away: with the mask's
    /// last four characters elsewhere, the two together would be the whole secret.
    @Test func theStartOfACutSecretIsMasked() {
        let redactor = Redactor()
        let secret = "sk-live-0123456789abcdef"
        redactor.addSecret(secret)
        let masked = redactor.redact("{\"key\": \"sk-live-0123456789abc…")
        #expect(!masked.contains("sk-live"), "\(masked)")
        #expect(redactor.redact("the words go on…") == "the words go on…")
    }
}
