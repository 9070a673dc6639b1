import FathomJSON
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `format`s an API description means: a value that breaks one is a violation, with what the format expects.
///
/// Unknown formats pass (JSON Schema leaves them to the application).
enum SchemaFormats {
    /// A problem with a string's format, or `nil`.
    static func checkString(_ text: String, format: String) -> String? {
        let valid: Bool
        switch format {
        case "date-time": valid = isDateTime(text)
        case "date": valid = isDate(text)
        case "time": valid = isTime(text)
        case "email": valid = isEmail(text)
        case "uuid": valid = isUUID(text)
        case "uri", "url": valid = isURI(text)
        case "uri-reference": valid = !text.contains(where: { $0 == " " || $0 == "\\" })
        case "ipv4": valid = isIPv4(text)
        case "ipv6": valid = isIPv6(text)
        case "hostname": valid = isHostname(text)
        case "byte": valid = Data(base64Encoded: text) != nil
        case "regex": valid = (try? NSRegularExpression(pattern: ECMAPattern.icu(text))) != nil
        case "duration": valid = isDuration(text)
        case "json-pointer": valid = isJSONPointer(text)
        case "relative-json-pointer": valid = isRelativeJSONPointer(text)
        case "uri-template": valid = isURITemplate(text)
        default: return nil
        }
        return valid ? nil : "expected a valid \(format), got \(SchemaEvaluation.short(.string(text)))"
    }

    /// A problem with a number's format (OpenAPI's `int32`, `int64`, `float`, `double`), or `nil`.
    static func checkNumber(_ text: String, format: String) -> String? {
        let fits: Bool
        switch format {
        case "int32":
            fits =
                Int32(text) != nil
                || (SchemaEvaluation.isIntegral(text) && Double(text).map { abs($0) <= 2_147_483_647 } == true)
        case "int64":
            fits =
                Int64(text) != nil
                || (SchemaEvaluation.isIntegral(text) && Double(text).map { abs($0) < 0x1p63 } == true)
        default: return nil
        }
        return fits ? nil : "expected an \(format) integer, got \(text)"
    }

    // MARK: - RFC 3339

