/// Media types Fathom needs to name or recognise.
public enum MediaType {
    /// `application/json`.
    public static let json = "application/json"
    /// `application/problem+json` ([RFC 9457](https://www.rfc-editor.org/rfc/rfc9457)).
    public static let problemJSON = "application/problem+json"
    /// `application/x-www-form-urlencoded`.
    public static let form = "application/x-www-form-urlencoded"
    /// `application/octet-stream`.
    public static let octetStream = "application/octet-stream"
    /// `text/plain; charset=utf-8`.
    public static let plainText = "text/plain; charset=utf-8"

    /// A media type for a file name by its extension; `application/octet-stream` when unknown.
    @_spi(Fathom) public static func guess(forPath path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "json": return json
        // Streams, so that a recorded stream answers as one (`mock /events @events.sse`).
        case "ndjson", "jsonl": return "application/x-ndjson"
        case "sse": return "text/event-stream"
        case "json-seq": return "application/json-seq"
        case "txt", "text": return "text/plain"
        case "html", "htm": return "text/html"
        case "csv": return "text/csv"
        case "xml": return "application/xml"
        case "yaml", "yml": return "application/yaml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "pdf": return "application/pdf"
        case "zip": return "application/zip"
        case "gz": return "application/gzip"
        default: return octetStream
        }
    }

    /// Whether a `Content-Type` value names JSON (`application/json`, `application/problem+json`, `…+json`).
    @_spi(Fathom) public static func isJSON(_ contentType: String?) -> Bool {
        guard let essence = contentType.map(Self.essence) else { return false }
        return essence == "application/json" || essence.hasSuffix("+json") || essence == "text/json"
    }

    /// The type and subtype of a `Content-Type` value, lower case, without parameters.
    @_spi(Fathom) public static func essence(_ contentType: String) -> String {
        let main = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
        return main.trimmingWhitespace().lowercased()
    }

    /// A parameter of a `Content-Type` value, such as `charset`; quotes removed.
    @_spi(Fathom) public static func parameter(_ name: String, in contentType: String) -> String? {
        for piece in contentType.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == name.lowercased() else { continue }
            var value = pair[1].trimmingWhitespace()
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }
}
