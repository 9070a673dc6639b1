import FathomHTTP
import Foundation

/// Writes a session log as a `.fathom` file that reproduces the session.
///
/// Settings first, then each request as the lines that built it, with its `expect` and `let` lines,
/// under a comment saying what it was. A secret never reaches the text: a secret variable's value
/// is replaced by `{{name}}`; a credential typed straight into a line (`auth bearer abc…`) gets a
/// name and a `secret NAME` line, so a replay asks for it or reads `FATHOM_SECRET_NAME`.
struct SessionWriter {
    let log: SessionLog
    let variables: Variables
    /// Every secret value the session knows (``Redactor/secretValues``).
    let secretValues: [String]
    let requestsOnly: Bool
    /// Variables the session was given from outside (`--demo`'s `demo`, `replay --var`): the
    /// replay command in the file's first line asks for those its lines use.
    var externalNames: [String] = []

    struct Output {
        var text: String
        /// Recorded responses with the line of their request in ``text``.
        var recordings: [Recording.Entry]
        /// Secrets that were typed into lines and are now asked for by these names.
        var namedSecrets: [String]
        var requests: Int
    }

    func write(fileName: String, redactor: Redactor) -> Output {
        let substitutions = secretSubstitutions()
        var out: [String] = ["# Fathom session. Replay it with: fathom replay \(replayOptions)\(fileName)"]
        if !substitutions.generated.isEmpty || !variables.secrets.isEmpty {
            out.append("# Secrets are asked for by name: FATHOM_SECRET_<NAME>, a .env file, or a prompt.")
        }
        if !requestsOnly {
            for name in substitutions.generated { out.append("secret \(name)") }
        }
        var recordings: [Recording.Entry] = []
        var requests = 0
        var blockOpen = false
        let lastRequest = log.lines.lastIndex { $0.kind == .request } ?? -1
        for (index, line) in log.lines.enumerated() {
            if line.kind == .setting, requestsOnly { continue }
            // Draft lines after the last request built nothing that was sent.
            if line.kind == .draft, index > lastRequest { continue }
            if line.kind == .draft || line.kind == .request, !blockOpen {
                let request = log.lines[index...].first { $0.kind == .request }
                out.append("")
                if let summary = request?.summary { out.append("# \(summary)") }
                blockOpen = true
            }
            out.append(substitute(line.text, substitutions.table))
            if line.kind == .request {
                requests += 1
                blockOpen = false
                if let recorded = line.recorded {
                    let lineNumber = out.count
                    recordings.append(
                        Recording.Entry(
                            request: requests, line: lineNumber, method: recorded.method, path: recorded.path,
                            status: recorded.status, contentType: recorded.contentType,
                            body: Recording.body(recorded.body, contentType: recorded.contentType, redactor: redactor)))
                }
            }
        }
        return Output(
            text: out.joined(separator: "\n") + "\n", recordings: recordings, namedSecrets: substitutions.generated,
            requests: requests)
    }

    /// `--demo ` and `--var NAME=… ` for the outside variables the lines use.
    var replayOptions: String {
        let used = externalNames.filter { name in log.lines.contains { $0.text.contains("{{\(name)}}") } }
        return used.map { $0 == "demo" ? "--demo " : "--var \($0)=… " }.joined()
    }

    /// Secret values and the `{{name}}` that replaces each, longest value first; and the names
    /// made up for secrets typed into lines.
    func secretSubstitutions() -> (table: [(String, String)], generated: [String]) {
        var table: [(String, String)] = []
        var known: Set<String> = []
        for name in variables.names where variables.isSecret(name) {
            guard let value = variables[name], !value.isEmpty, !known.contains(value) else { continue }
            table.append((value, "{{\(name)}}"))
            known.insert(value)
        }
        var generated: [String] = []
        var taken = Set(variables.names)
        for line in log.lines {
            for value in secretValues where !known.contains(value) && occurs(value, in: line.text) {
                let suggested = Self.suggestedName(for: line.text, value: value)
                var name = suggested
                var counter = 2
                while taken.contains(name) {
                    name = suggested + "\(counter)"
                    counter += 1
                }
                taken.insert(name)
                generated.append(name)
                table.append((value, "{{\(name)}}"))
                known.insert(value)
            }
        }
        table.sort { $0.0.count > $1.0.count }
        return (table, generated)
    }

