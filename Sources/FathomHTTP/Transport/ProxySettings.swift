import Foundation

/// An HTTP proxy server.
public struct ProxyServer: Hashable, Sendable, CustomStringConvertible {
    /// The protocol spoken to the proxy.
    public enum Kind: String, Hashable, Sendable {
        /// An HTTP proxy: `CONNECT` for https, absolute URLs for http; basic credentials allowed.
        case http
        /// A SOCKS5 proxy (RFC 1928), without credentials: host names are resolved by the proxy.
        case socks5
    }

    /// The proxy's host.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user name, for a proxy that asks for one.
    public var username: String?
    /// The password, for a proxy that asks for one.
    public var password: String?
    /// HTTP (CONNECT) or SOCKS5.
    public var kind: Kind

    /// A proxy from its parts.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil, kind: Kind = .http) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.kind = kind
    }

    /// Parses `http://[user:pass@]host[:port]` (scheme optional; port 80 by default) or
    /// `socks5://host[:port]` (`socks5h://` alike; port 1080 by default), as curl reads them.
    public init(parsing text: String) throws(NetworkError) {
        // Errors show the text with the proxy's credentials masked.
        let shown = RequestURL.maskingCredentials(text.contains("://") ? text : "http://" + text)
        var rest = Substring(text.trimmingWhitespace())
        var kind = Kind.http
        if let schemeEnd = rest.range(of: "://") {
            switch rest[..<schemeEnd.lowerBound].lowercased() {
            case "http", "https": kind = .http
            case "socks5", "socks5h": kind = .socks5
            case "socks", "socks4", "socks4a":
                throw .invalidURL(
                    shown, reason: "SOCKS4 is not spoken here — socks5:// if the proxy speaks SOCKS5, or an http proxy")
            case let scheme:
                throw .invalidURL(shown, reason: "unsupported proxy scheme '\(scheme)' (expected http or socks5)")
            }
            rest = rest[schemeEnd.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at].split(separator: ":", maxSplits: 1)
            username = credentials.first.map { PercentEncoding.decode(String($0)) }
            password = credentials.count > 1 ? PercentEncoding.decode(String(credentials[1])) : nil
            rest = rest[rest.index(after: at)...]
        }
        if kind == .socks5, username != nil {
            throw .invalidURL(shown, reason: "a SOCKS5 proxy with a user name and password is not supported")
        }
        var host = String(rest)
        var port = kind == .socks5 ? 1080 : 80
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            host = String(rest[..<colon])
            guard let parsed = Int(rest[rest.index(after: colon)...]), (1...65535).contains(parsed) else {
                throw .invalidURL(shown, reason: "invalid proxy port")
            }
            port = parsed
        }
        guard !host.isEmpty else { throw .invalidURL(shown, reason: "missing proxy host") }
        self.init(host: host, port: port, username: username, password: password, kind: kind)
    }

    /// `host:port`, or `socks5://host:port`.
    public var description: String { kind == .socks5 ? "socks5://\(host):\(port)" : "\(host):\(port)" }
}

/// Which proxy, if any, a request goes through.
///
/// ``environment`` reads `http_proxy`/`HTTP_PROXY`, `https_proxy`/`HTTPS_PROXY` and
/// `no_proxy`/`NO_PROXY` as curl does: `NO_PROXY` lists host names (a name matches itself and its
/// subdomains; a leading dot is allowed), `host:port` pairs and IP addresses, or `*` for all.
public struct ProxySettings: Hashable, Sendable {
    /// The proxy for `http://` URLs.
    public var httpProxy: ProxyServer?
    /// The proxy for `https://` URLs.
    public var httpsProxy: ProxyServer?
    /// Hosts reached directly (`NO_PROXY`): a name matches itself and its subdomains.
    public var noProxy: [String]

    /// Settings from their parts; none by default.
    public init(httpProxy: ProxyServer? = nil, httpsProxy: ProxyServer? = nil, noProxy: [String] = []) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
    }

    /// No proxy.
    public static let none = ProxySettings()

    /// One proxy for http and https.
    public static func server(_ proxy: ProxyServer, noProxy: [String] = []) -> ProxySettings {
        ProxySettings(httpProxy: proxy, httpsProxy: proxy, noProxy: noProxy)
    }

    /// The proxy settings from the process environment, as ``ProcessEnvironment/current`` read
    /// it once: a variable set after that is seen by ``from(environment:)`` given it, not here.
    public static var environment: ProxySettings {
        from(environment: ProcessEnvironment.current)
    }

    /// The proxy settings from an environment.
    ///
    /// Unparsable values are ignored.
    public static func from(environment: [String: String]) -> ProxySettings {
        func value(_ name: String) -> String? {
            let found = environment[name.lowercased()] ?? environment[name.uppercased()]
            return found?.isEmpty == false ? found : nil
        }
        return ProxySettings(
            httpProxy: value("http_proxy").flatMap { try? ProxyServer(parsing: $0) },
            httpsProxy: value("https_proxy").flatMap { try? ProxyServer(parsing: $0) },
            noProxy: value("no_proxy").map {
                $0.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }
            } ?? [])
    }

    /// The proxy for `url`, or `nil` to connect directly (always, to a Unix socket).
    public func proxy(for url: RequestURL) -> ProxyServer? {
        guard url.socketPath == nil else { return nil }
        let proxy = url.scheme == "https" ? httpsProxy : httpProxy
        guard let proxy, !bypasses(url) else { return nil }
        return proxy
    }

    /// Whether `NO_PROXY` sends `url` directly.
    public func bypasses(_ url: RequestURL) -> Bool {
        let host = url.host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        for entry in noProxy {
            if entry == "*" { return true }
            var name = Substring(entry)
            var port: Int?
            if let colon = name.lastIndex(of: ":"), !name.contains("]"), name.filter({ $0 == ":" }).count == 1 {
                port = Int(name[name.index(after: colon)...])
                name = name[..<colon]
            }
            if let port, port != url.effectivePort { continue }
            let bare = name.hasPrefix(".") ? String(name.dropFirst()) : String(name)
            let stripped = bare.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if host == stripped || host.hasSuffix("." + stripped) { return true }
        }
        return false
    }
}
