import Testing

@_spi(Fathom) @testable import FathomHTTP

@Suite struct RequestURLTests {
    @Test func parsesParts() throws {
        let url = try RequestURL(parsing: "HTTPS://API.Example.com:8443/v1/users?page=2#frag")
        #expect(url.scheme == "https")
        #expect(url.host == "api.example.com")
        #expect(url.port == 8443)
        #expect(url.path == "/v1/users")
        #expect(url.query == "page=2")
        #expect(url.description == "https://api.example.com:8443/v1/users?page=2")
    }

    @Test func ipv6HostKeepsBrackets() throws {
        let url = try RequestURL(parsing: "http://[::1]:9000/x")
        #expect(url.host == "[::1]")
        #expect(url.effectivePort == 9000)
    }

    @Test(arguments: [
        ("api.example.com/users", "missing scheme"),
        ("ftp://example.com", "unsupported scheme 'ftp'"),
        ("http://example.com:99999/", "invalid port '99999'"),
        ("http://:80/", "missing host"),
        ("http://user:pw@example.com/", "credentials in the URL"),
        ("http://exa mple.com/", "invalid character ' ' in host"),
    ])
    func rejectsWithTheReason(text: String, reason: String) {
        #expect {
            try RequestURL(parsing: text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func resolvesRedirectLocations() throws {
        let url = try RequestURL(parsing: "http://h:1/a/b/c?q=1")
        #expect(try url.resolving("/x").description == "http://h:1/x")
        #expect(try url.resolving("d").description == "http://h:1/a/b/d")
        #expect(try url.resolving("../d?z=2").description == "http://h:1/a/d?z=2")
        #expect(try url.resolving("//other/p").description == "http://other/p")
        #expect(try url.resolving("https://e.com/").description == "https://e.com/")
    }

    @Test func originComparesSchemeHostAndPort() throws {
        let a = try RequestURL(parsing: "http://127.0.0.1:80/a")
        #expect(a.isSameOrigin(as: try RequestURL(parsing: "http://127.0.0.1/b")))
        #expect(!a.isSameOrigin(as: try RequestURL(parsing: "http://localhost/b")))
        #expect(!a.isSameOrigin(as: try RequestURL(parsing: "https://127.0.0.1/b")))
    }

    @Test func credentialsNeverAppearInTheError() {
        #expect {
            try RequestURL(parsing: "https://ada:hunter2-planted@api.example.com/x")
        } throws: { error in
            "\(error)"
                == "invalid URL 'https://••••@api.example.com/x': credentials in the URL are not supported; use an Authorization header"
        }
        #expect {
            try NetworkRequest.get("https://ada:hunter2-planted@api.example.com:99999/").prepared()
        } throws: { error in
            !"\(error)".contains("hunter2")
        }
    }
    /// A Unix socket's URL: the host is the socket's path, encoded, its case kept, with no port;
    /// its origin is the socket.
    @Test func aUnixSocketURLNamesItsSocket() throws {
        let url = try RequestURL(parsing: "http+unix://%2Fvar%2Frun%2FDocker.sock/v1.45/containers/json?all=1")
        #expect(url.scheme == "http+unix" && url.host == "%2Fvar%2Frun%2FDocker.sock" && url.port == nil)
        #expect(url.socketPath == "/var/run/Docker.sock")
        #expect(url.path == "/v1.45/containers/json" && url.query == "all=1")
        #expect(url.origin == "http+unix://%2Fvar%2Frun%2FDocker.sock")
        #expect(url.description == "http+unix://%2Fvar%2Frun%2FDocker.sock/v1.45/containers/json?all=1")
        #expect(try RequestURL(parsing: "http://127.0.0.1/x").socketPath == nil)
        let relative = #expect(throws: NetworkError.self) { try RequestURL(parsing: "http+unix://docker.sock/x") }
        #expect("\(relative!)".contains("the socket's absolute path"), "\(relative!)")
    }
}
