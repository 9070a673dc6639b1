@_spi(Fathom) import FathomHTTP
import Foundation

/// Writes a session log as a `.fathom` file that reproduces the session: each logged command's
/// line (``Command/line``), settings in the order they were set, each request under a comment
/// saying what it was, with its `expect` and `let` lines.
///
/// A secret never reaches the text: a secret variable's value is replaced by `{{name}}`; a
/// credential typed straight into a line (`auth bearer abc…`) gets a name from the command that
/// holds it (``Command/credentialName(for:)``: `token`, `password`, `authorization`) and a
/// `secret NAME` line — only for values a line still holds once the longer ones are replaced —
/// so a replay asks for exactly what it uses. A URL on the origin a variable holds (`{{demo}}`) is
/// written through that variable, so a saved demo session replays on any port.
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
        var recording: Recording
        /// Secrets that were typed into lines and are now asked for by these names.
        var namedSecrets: [String]
        var requests: Int
    }

    func write(fileName: String, redactor: Redactor) -> Output {
        let lines = log.lines.filter { !(requestsOnly && $0.kind == .setting) }
        let (texts, generated, _) = substitutedLines(lines)
        var out: [String] = ["# Fathom session. Replay it with: fathom replay \(replayOptions(texts))\(fileName)"]
        if !generated.isEmpty || !variables.secrets.isEmpty {
            out.append("# Secrets are asked for by name: FATHOM_SECRET_<NAME>, a .env file, or a prompt.")
        }
        if !requestsOnly {
            for name in generated { out.append(SecretCommand(name: name, value: nil).line) }
        }
        var recording = Recording(session: fileName)
        var identities = RequestIdentities()
        var requests = 0
        var blockOpen = false
        let lastRequest = lines.lastIndex { $0.kind == .request } ?? -1
        for (index, line) in lines.enumerated() {
            // Draft lines after the last request built nothing that was sent.
            if line.kind == .draft, index > lastRequest { continue }
            if line.kind == .draft || line.kind == .request, !blockOpen {
                let request = lines[index...].first { $0.kind == .request }
                out.append("")
                if let summary = request?.summary { out.append("# \(summary)") }
                blockOpen = true
            }
            out.append(texts[index])
            if line.kind == .request {
                requests += 1
                blockOpen = false
                if let recorded = line.recorded?.response {
                    // The request's line: the last line of its text.
                    let lineNumber = out.joined(separator: "\n").split(
                        separator: "\n", omittingEmptySubsequences: false
                    )
                    .count
                    var identity = identities.next(method: recorded.method, target: recorded.target)
                    identity.target = redactor.redact(identity.target)
                    recording.entries.append(
                        recording.entry(
                            recorded, identity: identity, position: requests, line: lineNumber, redactor: redactor))
                }
            }
        }
        return Output(
            text: out.joined(separator: "\n") + "\n", recording: recording, namedSecrets: generated,
            requests: requests)
    }

    /// `--demo ` and `--var NAME=… ` for the outside variables the lines use.
    func replayOptions(_ texts: [String]) -> String {
        let used = externalNames.filter { name in texts.contains { $0.contains("{{\(name)}}") } }
        return used.map { $0 == "demo" ? "--demo " : "--var \($0)=… " }.joined()
    }

    /// Each line's text with secrets as `{{references}}` and URLs through the variables that
    /// hold their origins; and the names made up for secrets typed into lines, in the order
    /// they were first used.
    func substitutedLines(
        _ lines: [SessionLog.Line]
    ) -> (texts: [String], generated: [String], names: [(value: String, name: String)]) {
        // Secret variables by value, longest first: a longer secret that holds a shorter one goes first.
        var known: [(value: String, reference: String)] = []
        for name in variables.names where variables.isSecret(name) {
            guard let value = variables[name], !value.isEmpty, !known.contains(where: { $0.value == value }) else {
                continue
            }
            known.append((value, "{{\(name)}}"))
        }
        var taken = Set(variables.names)
        var generated: [String] = []
        // Every secret, longest first: a longer one that holds a shorter one is replaced whole.
        let values = (known.map(\.value) + secretValues).reduce(into: [String]()) { all, value in
            if !value.isEmpty, !all.contains(value) { all.append(value) }
        }.sorted { $0.count > $1.count }
        let origins = originVariables()
        let texts = lines.map { line -> String in
            var text = line.text
            for value in values where occurs(value, in: text) {
                if let existing = known.first(where: { $0.value == value }) {
                    text = substitute(value, with: existing.reference, in: text)
                    continue
                }
                // Named after what holds it.
                let suggested =
                    line.command.credentialName(for: value) ?? Self.fieldName(holding: value, in: text) ?? "secret"
                let base = SecretNames.variableName(suggested)
                var name = base
                var counter = 2
                while taken.contains(name) {
                    name = base + "\(counter)"
                    counter += 1
                }
                taken.insert(name)
                generated.append(name)
                known.append((value, "{{\(name)}}"))
                text = substitute(value, with: "{{\(name)}}", in: text)
            }
            for (origin, reference) in origins { text = Self.replacingOrigin(origin, with: reference, in: text) }
            return text
        }
        return (texts, generated, known.map { ($0.value, String($0.reference.dropFirst(2).dropLast(2))) })
    }

    /// Non-secret variables whose value is a URL's origin (`demo` = `http://127.0.0.1:43589`).
    private func originVariables() -> [(origin: String, reference: String)] {
        variables.names.compactMap { name in
            guard !variables.isSecret(name), let value = variables[name], value.contains("://"),
                let url = try? RequestURL(parsing: value), url.path == "/" || url.path.isEmpty,
                url.query == nil,
                value.trimmingCharacters(in: CharacterSet(charactersIn: "/")).count
                    == "\(url.scheme)://\(url.authority)".count
            else { return nil }
            return ("\(url.scheme)://\(url.authority)", "{{\(name)}}")
        }
    }

    /// `text` with `origin` written as `reference` where it starts a URL: followed by `/`, `?`,
    /// a quote, a blank or the end (so `http://127.0.0.1:80` is not `http://127.0.0.1:8080`).
    static func replacingOrigin(_ origin: String, with reference: String, in text: String) -> String {
        guard text.contains(origin) else { return text }
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: origin) {
            let after = rest[range.upperBound...].first
            result += rest[..<range.lowerBound]
            if after == nil || "/?'\" \t\n#".contains(after!) {
                result += reference
            } else {
                result += rest[range]
            }
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// The name of the `name=value` item, `name:=…`, `name==…` query item or `"name": "value"`
    /// JSON member whose value is `value` in a line: a credential typed inside a URL or a body.
    static func fieldName(holding value: String, in line: String) -> String? {
        if let member = jsonMemberName(holding: value, in: line) { return member }
        guard let range = line.range(of: value) else { return nil }
        let before = line[..<range.lowerBound]
        for separator in [":=", "==", "="] where before.hasSuffix(separator) {
            let name = before.dropLast(separator.count).reversed().prefix {
                $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "."
            }
            guard !name.isEmpty else { return nil }
            return String(name.reversed())
        }
        return nil
    }

    /// The name of the `"name": "value"` JSON member whose value holds `value`.
    static func jsonMemberName(holding value: String, in text: String) -> String? {
        guard let range = text.range(of: value) else { return nil }
        let before = text[..<range.lowerBound]
        // `"name": "value"`: past the quote, the colon and the blanks to the key.
        guard before.hasSuffix("\"") else { return nil }
        let trimmed = before.dropLast().reversed().drop { $0 == " " || $0 == "\t" }
        guard trimmed.first == ":" else { return nil }
        let keyEnd = trimmed.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard keyEnd.first == "\"" else { return nil }
        return String(keyEnd.dropFirst().prefix { $0 != "\"" }.reversed())
    }

    /// Whether `value` is in `text` as a whole (a short value only between non-alphanumerics, so
    /// that a one-letter secret does not replace letters of words).
    func occurs(_ value: String, in text: String) -> Bool {
        guard !value.isEmpty else { return false }
        if value.count >= 8 { return text.contains(value) }
        return boundedRanges(of: value, in: text).first != nil
    }

    func substitute(_ value: String, with reference: String, in text: String) -> String {
        guard !value.isEmpty else { return text }
        if value.count >= 8 { return text.replacingOccurrences(of: value, with: reference) }
        var result = text
        for range in boundedRanges(of: value, in: result).reversed() {
            result.replaceSubrange(range, with: reference)
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
