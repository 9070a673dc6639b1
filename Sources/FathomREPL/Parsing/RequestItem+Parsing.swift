extension RequestItem {
    /// The kinds of item, for error messages and for restricting where each is allowed.
    enum Kind: CaseIterable, Sendable {
        case header, query, field, rawJSON, file

        var form: String {
            switch self {
            case .header: "Name:Value"
            case .query: "name==value"
            case .field: "name=value"
            case .rawJSON: "name:=json"
            case .file: "name@file"
            }
        }
    }

    var kind: Kind {
        switch self {
        case .header, .removeHeader: .header
        case .query: .query
        case .field: .field
        case .rawJSON: .rawJSON
        case .file: .file
        }
    }

    /// Separators by precedence at the same position: the longest wins (`:=` over `:`, `==` over `=`).
    private static let separators = [":=", "==", "=", "@", ":"]

    /// Parses an item as HTTPie does: the earliest separator in the word decides its kind.
    init?(parsing text: String) {
        var best: (range: Range<String.Index>, separator: String)?
        for separator in Self.separators {
            guard let range = text.range(of: separator) else { continue }
            if best == nil || range.lowerBound < best!.range.lowerBound {
                best = (range, separator)
            }
        }
        guard let best, best.range.lowerBound != text.startIndex else { return nil }
        let name = String(text[..<best.range.lowerBound])
        let value = String(text[best.range.upperBound...])
        switch best.separator {
        case ":=": self = .rawJSON(name: name, json: value)
        case "==": self = .query(name: name, value: value)
        case "=": self = .field(name: name, value: value)
        case "@":
            guard !value.isEmpty else { return nil }
            self = .file(name: name, path: value)
        default: self = value.isEmpty ? .removeHeader(name) : .header(name: name, value: value.trimmingLeadingBlanks)
        }
    }

    /// Whether a one-liner's first word is its path or URL rather than an item.
    static func looksLikeTarget(_ word: Word) -> Bool {
        let text = word.text
        if text.hasPrefix("/") || text.hasPrefix(".") || text.hasPrefix("{{") || text.contains("://") { return true }
        return RequestItem(parsing: text) == nil
    }
}

extension StringProtocol {
    var trimmingLeadingBlanks: String { String(drop { $0 == " " || $0 == "\t" }) }
}
