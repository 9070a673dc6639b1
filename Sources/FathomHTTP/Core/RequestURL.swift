/// An absolute `http` or `https` URL, split into the parts Fathom works with.
///
/// The path and query are stored percent-encoded, exactly as they go on the wire. Build one with
/// ``init(parsing:)``, which explains what is wrong with a URL it cannot accept.
public struct RequestURL: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    public var scheme: String
    /// The host name or address; an IPv6 address keeps its brackets (`[::1]`).
    public var host: String
    /// The port when one is written; `nil` for the scheme's default (80, 443).
    public var port: Int?
    /// The percent-encoded path, starting with `/`.
    public var path: String
    /// The percent-encoded query without `?`, or `nil` when there is none.
    public var query: String?

    /// A URL from its parts, the path and query already percent-encoded.
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
        // Scanned as UTF-8 bytes: every delimiter is ASCII, and Character-level scanning cost more
        // than the rest of preparing a request.
        // What errors show: the text with any `user:password@` masked, so a credential never reaches a message.
        let shown = Self.maskingCredentials(text)
        let all = Array(text.utf8)
        var lower = 0
        var upper = all.count
        while lower < upper, Self.isSpace(all[lower]) { lower += 1 }
        while upper > lower, Self.isSpace(all[upper - 1]) { upper -= 1 }
        let bytes = all[lower..<upper]
        func string(_ slice: ArraySlice<UInt8>) -> String { String(decoding: slice, as: UTF8.self) }

        guard let schemeEnd = Self.find(Array("://".utf8), in: bytes) else {
            throw .invalidURL(shown, reason: "missing scheme (expected http:// or https://)")
        }
        let scheme = string(bytes[..<schemeEnd]).lowercased()
        guard ["http", "https", "http+unix", "https+unix"].contains(scheme) else {
            throw .invalidURL(
                shown, reason: "unsupported scheme '\(scheme)' (expected http, https, or http+unix for a Unix socket)")
        }
        var rest = bytes[(schemeEnd + 3)...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            rest = rest[..<hash]
        }
        let authorityEnd =
            rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let afterAuthority = rest[authorityEnd...]
        if authority.contains(UInt8(ascii: "@")) {
            // Credentials in the URL would travel in clear text through logs and history.
            throw .invalidURL(shown, reason: "credentials in the URL are not supported; use an Authorization header")
        }
        var port: Int?
        let host: String
        let socket = scheme.hasSuffix("+unix")
        if socket {
            // The socket's path, percent-encoded (`%2Fvar%2Frun%2Fdocker.sock`): a file name, so
            // its case is kept and it has no port.
            host = string(authority)
            guard host.removingPercentEncoding?.hasPrefix("/") == true else {
                throw .invalidURL(
                    shown,
                    reason:
                        "a Unix socket URL's host is the socket's absolute path, encoded: http+unix://%2Fvar%2Frun%2Fapp.sock/"
                )
            }
        } else if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw .invalidURL(shown, reason: "unterminated IPv6 address in host")
            }
            host = string(authority[...close])
            let tail = authority[(close + 1)...]
            if !tail.isEmpty {
                guard tail.first == UInt8(ascii: ":") else {
                    throw .invalidURL(shown, reason: "unexpected text after host")
                }
                port = try Self.parsePort(string(tail.dropFirst()), in: shown)
            }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            host = string(authority[..<colon])
            port = try Self.parsePort(string(authority[(colon + 1)...]), in: shown)
        } else {
            host = string(authority)
        }
        guard !host.isEmpty else { throw .invalidURL(shown, reason: "missing host") }
        if !socket,
            let bad = host.utf8.first(where: {
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") || $0 >= 0x80
            })
        {
            let shown = bad >= 0x80 ? "non-ASCII" : String(UnicodeScalar(bad))
            throw .invalidURL(shown, reason: "invalid character '\(shown)' in host '\(host)'")
        }
        var path = afterAuthority
        var query: String?
        if let questionMark = afterAuthority.firstIndex(of: UInt8(ascii: "?")) {
            path = afterAuthority[..<questionMark]
            query = PercentEncoding.encode(string(afterAuthority[(questionMark + 1)...]), as: .rawQuery)
        }
        self.init(
            scheme: scheme, host: socket ? host : host.lowercased(), port: port,
            path: PercentEncoding.encode(string(path), as: .path), query: query)
    }

    /// `text` with the user-information part of its authority (`user:password@`) replaced by `••••@`.
    static func maskingCredentials(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + "••••" + String(text[at...])
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func parsePort(_ text: String, in url: String) throws(NetworkError) -> Int? {
        if text.isEmpty { return nil }
        guard let port = Int(text), (1...65535).contains(port) else {
            throw .invalidURL(url, reason: "invalid port '\(text)' (expected 1–65535)")
        }
        return port
    }

    /// The port a connection goes to: the written one, else 80 for http and 443 for https.
    @_spi(Fathom) public var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// The Unix socket a `http+unix://` URL goes to (its host, decoded), or `nil` for a TCP URL.
    public var socketPath: String? {
        scheme.hasSuffix("+unix") ? host.removingPercentEncoding : nil
    }

    /// `host` or `host:port` as written.
    @_spi(Fathom) public var authority: String { port.map { "\(host):\($0)" } ?? host }

    /// The request target: path plus `?query` when there is one.
    @_spi(Fathom) public var pathAndQuery: String { query.map { "\(path)?\($0)" } ?? path }

    /// Whether `other` has the same scheme, host and port
    /// ([RFC 6454 origin](https://www.rfc-editor.org/rfc/rfc6454#section-4)).
    @_spi(Fathom) public func isSameOrigin(as other: RequestURL) -> Bool {
        scheme == other.scheme && host == other.host && effectivePort == other.effectivePort
    }

    /// The URL's origin as [RFC 6454 §6.2](https://www.rfc-editor.org/rfc/rfc6454#section-6.2) serializes it:
    /// `scheme://host`, with `:port` only when it is not the scheme's default.
    ///
    /// Two URLs have the same origin exactly when their `origin`s are equal.
    @_spi(Fathom) public var origin: String {
        if socketPath != nil { return "\(scheme)://\(host)" }
        let defaultPort = scheme == "https" ? 443 : 80
        return effectivePort == defaultPort ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(effectivePort)"
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
    @_spi(Fathom) public func resolving(_ reference: String) throws(NetworkError) -> RequestURL {
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

    /// The URL as it is sent: `scheme://authority/path?query`.
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
