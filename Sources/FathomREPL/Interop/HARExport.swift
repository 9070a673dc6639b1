@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// The session's responses, with the requests behind them, as a HAR 1.2 log
/// (http://www.softwareishard.com/blog/har-12-spec/), masked like everything Fathom writes:
/// secret headers, secret query values, every known secret in URLs and bodies (binary bodies
/// masked before they are encoded as base64).
struct HARExport {
    let redactor: Redactor

    func document(_ entries: [ResponseHistory.Entry]) -> JSON {
        .object([
            .init(
                key: "log",
                value: .object([
                    .init(key: "version", value: .string("1.2")),
                    .init(
                        key: "creator",
                        value: .object([
                            .init(key: "name", value: .string("fathom")), .init(key: "version", value: .string("0.2")),
                        ])),
                    .init(key: "entries", value: .array(entries.map(entry))),
                ]))
        ])
    }

    private func entry(_ entry: ResponseHistory.Entry) -> JSON {
        let response = entry.response
        let request = response.request
        let total = milliseconds(response.timing.total)
        let wait = milliseconds(response.timing.firstByte)
        // When it was answered, as the server said; else now.
        let date = response.headers[NetworkHeaders.Name("Date")].flatMap(Self.httpDate) ?? Date()
        var requestMembers: [JSON.Member] = [
            .init(key: "method", value: .string(request.method.rawValue)),
            .init(key: "url", value: .string(redactor.redact(request.url))),
            .init(key: "httpVersion", value: .string("HTTP/1.1")),
            .init(key: "cookies", value: .array([])),
            .init(key: "headers", value: headers(request.headers)),
            .init(key: "queryString", value: query(request.url)),
            .init(key: "headersSize", value: .number("-1")),
        ]
        switch request.body {
        case .bytes(let data)?:
            requestMembers.append(.init(key: "bodySize", value: .number(String(data.count))))
            requestMembers.append(
                .init(
                    key: "postData",
                    value: .object([
                        .init(key: "mimeType", value: .string(request.headers[.contentType] ?? "")),
                        .init(key: "text", value: .string(redactor.redact(body: data))),
                    ])))
        case .file(_, let length)?, .pieces(_, let length)?:
            // Streamed from files: its size, never its bytes read into the export.
            requestMembers.append(.init(key: "bodySize", value: .number(String(length))))
        case nil:
            requestMembers.append(.init(key: "bodySize", value: .number("0")))
        }
        var content: [JSON.Member] = [
            .init(key: "size", value: .number(String(response.body.count))),
            .init(key: "mimeType", value: .string(response.contentType ?? "")),
        ]
        if !response.body.isEmpty {
            if let text = String(data: response.body, encoding: .utf8), BodyText.looksLikeText(text) {
                content.append(.init(key: "text", value: .string(redactor.redact(text))))
            } else {
                content.append(
                    .init(key: "text", value: .string(redactor.redact(bytes: response.body).base64EncodedString())))
                content.append(.init(key: "encoding", value: .string("base64")))
            }
        }
        return .object([
            .init(key: "startedDateTime", value: .string(date.formatted(.iso8601))),
            .init(key: "time", value: .number(total)),
            .init(key: "request", value: .object(requestMembers)),
            .init(
                key: "response",
                value: .object([
                    .init(key: "status", value: .number(String(response.status.code))),
                    .init(key: "statusText", value: .string(response.status.reasonPhrase)),
                    .init(key: "httpVersion", value: .string(response.httpVersion)),
                    .init(key: "cookies", value: .array([])),
                    .init(key: "headers", value: headers(response.headers)),
                    .init(key: "content", value: .object(content)),
                    .init(key: "redirectURL", value: .string(response.headers[.location] ?? "")),
                    .init(key: "headersSize", value: .number("-1")),
                    .init(key: "bodySize", value: .number(String(response.body.count))),
                ])),
            .init(key: "cache", value: .object([])),
            .init(
                key: "timings",
                value: .object([
                    .init(key: "send", value: .number("0")), .init(key: "wait", value: .number(wait)),
                    .init(
                        key: "receive",
                        value: .number(String(format: "%.3f", max(0, (Double(total) ?? 0) - (Double(wait) ?? 0))))),
                ])),
        ])
    }

    private func headers(_ headers: NetworkHeaders) -> JSON {
        .array(
            redactor.redact(headers).map {
                .object([
                    .init(key: "name", value: .string($0.name.rawName)), .init(key: "value", value: .string($0.value)),
                ])
            })
    }

    /// The query items of the URL as it is shown (secret values masked).
    private func query(_ url: RequestURL) -> JSON {
        guard let shown = try? RequestURL(parsing: redactor.redact(url)), let query = shown.query, !query.isEmpty else {
            return .array([])
        }
        return .array(
            query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (text: Substring) in (String(text).removingPercentEncoding ?? String(text)) }
                return .object([
                    .init(key: "name", value: .string(decode(parts[0]))),
                    .init(key: "value", value: .string(parts.count > 1 ? decode(parts[1]) : "")),
                ])
            })
    }

    private func milliseconds(_ duration: Duration) -> String {
        String(format: "%.3f", duration.milliseconds)
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
