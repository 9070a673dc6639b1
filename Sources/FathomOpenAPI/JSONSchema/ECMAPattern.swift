/// A JSON Schema `pattern` (ECMA-262) as an ICU regular expression with the same meaning.
///
/// ICU is close to ECMA-262 but reads a few things another way: its `\d`, `\w` are Unicode-wide
/// where ECMA's are ASCII (`^\d+$` must not match "߀߀"), its `\s` leaves out U+FEFF and U+000B,
/// and it refuses `[]` (nothing) and `[^]` (anything). Those are rewritten; the rest is passed as
/// written.
enum ECMAPattern {
    static func icu(_ pattern: String) -> String {
        var result = ""
        var inClass = false
        var characters = pattern[...]
        while let character = characters.popFirst() {
            if character == "\\", let next = characters.popFirst() {
                result += escape(next, inClass: inClass)
                continue
            }
            if !inClass, character == "[" {
                if characters.hasPrefix("]") {
                    characters.removeFirst()
                    result += "(?!)"
                    continue
                }
                if characters.hasPrefix("^]") {
                    characters.removeFirst(2)
                    result += "[\\s\\S]"
                    continue
                }
                inClass = true
                result.append(character)
                // A `]` first in a class is a literal in ICU too, but ECMA ends the class there;
                // the empty classes are taken above, so `[^` goes on as written.
                if characters.hasPrefix("^") { result.append(characters.removeFirst()) }
                continue
            }
            if inClass, character == "]" { inClass = false }
            result.append(character)
        }
        return result
    }

    private static let digit = "0-9"
    private static let word = "A-Za-z0-9_"
    private static let space = "\\s\\x{0B}\\x{FEFF}"

    /// `\x` in ECMA's sense: the class escapes as ASCII (digits, word) or with ECMA's spaces.
    private static func escape(_ letter: Character, inClass: Bool) -> String {
        let set: String
        var negated = false
        switch letter {
        case "d": set = digit
        case "D": (set, negated) = (digit, true)
        case "w": set = word
        case "W": (set, negated) = (word, true)
        case "s": set = space
        case "S": (set, negated) = (space, true)
        default: return "\\" + String(letter)
        }
        if inClass { return negated ? "[^\(set)]" : set }
        return negated ? "[^\(set)]" : "[\(set)]"
    }
}
