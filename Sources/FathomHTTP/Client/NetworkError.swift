import Foundation

/// Everything that can go wrong sending a request, each case with what a person needs to act on it.
///
/// ``NetworkClient`` throws only this type: errors from the transport, interceptors and decoders are
/// mapped into it. ``description`` is a one-line message with the host, the limit or the reason;
/// values the client's ``Redactor`` knows as secret are masked in it.
///
/// ## Growing without breaking your switch
///
/// The library adds cases in minor releases when it learns to tell a new failure apart (until
/// then that failure arrives as ``transport(_:)`` with a sentence). Swift packages are built
/// without library evolution, so the enum cannot be marked non-frozen: switch over the cases you
/// act on and end with `default:` — never an exhaustive list — and show ``description`` for the
/// rest. Existing cases keep their names and associated values within a major version.
public enum NetworkError: Error, Sendable, CustomStringConvertible {
    /// Which clock ran out.
    public enum TimeoutKind: String, Sendable {
        /// Establishing the TCP (and TLS) connection.
        case connect
        /// The whole request, from sending to the last byte of the body.
        case total
        /// Waiting for the next byte from the server.
        case read
    }

    /// The URL cannot be used; `reason` names the part that is wrong.
    case invalidURL(String, reason: String)
    /// The request makes no sense as built (a body on GET, a header with a line break, …).
    case invalidRequest(String)
    /// Nothing listens at `host:port`.
    case connectionRefused(host: String, port: Int)
    /// The host name does not resolve.
    case dnsFailure(host: String)
    /// A timeout fired after `after`.
    case timeout(TimeoutKind, after: Duration)
    /// The TLS handshake failed, for example on a self-signed certificate.
    case tls(host: String, reason: String)
    /// More redirects than `limit` were offered; `lastURL` is where the chain had got to.
    case tooManyRedirects(limit: Int, lastURL: String)
    /// The response body is larger than `limit` bytes (after decompression when `decompressed`).
    case bodyTooLarge(limit: Int, decompressed: Bool)
    /// The connection broke before the response was complete.
    case connectionClosed(String)
    /// The request was cancelled, `after` this long when known.
    case cancelled(after: Duration?)
    /// The server answered with a status the caller treats as failure; `message` is the best
    /// explanation found in the body.
    case httpStatus(HTTPStatus, message: String?, response: NetworkResponse<Data>)
    /// The body could not be decoded into `type`.
    case decodingFailed(type: String, codingPath: String, reason: String, snippet: String)
    /// ``MockTransport`` has no response registered for this path.
    case noMock(path: String)
    /// A file for a request body could not be read.
    case file(path: String, reason: String)
    /// Any other transport failure.
    case transport(String)

