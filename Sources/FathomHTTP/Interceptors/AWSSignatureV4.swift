import Crypto
import Foundation

/// Signs each request with AWS Signature Version 4, as AWS specifies it (and as botocore signs):
/// a canonical request, a string to sign under a date, region and service scope, and a key
/// derived from the secret for that scope.
///
/// The request gets `X-Amz-Date`, `X-Amz-Security-Token` with temporary credentials, and
/// `Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…`. Every header
/// present when it signs is signed but hop-by-hop ones and `User-Agent`, with `host` added. The
/// payload is hashed — a body streamed from a file is read for it chunk by chunk, never held
/// whole — except for S3 (`service` `s3`), where a streamed body goes as `UNSIGNED-PAYLOAD` and
/// the hash is also sent as `X-Amz-Content-SHA256`. S3 paths are signed as sent; other services'
/// have their dot segments removed and are encoded once more, as AWS asks.
///
/// Credentials are fixed: a `403` is returned as it is (``renewsCredentials`` is `false`).
public struct AWSSignatureV4: Authenticator {
    /// An access key, its secret, and a session token for temporary credentials.
    public struct Credentials: Sendable, Equatable {
        /// The access key ID: names the key, and is no secret.
        public var accessKeyID: String
        /// The secret access key: signs, and is never sent.
        public var secretAccessKey: String
        /// The session token of temporary credentials (STS), sent as `X-Amz-Security-Token`.
        public var sessionToken: String?

        /// Credentials from their parts.
        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }

