import FathomTestSupport
import Foundation
import Testing

@testable import FathomHTTP

@Suite struct ProxyTests {
    @Test func requestsGoThroughTheConfiguredProxyWithItsCredentials() async throws {
        let proxy = try TunnelProxy()
        defer { proxy.stop() }
        let port = try await TestServer.port()
        let settings = ProxySettings.server(
            ProxyServer(host: "127.0.0.1", port: proxy.port, username: "u", password: "p w"))
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: settings))
        defer { Task { try await transport.shutdown() } }

        let response = try await NetworkClient(transport: transport).send(.get("http://127.0.0.1:\(port)/users/1"))

        #expect(response.status.code == 200)
        let seen = proxy.requests.value
        #expect(seen.count == 1)
        #expect(seen.first?.hasPrefix("CONNECT 127.0.0.1:\(port) HTTP/1.1") == true)
        // Header names are case-insensitive; AsyncHTTPClient sends them lower-case.
        #expect(seen.first?.range(of: "proxy-authorization: Basic dTpwIHc=", options: .caseInsensitive) != nil)
    }

    /// A SOCKS5 proxy carries the connection, for http and https alike; the proxy is given the
    /// host name to resolve (as curl's socks5h does).
    @Test func requestsGoThroughASOCKS5Proxy() async throws {
        let proxy = try TunnelProxy(.socks5)
        defer { proxy.stop() }
        let port = try await TestServer.port()
        let server = try ProxyServer(parsing: "socks5h://127.0.0.1:\(proxy.port)")
        #expect(server.kind == .socks5 && "\(server)" == "socks5://127.0.0.1:\(proxy.port)")
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .server(server)))
        defer { Task { try await transport.shutdown() } }

        let response = try await NetworkClient(transport: transport).send(.get("http://localhost:\(port)/users/1"))

        #expect(response.status.code == 200)
        #expect(proxy.requests.value == ["SOCKS5 localhost:\(port)"])
    }

    @Test func noProxyHostsConnectDirectly() async throws {
        let proxy = try TunnelProxy()
        defer { proxy.stop() }
        let port = try await TestServer.port()
        let settings = ProxySettings.from(environment: [
            "http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": "localhost,127.0.0.1",
        ])
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: settings))
        defer { Task { try await transport.shutdown() } }

        let response = try await NetworkClient(transport: transport).send(.get("http://127.0.0.1:\(port)/users/1"))

        #expect(response.status.code == 200)
        #expect(proxy.requests.value.isEmpty)
    }
}
