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

    /// RFC 6265 §5.1.3 and §5.3 step 5 as a table: the host that set the cookie, its `Domain`
    /// attribute, a host a request goes to, and whether the cookie goes there.
    static let domainCases: [(setBy: String, domain: String?, to: String, sent: Bool)] = [
        ("127.0.0.1", "0.1", "127.1.0.1", false),  // an address matches only itself
        ("127.0.0.1", "0.1", "127.0.0.1", false),  // …and the cookie was refused, not stored
        ("127.0.0.1", "127.0.0.1", "127.0.0.1", true),  // its own address: host-only
        ("127.0.0.1", "127.0.0.1", "1.127.0.0.1", false),
        ("127.0.0.1", nil, "127.0.0.1", true),
        ("127.0.0.1", nil, "127.0.0.2", false),
        ("api.example.com", "example.com", "www.example.com", true),
        ("api.example.com", "example.com", "example.com", true),
        ("api.example.com", ".example.com", "a.b.example.com", true),
        ("api.example.com", "example.com", "badexample.com", false),  // a suffix, not after a dot
        ("api.example.com", "xample.com", "api.example.com", false),  // refused: not a parent
        ("api.example.com", "com", "other.com", false),  // a public suffix: refused
        ("api.example.co.uk", "co.uk", "evil.co.uk", false),
        ("app.github.io", "github.io", "evil.github.io", false),
        ("localhost", "localhost", "localhost", true),  // a one-label host's own name: host-only
        ("localhost", "localhost", "a.localhost", false),
        ("api.example.com", nil, "www.api.example.com", false),  // no Domain: host-only
        ("api.example.com", "api.example.com", "www.api.example.com", true),
    ]

    @Test(arguments: domainCases.indices)
    func domainMatchingFollowsTheRFC(_ index: Int) throws {
        let row = Self.domainCases[index]
        let field = "c=1; Path=/" + (row.domain.map { "; Domain=\($0)" } ?? "")
        let jar = store(field, from: try RequestURL(parsing: "http://\(row.setBy)/"))
        let sent = jar.header(for: try RequestURL(parsing: "http://\(row.to)/")) != nil
        #expect(sent == row.sent, "\(row.setBy) setting Domain=\(row.domain ?? "-"), sent to \(row.to)")
    }
}
