/// A failure found while reading input: what and at which byte.
struct LexError: Error {
    let reason: String
    let offset: Int
}

/// Byte-level reading of JSON tokens over a buffer, shared by the tree parser and the streaming
/// printer. A struct with a cursor; no bounds-checked indexing in the hot loops.
struct JSONLexer {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    /// Replace invalid UTF-8 in strings with U+FFFD instead of failing.
    let lenient: Bool

    init(_ bytes: UnsafeBufferPointer<UInt8>, lenient: Bool) {
        self.bytes = bytes
        self.lenient = lenient
        // A UTF-8 byte order mark is not part of the document.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        } else {
            index = 0
        }
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// The byte at the cursor, or 0 at the end (0 is never valid JSON outside a string).
    var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func error(_ reason: String, at offset: Int? = nil) -> LexError {
        LexError(reason: reason, offset: offset ?? index)
    }

    /// A readable name for the byte at the cursor.
    var currentDescription: String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    // MARK: Literals and numbers

    /// Consumes `true`, `false` or `null`.
    mutating func literal(_ word: StaticString) throws(LexError) {
        let count = word.utf8CodeUnitCount
        let start = index
        guard index + count <= bytes.count else { throw error("expected '\(word)'", at: start) }
        let expected = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != expected[offset] {
            throw error("expected '\(word)'", at: start)
        }
        index += count
    }

    /// Consumes a number ([RFC 8259 §6](https://www.rfc-editor.org/rfc/rfc8259#section-6)) and returns its range.
    mutating func number() throws(LexError) -> Range<Int> {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        switch current {
        case UInt8(ascii: "0"):
            index += 1
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            index += 1
            skipDigits()
        default:
            throw error("expected a digit in number")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard isDigit(current) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw error("expected a digit in exponent") }
            skipDigits()
        }
        return start..<index
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    // MARK: Strings

    /// Whether any of the eight bytes in `word` is a quote, a backslash, a control character, DEL
    /// or non-ASCII (SWAR: "Bit Twiddling Hacks", determine if a word has a byte less than n / equal to n).
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = hasZero(word ^ (ones &* 0x22))
        let backslash = hasZero(word ^ (ones &* 0x5C))
        let delete = hasZero(word ^ (ones &* 0x7F))
        return (control | quote | backslash | delete | (word & highs)) != 0
    }

    /// Consumes a string that jq would print exactly as written — no escapes, no control or DEL
    /// characters, valid UTF-8 — and returns its range with the quotes. Returns `nil`, consuming
    /// nothing, for any other string.
    mutating func plainString() -> Range<Int>? {
        let start = index
        var cursor = index + 1
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while cursor < bytes.count {
            // Eight bytes at a time while none of them needs a closer look.
            while cursor + 8 <= bytes.count,
                !Self.needsAttention(base.loadUnaligned(fromByteOffset: cursor, as: UInt64.self))
            {
                cursor += 8
            }
            guard cursor < bytes.count else { break }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") {
                index = cursor + 1
                return start..<index
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") || byte == 0x7F { return nil }
            if byte < 0x80 {
                cursor += 1
            } else {
                let length = Self.validSequenceLength(bytes, at: cursor)
                if length == 0 { return nil }
                cursor += length
            }
        }
        return nil
    }

    /// Consumes a string starting at its opening quote and puts its decoded UTF-8 in `out`.
    mutating func string(into out: inout [UInt8]) throws(LexError) {
        let start = index
        index += 1
        out.removeAll(keepingCapacity: true)
        while true {
            // Copy a run of plain ASCII in one go.
            let runStart = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte >= 0x80 { break }
                index += 1
            }
            if index > runStart {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                try escape(into: &out)
            case 0..<0x20:
                throw error(String(format: "control character U+%04X in string (it must be escaped)", byte))
            default:
                try utf8Sequence(into: &out)
            }
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws(LexError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw error("unterminated escape", at: start) }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(at: start)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate needs a low one next; alone it becomes U+FFFD.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let save = index
                    index += 2
                    let low = try hex4(at: save)
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = save
                        scalar = 0xFFFD
                    }
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00...0xDFFF).contains(scalar) {
                scalar = 0xFFFD
            }
            Self.appendUTF8(scalar, to: &out)
        default:
            throw error("invalid escape '\\\(Character(UnicodeScalar(code)))' in string", at: start)
        }
    }

    private mutating func hex4(at escapeStart: Int) throws(LexError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Copies one well-formed UTF-8 sequence, or handles an ill-formed one as configured.
    private mutating func utf8Sequence(into out: inout [UInt8]) throws(LexError) {
        let length = Self.validSequenceLength(bytes, at: index)
        if length > 0 {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
            index += length
        } else if lenient {
            out.append(contentsOf: [0xEF, 0xBF, 0xBD])
            index += 1
        } else {
            throw error("invalid UTF-8 in string")
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index` (Unicode Table 3-7), or 0.
    static func validSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let count = bytes.count
        let b0 = bytes[index]
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < count && range.contains(bytes[index + offset])
        }
        switch b0 {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
