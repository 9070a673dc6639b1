import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

extension AsyncHTTPClientTransport {
    /// Maps AsyncHTTPClient, NIO and TLS errors to ``NetworkError`` with the host, the limit or the reason.
    func map(_ error: any Error, url: RequestURL, timeout: Duration) -> NetworkError {
        if let mapped = NetworkError.socket(
            error, url: url, port: url.effectivePort,
            inner: {
                map($0, url: url, timeout: timeout)
            })
        {
            return mapped
        }
        switch error {
        case let error as HTTPClientError:
            return map(error, url: url, timeout: timeout)
        case HTTP1ExchangeFailure.closedBeforeAnswering:
            return .connectionClosed("\(url.authority) closed the connection")
        case HTTP1ExchangeFailure.closedWhileAnswering:
            return .connectionClosed("\(url.authority) closed the connection before the whole response arrived")
        case let error as HTTPParserError:
            if case .invalidEOFState = error { return .connectionClosed("\(url.authority) closed the connection") }
            if case .headerOverflow = error {
                return .transport("\(url.authority) sent response headers too large to read (over 80 KiB)")
            }
            return .transport("\(url.authority) sent a response that is not valid HTTP: \(error)")
        case let error as NIOHTTPDecompression.DecompressionError:
            switch error {
            case .limit: return .bodyTooLarge(limit: configuration.maxBodySize, decompressed: true)
            case .inflationError(let code):
                return .transport(
                    "the response body from \(url.authority) is not valid gzip or deflate data (zlib error \(code))")
            default:
                return .transport("the compressed response body from \(url.authority) cannot be decompressed")
            }
        case let error as NIOHTTPDecompression.ExtraDecompressionError where error == .truncatedData:
            return .transport("the compressed response body from \(url.authority) ended early (truncated data)")
        case let error as NIOHTTPDecompression.ExtraDecompressionError where error == .invalidTrailingData:
            return .transport("the compressed response body from \(url.authority) has data after its end")
        case is NIOTooManyBytesError:
            return .bodyTooLarge(limit: configuration.maxBodySize, decompressed: false)
        case let error as NIOSSLError:
            return .tls(host: url.host, reason: Self.tlsReason(String(describing: error)))
        case let error as BoringSSLError:
            return .tls(host: url.host, reason: Self.tlsReason(String(describing: error)))
        case ChannelError.connectTimeout:
            return .timeout(.connect, after: configuration.connectTimeout)
        case ChannelError.ioOnClosedChannel, ChannelError.eof:
            return .connectionClosed("\(url.authority) closed the connection")
        default:
            return .transport("request to \(url.authority) failed: \(error)")
        }
    }