    /// What went wrong, as a sentence that says what to do about it.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "invalid URL '\(url)': \(reason)"
        case .invalidRequest(let message):
            return "invalid request: \(message)"
        case .connectionRefused(let host, let port):
            return "connection refused to \(host):\(port) — is the server running?"
        case .dnsFailure(let host):
            return "cannot resolve host '\(host)'"
        case .timeout(let kind, let after):
            switch kind {
            case .connect: return "timed out after \(after.shortDescription) connecting"
            case .total: return "timed out after \(after.shortDescription) waiting for the whole response"
            case .read: return "timed out after \(after.shortDescription) waiting for the next byte"
            }
        case .tls(let host, let reason):
            return "TLS handshake with \(host) failed: \(reason)"
        case .tooManyRedirects(let limit, let lastURL):
            return "too many redirects (more than \(limit)), last at \(lastURL)"
        case .bodyTooLarge(let limit, let decompressed):
            return "response body exceeds the limit of \(ByteCount.format(limit))"
                + (decompressed ? " once decompressed (possible decompression bomb)" : "")
        case .connectionClosed(let detail):
            return "connection closed before the response was complete: \(detail)"
        case .cancelled(let after):
            return after.map { "cancelled after \($0.shortDescription)" } ?? "cancelled"
        case .httpStatus(let status, let message, _):
            guard var message else { return "HTTP \(status)" }
            // A problem title that only repeats the reason phrase (the server's or the standard one) adds nothing.
            for phrase in [status.reasonPhrase, HTTPStatus.standardReason(for: status.code)] where !phrase.isEmpty {
                if message.hasPrefix(phrase + ": ") {
                    message.removeFirst(phrase.count + 2)
                    break
                }
            }
            return "HTTP \(status): \(message)"
        case .decodingFailed(let type, let codingPath, let reason, let snippet):
            let at = codingPath.isEmpty ? "" : " at \(codingPath)"
            return "cannot decode \(type)\(at): \(reason); body starts: \(snippet)"
        case .noMock(let path):
            return "no mock for \(path)"
        case .file(let path, let reason):
            return "cannot read '\(path)': \(reason)"
        case .transport(let message):
            return message
        }
    }

    /// The response, when the error carries one.
    public var response: NetworkResponse<Data>? {
        if case .httpStatus(_, _, let response) = self { return response }
        return nil
    }

    /// Whether the TLS handshake failed over the client's certificate: none was given to a server
    /// that asks for one, or the server refused it.
    @_spi(Fathom) public var isAboutTheClientCertificate: Bool {
        guard case .tls(_, let reason) = self else { return false }
        return reason == AsyncHTTPClientTransport.clientCertificateRequired
            || reason == AsyncHTTPClientTransport.clientCertificateRefused
    }

    /// Whether a retry may succeed: refused or dropped connections and connect timeouts.
    public var isTransient: Bool {
        switch self {
        case .connectionRefused, .connectionClosed, .timeout(.connect, _): true
        default: false
        }
    }

    /// The same error with every text passed through `mask`.
    func mapText(_ mask: (String) -> String) -> NetworkError {
        switch self {
        case .invalidURL(let url, let reason): .invalidURL(mask(url), reason: mask(reason))
        case .invalidRequest(let message): .invalidRequest(mask(message))
        case .tooManyRedirects(let limit, let lastURL): .tooManyRedirects(limit: limit, lastURL: mask(lastURL))
        case .connectionClosed(let detail): .connectionClosed(mask(detail))
        case .httpStatus(let status, let message, let response):
            .httpStatus(status, message: message.map(mask), response: response)
        case .decodingFailed(let type, let codingPath, let reason, let snippet):
            .decodingFailed(type: type, codingPath: codingPath, reason: mask(reason), snippet: mask(snippet))
        case .noMock(let path): .noMock(path: mask(path))
        case .file(let path, let reason): .file(path: path, reason: mask(reason))
        case .transport(let message): .transport(mask(message))
        case .connectionRefused, .dnsFailure, .timeout, .tls, .bodyTooLarge, .cancelled: self
        }
    }
}

/// Formatting for people, shared with Fathom's own REPL through the `Fathom` SPI rather than made
/// part of the library's API (`@_spi(Fathom) import FathomHTTP`).
extension Duration {
    /// `850 ms`, `1.4 s`, `2 min 5 s`.
    @_spi(Fathom) public var shortDescription: String {
        let (seconds, attoseconds) = components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        // Not String(format:): Foundation's formatting cost a request's line more than the rest
        // of its status line (a loopback answer is under a millisecond).
        if milliseconds < 1 {
            let hundredths = Int((milliseconds * 100).rounded(.toNearestOrEven))
            if hundredths >= 100 { return "1.00 ms" }
            return "0.\(hundredths < 10 ? "0" : "")\(hundredths) ms"
        }
        if milliseconds < 1000 { return "\(Int(milliseconds.rounded())) ms" }
        if milliseconds < 60_000 {
            let tenths = Int((milliseconds / 100).rounded(.toNearestOrEven))
            return (tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)") + " s"
        }
        let total = Int(milliseconds / 1000)
        return "\(total / 60) min \(total % 60) s"
    }

    /// The duration in seconds as a `Double`.
    @_spi(Fathom) public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Formats byte counts for people: `512 B`, `1.5 KiB`, `64 MiB`.
@_spi(Fathom) public enum ByteCount {
    /// A byte count for people: `512 B`, `1.5 KiB`, `12 MiB`.
    public static func format(_ count: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(count) B" }
        let text = String(format: "%.1f", value)
        return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + " " + units[unit]
    }
}
