/// The one quoter: a word that Fathom's ``Tokenizer`` and bash both read back as the text it was
/// made from. Every command line Fathom writes (a command's ``Command/line``, a saved session, an
/// import) and every shell command it exports (curl, HTTPie) quotes through here.
///
/// - Plain when nothing in it is special: in a Fathom line anything but blanks, quotes and
///   backslashes (`get /users?page=2&per_page=5`); for bash, letters, digits and `-_./:=@%+,{}`
///   (a word that could be read as a brace expansion, a glob, a comment or a tilde is quoted). A
///   word that starts with `#`, or with `-` where a command reads that as an option, is quoted.
/// - `'…'` otherwise, an embedded `'` written `'\''` (both read that as one word); in a Fathom
///   line, text with a `'` and no `"` or `\` reads better as `"…"` (`"$.headers['X-Trace']"`).
/// - `$'…'` (ANSI-C quoting) when the text has a control character, which no line can carry as
///   it is: `\n`, `\t`, `\r`, `\e` and `\xHH`.
/// - With ``ExportSecrets``, a secret inside the text becomes `${FATHOM_SECRET_<NAME>}` in
///   double quotes, so the shell where the command runs supplies it: the value is never written.
enum Quoting {
    /// `text` as one word.
    ///
    /// - Parameters:
    ///   - literal: Quotes a word that starts with `-` or `#`, which a command reads as an option,
    ///     a removal or a response number unless it is quoted.
    ///   - shell: The word is for bash (an export), not a Fathom line.
    ///   - secrets: Secrets to write as environment references (exports to a shell).
    static func word(
        _ text: String, literal: Bool = false, shell: Bool = false, secrets: ExportSecrets? = nil
    )
        -> String
    {
        if let secrets, secrets.contains(in: text) {
            var result = ""
            for piece in secrets.pieces(text) {
                switch piece {
                case .secret(let variable): result += "${\(variable)}"
                case .text(let plain):
                    for character in plain {
                        if "$`\"\\".contains(character) { result.append("\\") }
                        result.append(character)
                    }
                }
            }
            return "\"\(result)\""
        }
        if shell ? isPlainForShell(text, literal: literal) : isPlain(text, literal: literal) { return text }
        if text.unicodeScalars.contains(where: isControl) { return ansiC(Array(text.utf8)) }
        if !shell, text.contains("'"), !text.contains("\""), !text.contains("\\") { return "\"\(text)\"" }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// Bytes that may not be UTF-8 (a body), for bash: as text when they are, else as `$'…'` with
    /// `\xHH` escapes.
    static func word(bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return word(text, shell: true) }
        return ansiC(bytes)
    }

    private static let safe: Set<Character> = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./:=@%+,{}")

    /// What Fathom's tokenizer reads as it is written.
    private static func isPlain(_ text: String, literal: Bool) -> Bool {
        guard let first = text.first, first != "#", !(literal && first == "-"), !text.contains("$'") else {
            return false
        }
        return !text.unicodeScalars.contains {
            $0 == " " || $0 == "'" || $0 == "\"" || $0 == "\\" || isControl($0) || $0 == "\u{A0}"
        }
    }

    /// What bash reads as it is written, with nothing expanded.
    private static func isPlainForShell(_ text: String, literal: Bool) -> Bool {
        guard let first = text.first, text.allSatisfy(safe.contains) else { return false }
        if literal, first == "-" { return false }
        // `{a,b}` and `{1..3}` are brace expansions to bash.
        if text.contains("{"), text.contains(",") || text.contains("..") { return false }
        return true
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

    private static func ansiC(_ bytes: [UInt8]) -> String {
        var result = "$'"
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\n"): result += "\\n"
            case UInt8(ascii: "\t"): result += "\\t"
            case UInt8(ascii: "\r"): result += "\\r"
            case 0x1B: result += "\\e"
            case UInt8(ascii: "'"): result += "\\'"
            case UInt8(ascii: "\\"): result += "\\\\"
            case 0x20..<0x7F: result.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x80...:
                // A whole UTF-8 sequence stays as it is; a stray byte is escaped.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = index - 1 + length
                if length > 1, end <= bytes.count,
                    let character = String(validating: bytes[(index - 1)..<end], as: UTF8.self)
                {
                    result += character
                    index = end
                } else {
                    result += hex(byte)
                }
            default: result += hex(byte)
            }
        }
        return result + "'"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
}
