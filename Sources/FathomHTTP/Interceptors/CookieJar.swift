import Foundation
import Synchronization

/// Cookies kept between requests, as a browser keeps them
/// ([RFC 6265](https://www.rfc-editor.org/rfc/rfc6265)): stored from `Set-Cookie`, sent back in
/// `Cookie` to matching hosts and paths until they expire.
///
/// Give it to the transport — `AsyncHTTPClientTransport.Configuration(cookieJar: jar)` — which
/// stores and sends cookies on every hop, redirects included (a login that sets a cookie and
/// redirects is the usual case).
public final class CookieJar: Hashable, Sendable {
    /// Two jars are the same jar only: a jar is its cookies, which change.
    public static func == (lhs: CookieJar, rhs: CookieJar) -> Bool { lhs === rhs }
    /// Hashes the jar's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// One stored cookie.
    public struct Cookie: Hashable, Sendable {
        /// The cookie's name.
        public var name: String
        /// The cookie's value.
        public var value: String
        /// The host it belongs to, lowercased.
        public var domain: String
        /// Whether subdomains of ``domain`` receive it too (a `Domain` attribute was given).
        public var includesSubdomains: Bool
        /// The path the cookie is sent under ([RFC 6265 §5.1.4](https://www.rfc-editor.org/rfc/rfc6265#section-5.1.4)).
        public var path: String
        /// When the cookie expires; `nil` for a session cookie.
        public var expires: Date?
        /// Sent only over a secure connection (or to loopback).
        public var secure: Bool
        /// Not for scripts in a browser; kept here as it came.
        public var httpOnly: Bool
    }

    private let storage = Mutex<[Cookie]>([])

    /// An empty jar.
    public init() {}

    /// Every unexpired cookie.
    public var cookies: [Cookie] {
        let now = Date()
        return storage.withLock { cookies in
            cookies.removeAll { $0.expires.map { $0 <= now } ?? false }
            return cookies
        }
    }

    /// Forgets every cookie.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }

    /// Stores the cookies a response from `url` sets.
    public func store(from headers: NetworkHeaders, url: RequestURL) {
        let fields = headers.values(for: .setCookie)
        guard !fields.isEmpty else { return }
        storage.withLock { cookies in
            for field in fields {
                guard let cookie = Self.parse(field, url: url) else { continue }
                cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if cookie.expires.map({ $0 > Date() }) ?? true {
                    cookies.append(cookie)
                }
            }
        }
    }

    /// The `Cookie` header value for `url`, or `nil` when no cookie matches.
    public func header(for url: RequestURL) -> String? {
        let host = url.host.lowercased()
        let now = Date()
        let matching = storage.withLock { cookies in
            cookies.filter { cookie in
                (cookie.expires.map { $0 > now } ?? true)
                    && (host == cookie.domain || (cookie.includesSubdomains && Self.domainMatches(host, cookie.domain)))
                    && Self.pathMatches(url.path, cookie.path)
                    && (!cookie.secure || url.scheme == "https" || host == "127.0.0.1" || host == "localhost")
            }
        }
        guard !matching.isEmpty else { return nil }
        // Longer paths first, as RFC 6265 §5.4 asks.
        return matching.sorted { $0.path.count > $1.path.count }.map { "\($0.name)=\($0.value)" }
            .joined(separator: "; ")
    }

    /// Whether `host` domain-matches `domain` as a subdomain of it
    /// ([RFC 6265 §5.1.3](https://www.rfc-editor.org/rfc/rfc6265#section-5.1.3)): `domain` is a
    /// suffix of `host` after a dot, and `host` is a host name, not an IP address (an address
    /// matches only itself).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        !isAddress(host) && !isAddress(domain) && host.hasSuffix("." + domain)
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String) -> Bool {
        if host.contains(":") || host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in !part.isEmpty && part.allSatisfy(\.isNumber) }
    }

    /// Whether `domain` is a public suffix, under which anyone may register a name.
    ///
    /// A top-level domain (one label), or one of the common registry suffixes below. Fathom
    /// carries no copy of the whole Public Suffix List; these are the suffixes most names are
    /// registered under.
    static func isPublicSuffix(_ domain: String) -> Bool {
        !domain.contains(".") || publicSuffixes.contains(domain)
    }

    private static let publicSuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "ltd.uk", "plc.uk", "net.uk", "com.au", "net.au", "org.au",
        "edu.au", "gov.au", "co.nz", "org.nz", "co.jp", "ne.jp", "or.jp", "ac.jp", "co.kr", "or.kr", "com.br",
        "net.br", "org.br", "com.cn", "net.cn", "org.cn", "com.tw", "com.hk", "com.sg", "com.mx", "com.ar", "co.in",
        "net.in", "org.in", "co.za", "com.tr", "com.ua", "co.il", "com.pl", "github.io", "gitlab.io",
        "herokuapp.com", "appspot.com", "azurewebsites.net", "cloudfront.net", "netlify.app", "vercel.app",
        "pages.dev", "workers.dev", "blogspot.com", "s3.amazonaws.com", "compute.amazonaws.com",
    ]

    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        requestPath == cookiePath
            || (requestPath.hasPrefix(cookiePath)
                && (cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")))
    }

    static func parse(_ field: String, url: RequestURL) -> Cookie? {
        let parts = field.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pair = parts.first, let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
            return nil
        }
        var defaultPath = String(url.path[..<(url.path.lastIndex(of: "/") ?? url.path.startIndex)])
        if defaultPath.isEmpty { defaultPath = "/" }
        var cookie = Cookie(
            name: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]),
            domain: url.host.lowercased(), includesSubdomains: false, path: defaultPath, expires: nil, secure: false,
            httpOnly: false)
        for attribute in parts.dropFirst() {
            let (key, value) = Self.split(attribute)
            switch key.lowercased() {
            case "max-age":
                if let seconds = Int(value) { cookie.expires = Date(timeIntervalSinceNow: TimeInterval(seconds)) }
            case "expires":
                if cookie.expires == nil, let date = Self.httpDate(value) { cookie.expires = date }
            case "domain":
                let domain = String(value.lowercased().drop { $0 == "." })
                guard !domain.isEmpty else { continue }
                if cookie.domain == domain {
                    // Its own host: a public suffix or an address stays host-only (§5.3 step 5).
                    cookie.includesSubdomains = !Self.isAddress(domain) && !Self.isPublicSuffix(domain)
                    continue
                }
                // A server may only set cookies for a parent domain of itself, never for a
                // public suffix, and an address has no parent domain (§5.1.3, §5.3 step 5).
                guard Self.domainMatches(cookie.domain, domain), !Self.isPublicSuffix(domain) else { return nil }
                cookie.domain = domain
                cookie.includesSubdomains = true
            case "path":
                if value.hasPrefix("/") { cookie.path = value }
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            default: continue
            }
        }
        return cookie
    }

    private static func split(_ attribute: String) -> (String, String) {
        guard let equals = attribute.firstIndex(of: "=") else { return (attribute, "") }
        return (
            attribute[..<equals].trimmingCharacters(in: .whitespaces),
            attribute[attribute.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        )
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz",
        ] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
