import Foundation

/// The one sanitiser between text from outside and the terminal.
///
/// A server's body, headers and status text, a description's titles, a pasted line, a file name:
/// any of them can hold control characters that drive a terminal (set its title, move the
/// cursor, hide text). Every text renderer ends in ``finish(_:)``, which shows each control
/// character — C0 but tab and line feed, DEL, C1 — as a visible symbol (`␛` for ESC, `␇` for BEL,
/// `␀` for NUL, `\x9b` for a C1 character), and turns Fathom's own color codes into escapes.
///
/// Fathom's colors are not escapes until then: ``Palette`` writes them with an introducer no
/// outside text can forge (private-use characters around a token drawn when the process
/// starts), so only they survive ``finish(_:)`` as escapes. A body the person asked to see as it is
/// (`decoder raw`) is wrapped by ``verbatim(_:)`` and passes untouched.
public enum TerminalText {
    /// Drawn once per process: outside text cannot contain it without knowing it.
    private static let token: String = {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return String((0..<12).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
    }()

    /// What stands for ESC in rendered text until ``finish(_:)``.
    static let escape = "\u{E000}" + token + "\u{E001}"
    private static let verbatimStart = "\u{E002}" + token + "\u{E003}"
    private static let verbatimEnd = "\u{E004}" + token + "\u{E005}"

    /// An SGR sequence (`1;31`) as rendered text holds it.
    static func sgr(_ code: String) -> String { escape + "[" + code + "m" }

    /// Colors painted by FathomJSON (its JSON escapes every control character in a string, so its
    /// only escapes are its own colors) as Fathom's own.
    static func adopting(_ colored: String) -> String {
        colored.contains("\u{1B}[") ? colored.replacingOccurrences(of: "\u{1B}[", with: escape + "[") : colored
    }

    /// Text the person asked to see exactly as it is: ``finish(_:)`` leaves it alone.
    static func verbatim(_ text: String) -> String { verbatimStart + text + verbatimEnd }

    /// Rendered text as the terminal gets it: control characters from outside made visible,
    /// Fathom's colors made escapes, verbatim parts as they are.
    public static func finish(_ text: String) -> String {
        guard needsWork(text) else { return text }
        let scalars = text.unicodeScalars
        var result = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch scalar.value {
            case 0xE000 where scalars[index...].starts(with: escape.unicodeScalars):
                result.append("\u{1B}")
                index = scalars.index(index, offsetBy: escape.unicodeScalars.count)
                continue
            case 0xE002 where scalars[index...].starts(with: verbatimStart.unicodeScalars):
                // As it is, to its end.
                var inside = scalars.index(index, offsetBy: verbatimStart.unicodeScalars.count)
                while inside < scalars.endIndex {
                    if scalars[inside].value == 0xE004, scalars[inside...].starts(with: verbatimEnd.unicodeScalars) {
                        break
                    }
                    result.append(scalars[inside])
                    inside = scalars.index(after: inside)
                }
                index =
                    inside < scalars.endIndex
                    ? scalars.index(inside, offsetBy: verbatimEnd.unicodeScalars.count) : scalars.endIndex
                continue
            default:
                appendVisible(scalar, to: &result)
            }
            index = scalars.index(after: index)
        }
        return String(result)
    }

    /// Outside text on its own, with nothing of Fathom's in it: its control characters visible.
    public static func visible<S: StringProtocol>(_ text: S) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { appendVisible(scalar, to: &result) }
        return String(result)
    }

    /// Whether `text` holds anything ``finish(_:)`` changes: a byte below 0x20 other than tab and
    /// line feed, DEL, a C1 character, or a marker. One pass over the bytes.
    private static func needsWork(_ text: String) -> Bool {
        var afterC2 = false
        var afterEE = 0
        for byte in text.utf8 {
            if byte < 0x20, byte != 0x09, byte != 0x0A { return true }
            if byte == 0x7F { return true }
            if afterC2, (0x80...0x9F).contains(byte) { return true }
            afterC2 = byte == 0xC2
            // U+E000…U+E005 are EE 80 80…85.
            if afterEE == 2, (0x80...0x85).contains(byte) { return true }
            afterEE = byte == 0xEE ? 1 : (afterEE == 1 && byte == 0x80 ? 2 : 0)
        }
        return false
    }

    private static func appendVisible(_ scalar: Unicode.Scalar, to result: inout String.UnicodeScalarView) {
        switch scalar.value {
        case 0x09, 0x0A: result.append(scalar)
        case 0x00..<0x20: result.append(Unicode.Scalar(0x2400 + scalar.value)!)
        case 0x7F: result.append("\u{2421}")
        case 0x80...0x9F: result.append(contentsOf: ("\\x" + String(scalar.value, radix: 16)).unicodeScalars)
        default: result.append(scalar)
        }
    }
}
