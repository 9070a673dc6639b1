@_spi(Fathom) import FathomHTTP
import Foundation

/// What a body is: JSON, text in its charset, or bytes.
enum BodyText {
    /// The body decoded with its charset (UTF-8 unless it says otherwise).
    static func decode(_ body: Data, contentType: String?) -> String? {
        let charset = contentType.flatMap { MediaType.parameter("charset", in: $0) }?.lowercased() ?? "utf-8"
        let encoding: String.Encoding =
            switch charset {
            case "iso-8859-1", "latin1", "latin-1", "iso8859-1": .isoLatin1
            case "us-ascii", "ascii": .ascii
            case "utf-16": .utf16
            case "utf-16le": .utf16LittleEndian
            case "utf-16be": .utf16BigEndian
            case "windows-1252", "cp1252": .windowsCP1252
            default: .utf8
            }
        return String(data: body, encoding: encoding)
    }

    static func startsLikeJSON(_ body: Data) -> Bool {
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    static func isTextual(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let essence = MediaType.essence(contentType)
        return essence.hasPrefix("text/") || essence.hasSuffix("xml") || essence.hasSuffix("javascript")
            || essence == MediaType.form || MediaType.parameter("charset", in: contentType) != nil
    }

    /// Valid text with no control characters other than tab and line breaks.
    static func looksLikeText(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }
    }
}
