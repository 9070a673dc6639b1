/// Percent-encoding as URLs and forms need it ([RFC 3986 §2.1](https://www.rfc-editor.org/rfc/rfc3986#section-2.1)).
enum PercentEncoding {
    /// Which bytes pass through unencoded.
    enum Component {
        /// Query names and values: only unreserved characters pass; space is `%20`.
        case queryItem
        /// `application/x-www-form-urlencoded`: unreserved characters pass; space is `+`.
        case form
        /// A path: `pchar` and `/` pass; an existing `%XX` escape is kept.
        case path
        /// A query string written by a person: everything legal in a query passes; `%XX` is kept.
        case rawQuery
        /// Unreserved characters and `/` pass, and every `%` is escaped again: the path AWS
        /// Signature Version 4 signs for services but S3.
        case encodedPath
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            true
        default: false
        }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    /// Whether a valid `%XX` escape starts at `index`.
    static func isEscape(_ bytes: [UInt8], at index: Int) -> Bool {
        bytes[index] == UInt8(ascii: "%") && index + 2 < bytes.count && isHexDigit(bytes[index + 1])
            && isHexDigit(bytes[index + 2])
    }

    /// Whether `byte` stands for itself in `component` (a `%` is handled by the caller).
    static func passes(_ byte: UInt8, _ component: Component) -> Bool {
        switch component {
        case .queryItem:
            isUnreserved(byte)
        case .form:
            isUnreserved(byte) || byte == UInt8(ascii: "*")
        case .path:
            isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
                || byte == UInt8(ascii: "/")
        case .rawQuery:
            isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
        case .encodedPath:
            isUnreserved(byte) || byte == UInt8(ascii: "/")
        }
    }

    static func encode(_ string: String, as component: Component) -> String {
        // Most paths and values need no escaping: return them without copying.
        if string.utf8.allSatisfy({ passes($0, component) }) { return string }
        let bytes = Array(string.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let passes = Self.passes(byte, component)
            let keepsEscape = (component == .path || component == .rawQuery) && isEscape(bytes, at: index)
            if passes || keepsEscape {
                out.append(byte)
            } else if component == .form && byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusIsSpace`); invalid escapes stay as written.
    static func decode(_ string: String, plusIsSpace: Bool = false) -> String {
        let bytes = Array(string.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isEscape(bytes, at: index),
                let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                out.append(value)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