    private static func digits(_ scalars: ArraySlice<UInt8>) -> Int? {
        guard !scalars.isEmpty, scalars.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return scalars.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = digits(bytes[0..<4]), let month = digits(bytes[5..<7]), let day = digits(bytes[8..<10]),
            (1...12).contains(month), day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    static func isTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 9, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"),
            let hour = digits(bytes[0..<2]), let minute = digits(bytes[3..<5]), let second = digits(bytes[6..<8]),
            hour < 24, minute < 60, second <= 60
        else { return false }
        var rest = bytes[8...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let fraction = rest.prefix { $0 >= 48 && $0 <= 57 }
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(fraction.count)
        }
        guard let zone = rest.first else { return false }
        var offsetMinutes = 0
        switch zone {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard rest.count == 1 else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let offset = Array(rest.dropFirst())
            guard offset.count == 5, offset[2] == UInt8(ascii: ":"), let h = digits(offset[0..<2]),
                let m = digits(offset[3..<5]), h < 24, m < 60
            else { return false }
            offsetMinutes = (h * 60 + m) * (zone == UInt8(ascii: "+") ? 1 : -1)
        default: return false
        }
        // A leap second is only 23:59:60 in UTC.
        if second == 60 {
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    /// Whether `text` is an RFC 3339 `date-time`.
    ///
    /// Its grammar is `full-date "T" full-time`, the `T` in either case. The RFC's note that
    /// applications may use a space is not its grammar, and JSON Schema's format is the grammar.
    static func isDateTime(_ text: String) -> Bool {
        guard let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" }) else { return false }
        return isDate(String(text[..<separator])) && isTime(String(text[text.index(after: separator)...]))
    }

    // MARK: - Others

    static func isEmail(_ text: String) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty, !domain.contains(where: { $0.isWhitespace }) else { return false }
        // A quoted local part (RFC 5321) may hold spaces and dots as it likes.
        let quoted = local.count >= 2 && local.hasPrefix("\"") && local.hasSuffix("\"")
        guard
            quoted
                || (!local.hasPrefix(".") && !local.hasSuffix(".") && !local.contains("..")
                    && !local.contains(where: { $0.isWhitespace }))
        else { return false }
        if domain.hasPrefix("[") {
            // An address literal: `[192.0.2.1]` or `[IPv6:2001:db8::1]`.
            guard domain.hasSuffix("]") else { return false }
            let address = String(domain.dropFirst().dropLast())
            return address.lowercased().hasPrefix("ipv6:") ? isIPv6(String(address.dropFirst(5))) : isIPv4(address)
        }
        return isHostname(String(domain))
    }

    /// An ISO 8601 duration as RFC 3339's appendix A has it: `P3D`, `PT1H30M`, `P1Y2M`, `P4W`.
    static func isDuration(_ text: String) -> Bool {
        guard text.hasPrefix("P"), text.allSatisfy(\.isASCII) else { return false }
        let body = text.dropFirst()
        if body.hasSuffix("W") { return body.count > 1 && body.dropLast().allSatisfy(\.isNumber) }
        let parts = body.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        // Each part: numbers each followed by a unit; the units in order with none skipped after
        // the first (`P1Y2D` lacks its month, `PT1H5S` its minutes).
        func valid(_ part: Substring, units: [Character]) -> Bool {
            var next: Int?
            var digits = 0
            for character in part {
                if character.isNumber {
                    digits += 1
                    continue
                }
                guard digits > 0, let index = units.firstIndex(of: character), next == nil || index == next
                else { return false }
                next = index + 1
                digits = 0
            }
            return digits == 0
        }
        let date = parts[0]
        guard valid(date, units: ["Y", "M", "D"]) else { return false }
        if parts.count == 2 {
            return !parts[1].isEmpty && valid(parts[1], units: ["H", "M", "S"])
        }
        return !date.isEmpty
    }

    /// RFC 6901: empty, or `/`-led tokens where `~` is only `~0` or `~1`.
    static func isJSONPointer(_ text: String) -> Bool {
        guard text.isEmpty || text.hasPrefix("/") else { return false }
        var characters = text.makeIterator()
        while let character = characters.next() {
            if character == "~" {
                guard let next = characters.next(), next == "0" || next == "1" else { return false }
            }
        }
        return true
    }

    /// A relative JSON pointer: a non-negative integer (no leading zero), an optional `+N`/`-N`
    /// index adjustment, then `#` or a JSON pointer.
    static func isRelativeJSONPointer(_ text: String) -> Bool {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits == "0" || !digits.hasPrefix("0") else { return false }
        var rest = text.dropFirst(digits.count)
        if let sign = rest.first, sign == "+" || sign == "-" {
            let offset = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !offset.isEmpty, offset == "0" || !offset.hasPrefix("0") else { return false }
            rest = rest.dropFirst(1 + offset.count)
        }
        return rest == "#" || isJSONPointer(String(rest))
    }

    /// RFC 6570: braces paired, not nested, each holding variable names (an operator first);
    /// literals without spaces, controls or `"<>\^`|` (an apostrophe is allowed, as the RFC's
    /// errata have it).
    static func isURITemplate(_ text: String) -> Bool {
        var inside = false
        var expression = ""
        for character in text {
            if !inside, character != "{",
                character.isWhitespace || "\"<>\\^`|".contains(character)
                    || character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            {
                return false
            }
            switch (character, inside) {
            case ("{", false): inside = true
            case ("{", true), ("}", false): return false
            case ("}", true):
                var body = Substring(expression)
                if let first = body.first, "+#./;?&=,!@|".contains(first) { body = body.dropFirst() }
                let names = body.split(separator: ",", omittingEmptySubsequences: false)
                guard !names.isEmpty,
                    names.allSatisfy({ name in
                        var name = name
                        if name.hasSuffix("*") {
                            name = name.dropLast()
                        } else if let colon = name.firstIndex(of: ":") {
                            let length = name[name.index(after: colon)...]
                            guard !length.isEmpty, length.count <= 4, !length.hasPrefix("0"),
                                length.allSatisfy({ $0.isASCII && $0.isNumber })
                            else { return false }
                            name = name[..<colon]
                        }
                        // Names of letters, digits, `_` and escapes, joined by single dots.
                        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                            !part.isEmpty
                                && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "%" }
                        }
                    })
                else { return false }
                inside = false
                expression = ""
            case (_, true): expression.append(character)
            default: break
            }
        }
        return !inside
    }

    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte) else {
                    return false
                }
            }
        }
        return true
    }

    static func isURI(_ text: String) -> Bool {
        guard SchemaURI.hasScheme(text) else { return false }
        return !text.contains(where: { $0 == " " || $0 == "\\" || $0 == "<" || $0 == ">" || $0 == "\"" })
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                    let value = Int(part), value <= 255
                else { return false }
                return part == "0" || !part.hasPrefix("0")
            }
    }

    static func isIPv6(_ text: String) -> Bool {
        guard text.allSatisfy({ $0.isASCII }), !text.contains("%") else { return false }
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    static func isHostname(_ text: String) -> Bool {
        let name = text.hasSuffix(".") ? String(text.dropLast()) : text
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}

extension JSON {
    /// The text of a string value.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
