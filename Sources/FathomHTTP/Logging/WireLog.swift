import Foundation
import Logging

/// Logs each exchange that reaches the transport, masked, through swift-log.
///
/// Messages are fixed (`request`, `response`, `request failed`); data travels in metadata. Nothing
/// is logged when no logger is configured or the detail is ``LogDetail/off``.
struct WireLog {
    let logger: Logger
    let detail: LogDetail
    let redactor: Redactor
    static let bodyLimit = 64 * 1024

    func logRequest(_ request: PreparedRequest) {
        guard detail > .off else { return }
        var metadata = requestMetadata(method: request.method, url: request.url, headers: request.headers)
        if detail >= .body, let body = request.body {
            switch body {
            case .bytes(let data): metadata["body"] = .string(text(data))
            case .file(let path, let length): metadata["body"] = .string("<file \(path), \(length) bytes>")
            case .pieces(let pieces, _):
                // The text of the form as it goes; each file by its name and size, never read here.
                metadata["body"] = .string(
                    pieces.map { piece in
                        switch piece {
                        case .bytes(let data): text(data)
                        case .file(let path, let length, _): "<file \(path), \(length) bytes>"
                        }
                    }.joined())
            }
        }
        logger.info("request", metadata: metadata)
    }

    func logResponse(_ response: NetworkResponse<Data>) {
        guard detail > .off else { return }
        var metadata: Logger.Metadata = [
            "method": .string(response.request.method.rawValue),
            "url": .string(redactor.redact(response.request.url)),
            "status": .stringConvertible(response.status.code),
            "version": .string(response.httpVersion),
            "ttfb_ms": .stringConvertible(Int(response.timing.firstByte.seconds * 1000)),
            "total_ms": .stringConvertible(Int(response.timing.total.seconds * 1000)),
            "bytes": .stringConvertible(response.body.count),
        ]
        if detail >= .headers {
            metadata["headers"] = headers(response.headers)
        }
        if detail >= .body, !response.body.isEmpty {
            metadata["body"] = .string(text(response.body))
        }
        logger.info("response", metadata: metadata)
    }

    func logFailure(_ request: PreparedRequest, error: NetworkError) {
        logFailure(method: request.method, url: request.url, error: error)
    }

    func logFailure(method: HTTPMethod, url: RequestURL, error: NetworkError) {
        guard detail > .off else { return }
        logger.info(
            "request failed",
            metadata: [
                "method": .string(method.rawValue),
                "url": .string(redactor.redact(url)),
                "error": .string(redactor.redact(error.description)),
            ])
    }

    /// A WebSocket's upgrade request (`request`, with `upgrade: websocket`), as the request it is.
    func logUpgrade(url: RequestURL, headers: NetworkHeaders) {
        guard detail > .off else { return }
        var metadata = requestMetadata(method: .get, url: url, headers: headers)
        metadata["upgrade"] = "websocket"
        logger.info("request", metadata: metadata)
    }

    /// A WebSocket's end: who closed it, with which code.
    func logClose(url: RequestURL, _ close: WebSocketClose) {
        guard detail > .off else { return }
        var metadata: Logger.Metadata = [
            "url": .string(redactor.redact(url)), "by": .string("\(close.initiator)"),
        ]
        if let code = close.code { metadata["code"] = .stringConvertible(code) }
        if let error = close.error { metadata["error"] = .string(redactor.redact(error)) }
        logger.info("websocket closed", metadata: metadata)
    }

    private func requestMetadata(method: HTTPMethod, url: RequestURL, headers: NetworkHeaders) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "method": .string(method.rawValue),
            "url": .string(redactor.redact(url)),
        ]
        if detail >= .headers {
            metadata["headers"] = self.headers(headers)
        }
        return metadata
    }

    private func headers(_ headers: NetworkHeaders) -> Logger.MetadataValue {
        .array(redactor.redact(headers).map { .string("\($0.name.rawName): \($0.value)") })
    }

    /// Masked, then cut: a secret that straddles the cut is masked whole, never half-shown.
    private func text(_ data: Data) -> String {
        let masked = redactor.redact(bytes: data)
        guard masked.count > Self.bodyLimit else { return String(decoding: masked, as: UTF8.self) }
        // Cut between characters: back off past UTF-8 continuation bytes (a mask is multi-byte).
        var end = masked.startIndex + Self.bodyLimit
        while end > masked.startIndex, masked[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: masked[..<end], as: UTF8.self) + "… (\(data.count) bytes)"
    }
}