        /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` from `environment`,
        /// or `nil` when either key is missing or empty.
        public static func environment(_ environment: [String: String]) -> Credentials? {
            guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
                let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
            else { return nil }
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
        }

        /// The credentials of `profile` in the text of a shared credentials file
        /// (`~/.aws/credentials`: `[profile]` sections of `aws_access_key_id`,
        /// `aws_secret_access_key`, `aws_session_token`), or `nil` when it has none.
        public static func sharedFile(_ text: String, profile: String) -> Credentials? {
            var section: String?
            var values: [String: String] = [:]
            for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
                if line.hasPrefix("["), line.hasSuffix("]") {
                    section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                    continue
                }
                guard section == profile, let equals = line.firstIndex(of: "=") else { continue }
                let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                values[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
            guard let id = values["aws_access_key_id"], !id.isEmpty,
                let secret = values["aws_secret_access_key"], !secret.isEmpty
            else { return nil }
            let token = values["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 }
            return Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
        }
    }

    /// The payload hash of a body that is not hashed (S3's streamed uploads).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// The region requests are signed for (`us-east-1`).
    public let region: String
    /// The service requests are signed for (`execute-api`, `s3`, `dynamodb`).
    public let service: String
    let credentials: Credentials
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - region: The region, as in the endpoint (`eu-west-1`).
    ///   - service: The signing name of the service (`execute-api` for API Gateway, `s3`, `sts`).
    ///   - credentials: The keys that sign.
    ///   - now: The clock; the current time by default.
    public init(
        region: String, service: String, credentials: Credentials, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.region = region
        self.service = service
        self.credentials = credentials
        self.now = now
    }

    /// Signs the request.
    public func authorize(_ request: inout PreparedRequest) async throws {
        try sign(&request)
    }

    /// Nothing to renew: the keys are fixed.
    public func authenticate() async throws {}

    /// `false`: a request refused with these keys is refused again.
    public var renewsCredentials: Bool { false }

    /// Adds the date, the session token and the signature to `request`.
    ///
    /// - Throws: ``NetworkError/file(path:reason:)`` when a body file cannot be read for its hash.
    public func sign(_ request: inout PreparedRequest) throws(NetworkError) {
        let timestamp = Self.timestamp(now())
        for name in ["Authorization", "X-Amz-Date", "X-Amz-Security-Token", "X-Amz-Content-SHA256"] {
            request.headers.remove(NetworkHeaders.Name(name))
        }
        request.headers.add("X-Amz-Date", timestamp)
        if let token = credentials.sessionToken { request.headers.add("X-Amz-Security-Token", token) }
        let payload = try payloadHash(of: request)
        if service == "s3" { request.headers.add("X-Amz-Content-SHA256", payload) }

        let headers = Self.headersToSign(request)
        let signedHeaders = headers.map(\.name).joined(separator: ";")
        let canonical = [
            request.method.rawValue.uppercased(),
            service == "s3" ? Self.emptyPathAsSlash(request.url.path) : Self.canonicalPath(request.url.path),
            Self.canonicalQuery(request.url.query),
            headers.map { "\($0.name):\($0.value)\n" }.joined(),
            signedHeaders,
            payload,
        ].joined(separator: "\n")
        let day = String(timestamp.prefix(8))
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", timestamp, scope, Hex.lowercase(SHA256.hash(data: Data(canonical.utf8))),
        ]
        .joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = Hex.lowercase(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        request.headers.add(
            .authorization,
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        )
    }

    /// The body's SHA-256 in hex: of nothing without one, read chunk by chunk from a file, or
    /// `UNSIGNED-PAYLOAD` for a streamed body to S3.
    private func payloadHash(of request: PreparedRequest) throws(NetworkError) -> String {
        guard let body = request.body else { return Hex.lowercase(SHA256.hash(data: Data())) }
        switch body {
        case .bytes(let data): return Hex.lowercase(SHA256.hash(data: data))
        case .file, .pieces:
            if service == "s3" { return Self.unsignedPayload }
            var hasher = SHA256()
            try body.forEachChunk { hasher.update(data: $0) }
            return Hex.lowercase(hasher.finalize())
        }
    }

    /// Headers that are never signed: hop-by-hop ones, which a proxy may change, and
    /// `User-Agent`, which a client may.
    static let unsigned: Set<String> = [
        "connection", "expect", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
    ]

    /// The signed headers, by lower-case name in order, each with its values trimmed, inner runs
    /// of blanks made one space, and repeats joined by commas; `host` from the URL when absent.
    static func headersToSign(_ request: PreparedRequest) -> [(name: String, value: String)] {
        var values: [String: [String]] = [:]
        for field in request.headers {
            let name = field.name.rawName.lowercased()
            guard !unsigned.contains(name) else { continue }
            values[name, default: []].append(field.value.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        }
        if values["host"] == nil {
            let url = request.url
            let defaultPort = url.scheme == "https" ? 443 : 80
            var host = url.host.lowercased()
            if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
            if let port = url.port, port != defaultPort { host += ":\(port)" }
            values["host"] = [host]
        }
        return values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map {
            ($0, values[$0]!.joined(separator: ","))
        }
    }

    /// A path with its dot segments and empty segments removed, encoded once more (a `%` becomes
    /// `%25`): what AWS signs for every service but S3.
    static func canonicalPath(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty || segment == "." { continue }
            if segment == ".." {
                if !segments.isEmpty { segments.removeLast() }
            } else {
                segments.append(segment)
            }
        }
        let first = path.hasPrefix("/") ? "/" : ""
        let last = path.hasSuffix("/") && !segments.isEmpty ? "/" : ""
        return PercentEncoding.encode(first + segments.joined(separator: "/") + last, as: .encodedPath)
    }

    /// S3 signs the path as it is sent; no path is `/`.
    static func emptyPathAsSlash(_ path: String) -> String { path.isEmpty ? "/" : path }

    /// The query's pairs decoded, encoded as AWS asks (only unreserved characters kept, `%XX`
    /// upper case), sorted by name and then value, joined with `&`.
    static func canonicalQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func coded(_ text: Substring) -> String {
                PercentEncoding.encode(String(text).removingPercentEncoding ?? String(text), as: .queryItem)
            }
            return (coded(parts[0]), parts.count > 1 ? coded(parts[1]) : "")
        }
        return pairs.sorted {
            $0.0 == $1.0
                ? $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8)
        }
        .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// `20261128T012345Z`, in UTC.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", c.year ?? 0) + two(c.month) + two(c.day) + "T" + two(c.hour) + two(c.minute)
            + two(c.second) + "Z"
    }
}
