/// An absolute `http` or `https` URL, split into the parts Fathom works with.
///
/// The path and query are stored percent-encoded, exactly as they go on the wire. Build one with
/// ``init(parsing:)``, which explains what is wrong with a URL it cannot accept.
public struct RequestURL: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    public var scheme: String
    /// The host name or address; an IPv6 address keeps its brackets (`[::1]`).
    public var host: String
    /// The port when one is written; see ``effectivePort``.
    public var port: Int?
    /// The percent-encoded path, starting with `/`.
    public var path: String
    /// The percent-encoded query without `?`, or `nil` when there is none.
    public var query: String?

    public init(scheme: String, host: String, port: Int? = nil, path: String = "/", query: String? = nil) {
        self.scheme = scheme.lowercased()
        self.host = host
        self.port = port
        self.path = path.isEmpty ? "/" : path
        self.query = query
    }

    /// Parses an absolute URL such as `https://api.example.com:8443/v1/users?page=2`.
    ///
    /// Characters that may not appear in a path or query (spaces, non-ASCII) are percent-encoded;
    /// existing `%XX` escapes are kept. A fragment is dropped, as it is never sent.
    ///
    /// - Throws: ``NetworkError/invalidURL(_:reason:)`` naming the part that is wrong.
    public init(parsing text: String) throws(NetworkError) {
        let trimmed = text.trimmingWhitespace()
        guard let schemeEnd = trimmed.range(of: "://") else {
            throw .invalidURL(text, reason: "missing scheme (expected http:// or https://)")
        }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL(text, reason: "unsupported scheme '\(scheme)' (expected http or https)")
        }
        var rest = trimmed[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") {
            rest = rest[..<hash]
        }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let afterAuthority = rest[authorityEnd...]
        if authority.contains("@") {
            // Credentials in the URL would travel in clear text through logs and history.
            throw .invalidURL(text, reason: "credentials in the URL are not supported; use an Authorization header")
        }
        var port: Int?
        let host: String
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidURL(text, reason: "unterminated IPv6 address in host")
            }
            host = String(authority[...close])
            let tail = authority[authority.index(after: close)...]
            if !tail.isEmpty {
                guard tail.hasPrefix(":") else { throw .invalidURL(text, reason: "unexpected text after host") }
                port = try Self.parsePort(String(tail.dropFirst()), in: text)
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            port = try Self.parsePort(String(authority[authority.index(after: colon)...]), in: text)
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { throw .invalidURL(text, reason: "missing host") }
        if let bad = host.first(where: { $0 == " " || $0 == "%" || $0 == "\\" || !$0.isASCII }) {
            throw .invalidURL(text, reason: "invalid character '\(bad)' in host '\(host)'")
        }
        var path = Substring("")
        var query: String?
        if let questionMark = afterAuthority.firstIndex(of: "?") {
            path = afterAuthority[..<questionMark]
            query = PercentEncoding.encode(
                String(afterAuthority[afterAuthority.index(after: questionMark)...]), as: .rawQuery)
        } else {
            path = afterAuthority
        }
        self.init(
            scheme: scheme, host: host.lowercased(), port: port,
            path: PercentEncoding.encode(String(path), as: .path), query: query)
    }

    private static func parsePort(_ text: String, in url: String) throws(NetworkError) -> Int? {
        if text.isEmpty { return nil }
        guard let port = Int(text), (1...65535).contains(port) else {
            throw .invalidURL(url, reason: "invalid port '\(text)' (expected 1–65535)")
        }
        return port
    }

    /// The port a connection goes to: the written one, else 80 for http and 443 for https.
    public var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// `host` or `host:port` as written.
    public var authority: String { port.map { "\(host):\($0)" } ?? host }

    /// The request target: path plus `?query` when there is one.
    public var pathAndQuery: String { query.map { "\(path)?\($0)" } ?? path }

    /// Whether `other` has the same scheme, host and port
    /// ([RFC 6454 origin](https://www.rfc-editor.org/rfc/rfc6454#section-4)).
    public func isSameOrigin(as other: RequestURL) -> Bool {
        scheme == other.scheme && host == other.host && effectivePort == other.effectivePort
    }

    /// Appends already-encoded query text.
    mutating func appendQuery(_ encoded: String) {
        guard !encoded.isEmpty else { return }
        if let query, !query.isEmpty {
            self.query = query + "&" + encoded
        } else {
            self.query = encoded
        }
    }

    /// Resolves a `Location` value (absolute, scheme-relative, absolute-path or relative) against this URL
    /// ([RFC 3986 §5.2](https://www.rfc-editor.org/rfc/rfc3986#section-5.2), without dot-segment removal beyond `..`).
    public func resolving(_ reference: String) throws(NetworkError) -> RequestURL {
        if reference.contains("://") {
            return try RequestURL(parsing: reference)
        }
        if reference.hasPrefix("//") {
            return try RequestURL(parsing: "\(scheme):\(reference)")
        }
        var resolved = self
        var reference = Substring(reference)
        if let hash = reference.firstIndex(of: "#") { reference = reference[..<hash] }
        var newQuery: String?
        if let questionMark = reference.firstIndex(of: "?") {
            newQuery = PercentEncoding.encode(
                String(reference[reference.index(after: questionMark)...]), as: .rawQuery)
            reference = reference[..<questionMark]
        }
        if reference.isEmpty {
            resolved.query = newQuery ?? query
            return resolved
        }
        var segments: [Substring]
        if reference.hasPrefix("/") {
            segments = reference.split(separator: "/", omittingEmptySubsequences: false)
        } else {
            var base = path.split(separator: "/", omittingEmptySubsequences: false)
            base.removeLast()
            segments = base + reference.split(separator: "/", omittingEmptySubsequences: false)
        }
        var output: [Substring] = []
        for segment in segments {
            if segment == "." { continue }
            if segment == ".." {
                if output.count > 1 { output.removeLast() }
                continue
            }
            output.append(segment)
        }
        resolved.path = PercentEncoding.encode(output.joined(separator: "/"), as: .path)
        if !resolved.path.hasPrefix("/") { resolved.path = "/" + resolved.path }
        resolved.query = newQuery
        return resolved
    }

    public var description: String { "\(scheme)://\(authority)\(pathAndQuery)" }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