    /// Whether `error` says the connection ended before a response began: worth one more try
    /// for an idempotent request.
    static func closedBeforeAnswering(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPClientError: error == .remoteConnectionClosed
        case ChannelError.ioOnClosedChannel, ChannelError.eof: true
        case let error as IOError: error.errnoCode == ECONNRESET || error.errnoCode == EPIPE
        default: false
        }
    }

    private func map(_ error: HTTPClientError, url: RequestURL, timeout: Duration) -> NetworkError {
        switch error {
        case .connectTimeout, .tlsHandshakeTimeout, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
            return .timeout(.connect, after: configuration.connectTimeout)
        case .deadlineExceeded:
            return .timeout(.total, after: timeout)
        case .readTimeout:
            return .timeout(.read, after: timeout)
        case .cancelled, .requestStreamCancelled:
            return .cancelled(after: nil)
        case .remoteConnectionClosed:
            return .connectionClosed("\(url.authority) closed the connection")
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL(url.description, reason: "not accepted by the HTTP client")
        case .proxyAuthenticationRequired:
            return .transport("the proxy requires authentication (407)")
        case .invalidProxyResponse:
            return .transport("the proxy refused the connection to \(url.authority)")
        case .bodyLengthMismatch:
            return .connectionClosed("the body from \(url.authority) did not match its Content-Length")
        case .contentLengthMissing:
            return .transport("\(url.authority) sent a response without a length where one is required")
        case .identityCodingIncorrectlyPresent:
            return .transport("\(url.authority) sent a response whose framing headers contradict each other")
        case .writeTimeout:
            return .timeout(.total, after: timeout)
        case .uncleanShutdown:
            return .connectionClosed("\(url.authority) ended TLS without closing it properly")
        case .getConnectionFromPoolTimeout:
            return .timeout(.connect, after: configuration.connectTimeout)
        default:
            if "\(error)".contains("invalidHeaderField") {
                return .invalidRequest("a header has a name or value that HTTP does not allow (a control character?)")
            }
            return .transport("request to \(url.authority) failed: \(error)")
        }
    }

    /// Why a handshake failed when the server wanted a client certificate and got none.
    static let clientCertificateRequired = "the server asks for a client certificate, and none was given"
    /// Why a handshake failed when the server did not accept the client certificate.
    static let clientCertificateRefused = "the server refused the client certificate (not issued by a CA it trusts)"

    static func tlsReason(_ description: String) -> String {
        if description.contains("CERTIFICATE_VERIFY_FAILED") || description.contains("certificate verify failed") {
            return "certificate not trusted (self-signed or unknown issuer); use insecure mode or a CA file to proceed"
        }
        if description.contains("failedToValidateHostname") || description.contains("hostname") {
            return "certificate does not match the host name"
        }
        if description.contains("WRONG_VERSION_NUMBER") {
            return "the server did not answer with TLS (is it plain http?)"
        }
        if description.contains("CERTIFICATE_REQUIRED") {
            return Self.clientCertificateRequired
        }
        if description.contains("ALERT_UNKNOWN_CA") || description.contains("ALERT_BAD_CERTIFICATE")
            || description.contains("ALERT_CERTIFICATE_UNKNOWN")
        {
            return Self.clientCertificateRefused
        }
        return description
    }
}

extension NetworkError {
    /// A failure of the connection itself as a ``NetworkError``, under any protocol on it.
    ///
    /// Connecting, name resolution, TLS and a reset are named with the host and what to do. The
    /// HTTP transport and the WebSocket client both start from it.
    ///
    /// - Parameters:
    ///   - error: What was thrown.
    ///   - url: Where the connection went.
    ///   - port: The port it went to (the URL's, or its scheme's default).
    ///   - inner: Maps the error of the first connection attempt that failed for another reason
    ///     than a refusal (a TLS failure while connecting, say).
    /// - Returns: The failure, or `nil` for an error of the protocol itself.
    static func socket(
        _ error: any Error, url: RequestURL, port: Int, inner: (any Error) -> NetworkError
    ) -> NetworkError? {
        switch error {
        case let error as NetworkError:
            return error
        case is CancellationError:
            return .cancelled(after: nil)
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return .dnsFailure(host: error.host)
            }
            if let first = error.connectionErrors.first?.error {
                // The address that refused, which is the proxy's when one is in use.
                if let io = first as? IOError, io.errnoCode == ECONNREFUSED {
                    return .connectionRefused(host: error.host, port: error.port)
                }
                return inner(first)
            }
            return .connectionRefused(host: error.host, port: error.port)
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return .connectionRefused(host: url.host, port: port)
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE:
            return .connectionClosed("\(url.authority) reset the connection")
        case is SocketAddressError:
            return .dnsFailure(host: url.host)
        case let error as NIOSSLError:
            return .tls(host: url.host, reason: AsyncHTTPClientTransport.tlsReason(String(describing: error)))
        case let error as NIOSSLExtraError:
            return .tls(host: url.host, reason: AsyncHTTPClientTransport.tlsReason(String(describing: error)))
        default:
            return nil
        }
    }
}
