import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTPCompression
import NIOPosix
import NIOSSL

extension AsyncHTTPClientTransport {
    /// Maps AsyncHTTPClient, NIO and TLS errors to ``NetworkError`` with the host, the limit or the reason.
    func map(_ error: any Error, url: RequestURL, timeout: Duration) -> NetworkError {
        switch error {
        case let error as NetworkError:
            return error
        case is CancellationError:
            return .cancelled(after: nil)
        case let error as HTTPClientError:
            return map(error, url: url, timeout: timeout)
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return .dnsFailure(host: error.host)
            }
            if let inner = error.connectionErrors.first?.error {
                // The address that refused, which is the proxy's when one is in use.
                if let io = inner as? IOError, io.errnoCode == ECONNREFUSED {
                    return .connectionRefused(host: error.host, port: error.port)
                }
                return map(inner, url: url, timeout: timeout)
            }
            return .connectionRefused(host: error.host, port: error.port)
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return .connectionRefused(host: url.host, port: url.effectivePort)
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE:
            return .connectionClosed("connection reset by \(url.authority)")
        case is SocketAddressError:
            return .dnsFailure(host: url.host)
        case let error as NIOSSLError:
            return .tls(host: url.host, reason: Self.tlsReason(String(describing: error)))
        case let error as NIOSSLExtraError:
            return .tls(host: url.host, reason: Self.tlsReason(String(describing: error)))
        case let error as NIOHTTPDecompression.DecompressionError:
            if error == .limit { return .bodyTooLarge(limit: configuration.maxBodySize, decompressed: true) }
            return .transport("cannot decompress the response body from \(url.authority) (\(error))")
        case is NIOTooManyBytesError:
            return .bodyTooLarge(limit: configuration.maxBodySize, decompressed: false)
        case ChannelError.connectTimeout:
            return .timeout(.connect, after: configuration.connectTimeout)
        case ChannelError.ioOnClosedChannel, ChannelError.eof:
            return .connectionClosed("\(url.authority) closed the connection")
        default:
            return .transport("request to \(url.authority) failed: \(error)")
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
        default:
            return .transport("request to \(url.authority) failed: \(error)")
        }
    }

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
        return description
    }
}
