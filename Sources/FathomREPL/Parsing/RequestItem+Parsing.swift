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
    /// What a backslash takes as a character in a name.
    static let escapable: Set<Character> = [":", "=", "@", "\\"]

    /// A name as an item writes it: a separator character in it after a backslash.
    static func escaped(_ name: String) -> String {
        guard name.contains(where: escapable.contains) else { return name }
        var result = ""
        for character in name {
            if escapable.contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// Parses an item as HTTPie does: the earliest separator in the word decides its kind, and a
    /// backslash before `:`, `=`, `@` or `\\` in the name takes it as a character (`pass\@word=x`).
    init?(parsing text: String) {
        var name = ""
        var index = text.startIndex
        var found: (separator: String, end: String.Index)?
        scan: while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "\\", next < text.endIndex, Self.escapable.contains(text[next]) {
                name.append(text[next])
                index = text.index(after: next)
                continue
            }
            for separator in Self.separators where text[index...].hasPrefix(separator) {
                found = (separator, text.index(index, offsetBy: separator.count))
                break scan
            }
            name.append(character)
            index = next
        }
        guard let found, !name.isEmpty else { return nil }
        let value = String(text[found.end...])
        switch found.separator {
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
        if hostShorthand(text) != nil { return true }
        return RequestItem(parsing: text) == nil
    }

    /// A URL written without its scheme, as HTTPie reads one: `:3000/users` and `:/users` are
    /// localhost, `localhost:8765/uuid`, `127.0.0.1/x`, `api.example.com/v1` and `host:8080` get
    /// `http://`. `nil` for anything else (a relative path, an item): `users.json` alone is a path.
    static func hostShorthand(_ text: String) -> String? {
        if text.hasPrefix(":") {
            let rest = text.dropFirst()
            let port = rest.prefix { $0.isASCII && $0.isNumber }
            let after = rest.dropFirst(port.count)
            guard after.isEmpty || after.hasPrefix("/") || after.hasPrefix("?") else { return nil }
            return "http://localhost" + (port.isEmpty ? "" : ":" + port) + after
        }
        let authorityEnd = text.firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
        let authority = text[..<authorityEnd]
        var host = authority
        var port: Substring?
        if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
            guard let port, !port.isEmpty, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
        else { return nil }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let isLocalhost = host.lowercased() == "localhost"
        let isAddress = labels.count == 4 && labels.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        let isDomain =
            labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
            && (labels.last.map { $0.count >= 2 && $0.allSatisfy(\.isLetter) } ?? false)
        // A dotted name alone (`users.json`) is a path; with a port or a path after it, a host.
        guard isLocalhost || isAddress || (isDomain && (port != nil || authorityEnd != text.endIndex)) else {
            return nil
        }
        return "http://" + text
    }
}

extension StringProtocol {
    var trimmingLeadingBlanks: String { String(drop { $0 == " " || $0 == "\t" }) }
}
