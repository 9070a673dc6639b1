import FathomHTTP
import Foundation
import Testing

@Suite struct CookieJarTests {
    let url = try! RequestURL(parsing: "http://api.example.com/account/login")

    func store(_ fields: String..., from url: RequestURL? = nil) -> CookieJar {
        let jar = CookieJar()
        jar.store(from: NetworkHeaders(fields.map { ("Set-Cookie", $0) }), url: url ?? self.url)
        return jar
    }

    @Test func sendsCookiesToTheSameHostAndPath() throws {
        let jar = store("session=abc; Path=/; HttpOnly", "pref=dark")
        #expect(
            jar.header(for: try RequestURL(parsing: "http://api.example.com/account/me")) == "pref=dark; session=abc",
            "longer paths first")
        #expect(jar.header(for: try RequestURL(parsing: "http://api.example.com/other")) == "session=abc")
        #expect(jar.header(for: try RequestURL(parsing: "http://other.example.com/")) == nil)
    }

    @Test func domainAttributeCoversSubdomainsButNotStrangers() throws {
        let jar = store("a=1; Domain=example.com; Path=/", "b=2; Domain=evil.com")
        #expect(jar.header(for: try RequestURL(parsing: "http://www.example.com/")) == "a=1")
        #expect(jar.cookies.count == 1, "a cookie for another domain is refused")
    }

    @Test func expiryAndDeletion() throws {
        let jar = store("gone=1; Max-Age=0", "old=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT", "keep=1; Max-Age=60")
        #expect(jar.cookies.map(\.name) == ["keep"])
        jar.store(from: NetworkHeaders([("Set-Cookie", "keep=; Max-Age=0")]), url: url)
        #expect(jar.cookies.isEmpty)
    }

    @Test func secureCookiesOnlyOverHTTPS() throws {
        let jar = store("s=1; Secure; Path=/", from: try RequestURL(parsing: "https://api.example.com/"))
        #expect(jar.header(for: try RequestURL(parsing: "http://api.example.com/")) == nil)
        #expect(jar.header(for: try RequestURL(parsing: "https://api.example.com/")) == "s=1")
    }
}