    /// A name for a credential typed into `line`, after what the line does with it: the item or
    /// field that holds `value` (`password=…` → `password`), else the command's kind of credential.
    static func suggestedName(for line: String, value: String) -> String {
        if let name = fieldName(holding: value, in: line) { return name }
        return suggestedName(for: line)
    }

    /// The name of the `name=value` item, `name:=…`, `name==…` query item or `"name": "value"`
    /// JSON member whose value is `value`, made a variable name.
    static func fieldName(holding value: String, in line: String) -> String? {
        guard let range = line.range(of: value) else { return nil }
        let before = line[..<range.lowerBound]
        // `"name": "value"`: past the quote, the colon and the blanks to the key.
        if before.hasSuffix("\"") {
            let trimmed = before.dropLast().reversed().drop { $0 == " " || $0 == "\t" }
            guard trimmed.first == ":" else { return nil }
            let keyEnd = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }
            guard keyEnd.first == "\"" else { return nil }
            let key = keyEnd.dropFirst().prefix { $0 != "\"" }
            return variableName(String(key.reversed()))
        }
        for separator in [":=", "==", "="] where before.hasSuffix(separator) {
            let name = before.dropLast(separator.count).reversed().prefix {
                $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "."
            }
            return variableName(String(name.reversed()))
        }
        return nil
    }

    /// `client-secret` → `client_secret`; `nil` when nothing usable is left.
    private static func variableName(_ text: String) -> String? {
        let name = String(text.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        guard let first = name.first, first.isLetter || first == "_" else { return nil }
        return name
    }

    /// A name for a credential typed into `line`, after what the line does with it.
    static func suggestedName(for line: String) -> String {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        guard let command = words.first else { return "secret" }
        switch command {
        case "auth":
            switch words.dropFirst().first {
            case "bearer": return "token"
            case "basic": return "password"
            case "apikey": return "api_key"
            case "oauth2": return "client_secret"
            default: return "credential"
            }
        case "curl":
            if line.contains("--oauth2-bearer") { return "token" }
            return line.contains(" -u") || line.contains("--user") ? "password" : "secret"
        case "header", "default":
            let rest = line.drop { $0 != " " }.drop { $0 == " " }
            let afterHeader = command == "default" ? rest.drop { $0 != " " }.drop { $0 == " " } : rest
            let name = afterHeader.prefix { $0 != ":" }.lowercased()
                .map { $0.isLetter || $0.isNumber ? $0 : "_" }
            return name.isEmpty ? "credential" : String(name)
        default: return "secret"
        }
    }

    /// Whether `value` is in `text` as a whole (a short value only between non-alphanumerics, so
    /// that a one-letter secret does not replace letters of words).
    func occurs(_ value: String, in text: String) -> Bool {
        guard !value.isEmpty else { return false }
        if value.count >= 8 { return text.contains(value) }
        return boundedRanges(of: value, in: text).first != nil
    }

    func substitute(_ text: String, _ table: [(String, String)]) -> String {
        var result = text
        for (value, reference) in table where !value.isEmpty {
            if value.count >= 8 {
                result = result.replacingOccurrences(of: value, with: reference)
            } else {
                for range in boundedRanges(of: value, in: result).reversed() {
                    result.replaceSubrange(range, with: reference)
                }
            }
        }
        return result
    }

    private func boundedRanges(of value: String, in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var searchStart = text.startIndex
        while let range = text.range(of: value, range: searchStart..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before?.isLetter ?? false || before?.isNumber ?? false)
                && !(after?.isLetter ?? false || after?.isNumber ?? false)
            {
                ranges.append(range)
            }
            searchStart = range.upperBound
        }
        return ranges
    }
}
