import Foundation
import Testing

@testable import FathomHTTP

@Suite struct ProxySettingsTests {
    @Test func readsTheEnvironmentLikeCurl() throws {
        let settings = ProxySettings.from(environment: [
            "http_proxy": "http://user:p%40ss@proxy.local:3128", "HTTPS_PROXY": "proxy.local:8443",
            "NO_PROXY": "localhost, .internal.example.com,10.0.0.1,api.test:8080",
        ])
        #expect(settings.httpProxy == ProxyServer(host: "proxy.local", port: 3128, username: "user", password: "p@ss"))
        #expect(settings.httpsProxy?.port == 8443)
        #expect(settings.proxy(for: try RequestURL(parsing: "http://example.com/"))?.port == 3128)
        #expect(settings.proxy(for: try RequestURL(parsing: "https://example.com/"))?.port == 8443)
        #expect(settings.proxy(for: try RequestURL(parsing: "http://localhost:9/")) == nil)
        #expect(settings.proxy(for: try RequestURL(parsing: "http://a.internal.example.com/")) == nil)
        #expect(settings.proxy(for: try RequestURL(parsing: "http://10.0.0.1/")) == nil)
        #expect(settings.proxy(for: try RequestURL(parsing: "http://api.test:8080/")) == nil)
        #expect(settings.proxy(for: try RequestURL(parsing: "http://api.test:9090/")) != nil)
        #expect(
            ProxySettings.from(environment: ["no_proxy": "*", "http_proxy": "p:1"]).proxy(
                for: try RequestURL(parsing: "http://x/")) == nil)
    }

    @Test func socks5ProxiesAreReadAsCurlWritesThem() throws {
        #expect(try ProxyServer(parsing: "socks5://p:1") == ProxyServer(host: "p", port: 1, kind: .socks5))
        #expect(try ProxyServer(parsing: "socks5h://p") == ProxyServer(host: "p", port: 1080, kind: .socks5))
        #expect(try ProxyServer(parsing: "p:3128").kind == .http)
    }

    @Test func badProxyIsAClearError() {
        #expect(throws: NetworkError.self) { try ProxyServer(parsing: "http://p:notaport") }
        let socks4 = #expect(throws: NetworkError.self) { try ProxyServer(parsing: "socks://p:1080") }
        #expect("\(socks4!)".contains("SOCKS4 is not spoken here — socks5:// if the proxy speaks SOCKS5"))
        let credentials = #expect(throws: NetworkError.self) { try ProxyServer(parsing: "socks5://u:secret@p") }
        #expect("\(credentials!)".contains("a SOCKS5 proxy with a user name and password is not supported"))
        #expect(!"\(credentials!)".contains("secret"))
        #expect(throws: NetworkError.self) { try ProxyServer(parsing: "ftp://p:1") }
    }

    @Test func proxyCredentialsNeverAppearInTheError() {
        #expect {
            try ProxyServer(parsing: "http://user:hunter2-planted@proxy.local:notaport")
        } throws: { error in
            "\(error)" == "invalid URL 'http://••••@proxy.local:notaport': invalid proxy port"
        }
    }
}
