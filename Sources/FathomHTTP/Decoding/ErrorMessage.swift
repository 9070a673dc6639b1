import Foundation

/// Finds the best human message in an error response body.
///
/// In order: problem details ([RFC 9457](https://www.rfc-editor.org/rfc/rfc9457)) `title` and
/// `detail`; `{"message": …}`; `{"error": "…"}` with `error_description` (OAuth 2); `{"error":
/// {"message": …}}`; `{"errors": ["…"]}` or `{"errors": [{"message": …}]}`; `{"detail": …}`; and
/// for a short text body its first line.
@_spi(Fathom) public enum ErrorMessage {
    /// The best message an error response's body holds (problem+json's `detail` or `title`, `message`,
    /// `error`, `errors`), or `nil` when it holds none.
    public static func extract(from response: NetworkResponse<Data>) -> String? {
        let body = response.body
        guard !body.isEmpty else { return nil }
        if let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) as? [String: Any] {
            return message(in: object)
        }
        let essence = response.contentType.map(MediaType.essence) ?? ""
        guard essence.hasPrefix("text/") || essence.isEmpty, !essence.contains("html") else { return nil }
        let text = String(decoding: body.prefix(2048), as: UTF8.self)
        guard let line = text.split(whereSeparator: \.isNewline).first?.trimmingWhitespace(), !line.isEmpty else {
            return nil
        }
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }

    static func message(in object: [String: Any]) -> String? {
        let title = (object["title"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        let detail = (object["detail"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        if let title, let detail { return title == detail ? title : "\(title): \(detail)" }
        if let message = object["message"] as? String { return message }
        if let error = object["error"] as? String {
            if let description = object["error_description"] as? String { return "\(error): \(description)" }
            return error
        }
        if let error = object["error"] as? [String: Any], let message = error["message"] as? String { return message }
        if let errors = object["errors"] as? [Any] {
            let messages = errors.compactMap { item -> String? in
                if let text = item as? String { return text }
                if let dictionary = item as? [String: Any] {
                    return (dictionary["message"] ?? dictionary["detail"] ?? dictionary["title"]) as? String
                }
                return nil
            }
            if !messages.isEmpty { return messages.joined(separator: "; ") }
        }
        return detail ?? title
    }
}
