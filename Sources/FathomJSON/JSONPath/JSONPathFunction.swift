import Foundation

/// The function extensions of RFC 9535 §2.4, with their declared types.
enum JSONPathFunction: String, Hashable, Sendable {
    case length, count, match, search, value

    /// The types of RFC 9535 §2.4.1.
    enum ParameterType {
        case value, nodes, logical
    }

    var parameters: [ParameterType] {
        switch self {
        case .length: [.value]
        case .count: [.nodes]
        case .match, .search: [.value, .value]
        case .value: [.nodes]
        }
    }

    var result: ParameterType {
        switch self {
        case .length, .count, .value: .value
        case .match, .search: .logical
        }
    }
}

/// I-Regexp ([RFC 9485](https://www.rfc-editor.org/rfc/rfc9485)) on top of Swift Regex.
enum IRegexp {
    /// Translates an I-Regexp into Swift Regex syntax: `.` matches any character but CR and LF.
    /// `^` and `$` stay anchors, as RFC 9485 §5 maps them and the compliance suite expects. Returns
    /// `nil` for a pattern I-Regexp does not allow.
    static func translate(_ pattern: String) -> String? {
        var out = ""
        var inClass = false
        var iterator = pattern.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar {
            case "\\":
                guard let next = iterator.next() else { return nil }
                // Multi-character escapes beyond \p/\P are not I-Regexp.
                guard "\\.?*+{}()[]|^$-nrtpP".unicodeScalars.contains(next) else { return nil }
                out.unicodeScalars.append("\\")
                out.unicodeScalars.append(next)
            case "[" where !inClass:
                inClass = true
                out += "["
            case "]" where inClass:
                inClass = false
                out += "]"
            case "." where !inClass:
                out += "[^\\n\\r]"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return inClass ? nil : out
    }

    /// Compiles patterns once per query evaluation.
    struct Cache {
        private var compiled: [String: Regex<AnyRegexOutput>?] = [:]

        mutating func regex(_ pattern: String) -> Regex<AnyRegexOutput>? {
            if let cached = compiled[pattern] { return cached }
            let regex = translate(pattern).flatMap { try? Regex($0) }?.matchingSemantics(.unicodeScalar)
            compiled[pattern] = regex
            return regex
        }
    }
}
