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
                    && (host == cookie.domain || (cookie.includesSubdomains && host.hasSuffix("." + cookie.domain)))
                    && Self.pathMatches(url.path, cookie.path)
                    && (!cookie.secure || url.scheme == "https" || host == "127.0.0.1" || host == "localhost")
            }
        }
        guard !matching.isEmpty else { return nil }
        // Longer paths first, as RFC 6265 §5.4 asks.
        return matching.sorted { $0.path.count > $1.path.count }.map { "\($0.name)=\($0.value)" }
            .joined(separator: "; ")
    }

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
                let domain = value.lowercased().drop { $0 == "." }
                guard !domain.isEmpty else { continue }
                // A server may only set cookies for itself or a parent domain of itself.
                guard cookie.domain == domain || cookie.domain.hasSuffix("." + domain) else { return nil }
                cookie.domain = String(domain)
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
