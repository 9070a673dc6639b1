import Crypto
import Foundation

/// Signs each request with HMAC-SHA256 so the server can check who sent it and that it was not changed.
///
/// Two headers are added:
/// - `X-Fathom-Date`: the time of signing, RFC 3339 in UTC (`2026-11-22T10:15:30Z`).
/// - `X-Fathom-Signature`: `keyId=<id>,algorithm=hmac-sha256,signature=<base64>`.
///
/// The signature is `HMAC-SHA256(key, stringToSign)` where `stringToSign` is four lines joined by `\n`:
/// the method, the path with its query as sent (`/v1/users?page=2`), the date header's value, and
/// the lower-case hex SHA-256 of the body (of the empty string when there is none). A server
/// rebuilds the same string from what it received and compares in constant time.
public struct RequestSigner: Interceptor {
    /// The header that carries the time the request was signed at.
    public static let dateHeader: NetworkHeaders.Name = "X-Fathom-Date"
    /// The header that carries the signature.
    public static let signatureHeader: NetworkHeaders.Name = "X-Fathom-Signature"

    /// Which key signs, for the server to look it up.
    public let keyID: String
    private let secret: Data
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - keyID: Tells the server which key was used.
    ///   - secret: The shared secret.
    ///   - now: The clock; the current time by default.
    public init(keyID: String, secret: Data, now: @escaping @Sendable () -> Date = { Date() }) {
        self.keyID = keyID
        self.secret = secret
        self.now = now
    }

    /// Sends the request signed.
    public func intercept(_ request: PreparedRequest, next: @escaping Next) async throws -> NetworkResponse<Data> {
        var request = request
        try sign(&request)
        return try await next(request)
    }

    /// Adds the date and signature headers to `request`.
    public func sign(_ request: inout PreparedRequest) throws(NetworkError) {
        let date = Self.timestamp(now())
        // Hashed as it is read: a body streamed from a large file is never held whole.
        var hasher = SHA256()
        try request.body?.forEachChunk { hasher.update(data: $0) }
        let text = Self.stringToSign(
            method: request.method.rawValue, pathAndQuery: request.url.pathAndQuery, date: date,
            bodySHA256: Hex.lowercase(hasher.finalize()))
        let mac = HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: secret))
        request.headers.replace(Self.dateHeader, with: date)
        request.headers.replace(
            Self.signatureHeader,
            with: "keyId=\(keyID),algorithm=hmac-sha256,signature=\(Data(mac).base64EncodedString())")
    }

    /// The text that is signed.
    @_spi(Fathom) public static func stringToSign(
        method: String, pathAndQuery: String, date: String, bodySHA256: String
    ) -> String {
        [method, pathAndQuery, date, bodySHA256].joined(separator: "\n")
    }

    static func hexSHA256(_ data: Data) -> String {
        Hex.lowercase(SHA256.hash(data: data))
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
    }
}

extension Interceptor where Self == RequestSigner {
    /// Signs every request with HMAC-SHA256; see ``RequestSigner`` for the scheme.
    public static func signing(keyID: String, secret: Data) -> RequestSigner {
        RequestSigner(keyID: keyID, secret: secret)
    }
}
