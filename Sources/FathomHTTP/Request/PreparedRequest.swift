import Foundation

/// A request resolved and validated, as it goes to interceptors and the transport.
///
/// The URL is absolute, the body is encoded and its `Content-Type` set. Interceptors change this
/// value (add headers, sign it) before it is sent.
public struct PreparedRequest: Hashable, Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute URL, query included.
    public var url: RequestURL
    /// The header fields, in order.
    public var headers: NetworkHeaders
    /// The encoded body, if any.
    public var body: PreparedBody?
    /// The longest the whole request may take; `nil` uses the transport's default.
    public var timeout: Duration?
    /// Headers that carry credentials: dropped, with `Authorization`, `Proxy-Authorization` and `Cookie`, when a
    /// redirect leaves the origin.
    ///
    /// API-key authenticators add theirs, and ``NetworkClient`` adds every header whose name or value its ``Redactor``
    /// knows as secret.
    public var credentialHeaders: Set<NetworkHeaders.Name> = []
    /// Who watches the response's body as it arrives (``NetworkClient/streamed(_:)``).
    ///
    /// Carried with the request through the interceptors to the transport, which hands it each
    /// chunk. Not part of the request's identity.
    @_spi(Fathom) public var watch: StreamWatch?
    /// The certificate the client shows a server that asks for one; dropped, as credentials are,
    /// when a redirect leaves the origin.
    public var clientIdentity: ClientIdentity?
    /// A PEM file of the certificates this request's server is trusted by, beside the system's
    /// (a private CA); dropped when a redirect leaves the origin.
    public var trustRootsFile: String?

    /// A request ready to send.
    public init(
        method: HTTPMethod, url: RequestURL, headers: NetworkHeaders = NetworkHeaders(), body: PreparedBody? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Requests are equal when they would put the same bytes on the wire (the watch aside).
    public static func == (a: PreparedRequest, b: PreparedRequest) -> Bool {
        a.method == b.method && a.url == b.url && a.headers == b.headers && a.body == b.body && a.timeout == b.timeout
            && a.credentialHeaders == b.credentialHeaders && a.clientIdentity == b.clientIdentity
            && a.trustRootsFile == b.trustRootsFile
    }

    /// Hashes what equality compares (the watch aside).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(headers)
        hasher.combine(body)
        hasher.combine(timeout)
        hasher.combine(credentialHeaders)
        hasher.combine(clientIdentity)
        hasher.combine(trustRootsFile)
    }
}

extension NetworkRequest {
    /// Resolves the request against `baseURL`, encodes its body and validates it.
    ///
    /// A relative target is appended to the base URL's path (`https://api.example.com/v1` +
    /// `/users` → `https://api.example.com/v1/users`), as API tools do, rather than replacing it.
    ///
    /// - Parameter baseURL: The URL relative targets resolve against; `nil` when the target must be absolute.
    /// - Returns: The request ready for interceptors and the transport.
    /// - Throws: ``NetworkError/invalidURL(_:reason:)``, ``NetworkError/invalidRequest(_:)`` or
    ///   ``NetworkError/file(path:reason:)``, saying what is wrong.
    public func prepared(baseURL: String? = nil) throws(NetworkError) -> PreparedRequest {
        if let buildProblem { throw .invalidRequest(buildProblem) }
        var url = try resolveURL(baseURL: baseURL)
        url.appendQuery(queryItems.map(\.encoded).joined(separator: "&"))

        var headers = self.headers
        for field in headers {
            try Self.validate(field)
        }
        var prepared: PreparedBody?
        if let body {
            guard method.permitsBody else {
                throw .invalidRequest(
                    "a \(method) request cannot carry a body; remove the body")
            }
            let (encoded, contentType) = try Self.encode(body)
            prepared = encoded
            if let contentType, !headers.contains(.contentType) {
                headers.add(.contentType, contentType)
            }
        }
        return PreparedRequest(method: method, url: url, headers: headers, body: prepared, timeout: timeout)
    }

    private func resolveURL(baseURL: String?) throws(NetworkError) -> RequestURL {
        let target = self.target.trimmingWhitespace()
        if target.contains("://") {
            return try RequestURL(parsing: target)
        }
        guard let baseURL, !baseURL.isEmpty else {
            if target.isEmpty {
                throw .invalidURL(target, reason: "no URL: set a base URL or give a full URL")
            }
            throw .invalidURL(target, reason: "relative path needs a base URL (or give a full http(s):// URL)")
        }
        var base = try RequestURL(parsing: baseURL)
        guard !target.isEmpty else { return base }
        var path = Substring(target)
        var query: String?
        if let questionMark = path.firstIndex(of: "?") {
            query = PercentEncoding.encode(String(path[path.index(after: questionMark)...]), as: .rawQuery)
            path = path[..<questionMark]
        }
        if !path.isEmpty {
            let basePath = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
            let relative = path.hasPrefix("/") ? String(path) : "/" + path
            base.path = basePath + PercentEncoding.encode(relative, as: .path)
        }
        if let query { base.appendQuery(query) }
        return base
    }

    private static func validate(_ field: NetworkHeaders.Field) throws(NetworkError) {
        let name = field.name.rawName
        guard !name.isEmpty else { throw .invalidRequest("a header has an empty name") }
        let tokenPunctuation = Set("!#$%&'*+-.^_`|~")
        if let bad = name.first(where: {
            !($0.isASCII && ($0.isLetter || $0.isNumber || tokenPunctuation.contains($0)))
        }) {
            throw .invalidRequest("header name '\(name)' contains '\(bad)', which is not allowed in a header name")
        }
        // Scalars, not Characters: "\r\n" is one Character and would slip past a Character check.
        if field.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw .invalidRequest("header '\(name)' has a line break in its value")
        }
        // RFC 9110 §5.5: visible characters, spaces and tabs; no other control character.
        if let bad = field.value.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            let code = String(bad.value, radix: 16, uppercase: true)
            throw .invalidRequest(
                "header '\(name)' has a control character (U+\(String(repeating: "0", count: 4 - code.count))\(code)) in its value"
            )
        }
    }

    private static func encode(_ body: RequestBody) throws(NetworkError) -> (PreparedBody, String?) {
        switch body {
        case .data(let data, let contentType):
            return (.bytes(data), contentType)
        case .json(let data):
            return (.bytes(data), MediaType.json)
        case .form(let items):
            let text = items.map { item in
                let name = PercentEncoding.encode(item.name, as: .form)
                return item.value.map { name + "=" + PercentEncoding.encode($0, as: .form) } ?? name
            }.joined(separator: "&")
            return (.bytes(Data(text.utf8)), MediaType.form)
        case .multipart(let form):
            return (try form.prepared(), form.contentType)
        case .file(let path, let contentType):
            let length = try FileBody.length(path)
            return (.file(path: path, length: length), contentType ?? MediaType.guess(forPath: path))
        case .sequence(let sources, let contentType):
            var pieces: [BodyPiece] = []
            var length = 0
            for source in sources {
                switch source {
                case .bytes(let data):
                    pieces.append(.bytes(data))
                    length += data.count
                case .file(let path, let dropsLineBreaks):
                    let size = try FileBody.length(path, dropsLineBreaks: dropsLineBreaks)
                    pieces.append(.file(path: path, length: size, dropsLineBreaks: dropsLineBreaks))
                    length += size
                }
            }
            return (.pieces(pieces, length: length), contentType)
        }
    }
}
