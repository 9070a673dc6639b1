@_spi(Fathom) import FathomHTTP

/// The one place a failure becomes text: one line, with where it happened (`FILE:LINE`), the
/// column where a line went wrong, and what to do about it. Not masked here: the caller masks.
struct ErrorRenderer: Sendable {
    /// `a.fathom:3: error at column 9: unknown decoder option 'jsn' — did you mean 'json'?`
    func line(_ failure: Failure) -> String {
        (failure.location.map { "\($0): " } ?? "") + message(failure.reason, advice: failure.advice)
    }

    /// The reason as a sentence; `advice`, when given, in place of a network error's own.
    func message(_ reason: Failure.Reason, advice: String? = nil) -> String {
        Self.clipped(unclipped(reason, advice: advice))
    }

    private func unclipped(_ reason: Failure.Reason, advice: String?) -> String {
        switch reason {
        case .command(let error):
            return error.description
        case .network(let error):
            return "error: \(error)" + ((advice ?? Self.advice(for: error)).map { " — \($0)" } ?? "")
        case .cancelled(let after):
            return after.map { "cancelled after \($0.shortDescription)" } ?? "cancelled"
        case .loadFailed(let path, let failed, let lines):
            return "loaded \(path): \(failed) of \(lines) lines failed"
        case .wireLogOff(let reason):
            return "warning: \(reason) — the wire log is off"
        case .sessionFile(let problem):
            return "error: \(problem.description)"
        case .other(let text):
            return "error: \(text)"
        }
    }

    /// The longest run of quoted text shown in a message: a word quoted from a pasted megabyte
    /// shows as its start and its length, not the megabyte.
    static let quotedLimit = 60

    /// `message` with each quoted run (`'…'`) longer than ``quotedLimit`` cut to its start.
    static func clipped(_ message: String) -> String {
        guard message.utf8.count > quotedLimit * 2 else { return message }
        var result = ""
        var rest = message[...]
        while let open = rest.firstIndex(of: "'") {
            result += rest[...open]
            let inside = rest[rest.index(after: open)...]
            guard let close = inside.firstIndex(of: "'") else {
                rest = inside
                break
            }
            let quoted = inside[..<close]
            if quoted.count > quotedLimit {
                result += quoted.prefix(quotedLimit) + "…' (\(quoted.count) characters)"
            } else {
                result += quoted + "'"
            }
            rest = inside[inside.index(after: close)...]
        }
        return longWordsCut(result + rest)
    }

    /// The longest run without a blank an error shows whole: past it, input that reached the
    /// message unquoted (a version, an option) is cut as quoted input is.
    static let wordLimit = 120

    /// A value from outside shown whole up to ``wordLimit`` characters, else its start and its length.
    static func cut(_ text: String) -> String {
        text.count > wordLimit ? text.prefix(quotedLimit) + "… (\(text.count) characters)" : text
    }

    /// `message` with each run of more than ``wordLimit`` characters without a blank cut.
    static func longWordsCut(_ message: String) -> String {
        guard message.utf8.count > wordLimit else { return message }
        var result = ""
        var word = Substring()
        var rest = message[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(where: { $0 == " " || $0 == "\n" }) ?? rest.endIndex
            word = rest[..<end]
            result += cut(String(word))
            guard end < rest.endIndex else { break }
            result.append(rest[end])
            rest = rest[rest.index(after: end)...]
        }
        return result
    }

    /// A round duration well past `duration` (twice it, rounded up to whole seconds, at least
    /// 10 s): what a timeout's hint suggests.
    static func longer(than duration: Duration) -> Duration {
        .seconds(max(10, Int((duration.seconds * 2).rounded(.up))))
    }

    /// What a person can do at the prompt about a network error, where there is something.
    static func advice(for error: NetworkError) -> String? {
        switch error {
        case .tls: "use `insecure on` to proceed"
        case .timeout(.total, let after), .timeout(.read, let after):
            "allow more with `timeout \(DurationText.word(Self.longer(than: after)))`"
        case .tooManyRedirects: "change the limit with `redirects N`"
        case .noMock: "add one with `mock PATH @FILE`, or `mock off`"
        default: nil
        }
    }
}

extension Importer.Note: CustomStringConvertible {
    /// What could not be imported, as a clause after `not imported: `.
    public var description: String {
        switch self {
        case .script(let kind, let scope): "the \(kind) script of \(scope) cannot run in Fathom and was skipped"
        case .auth(let type, let scope):
            "\(type) auth of \(scope) is not imported: Fathom speaks basic, bearer, API keys and OAuth2 client credentials"
        case .header(let name, let scope):
            "the header '\(name)' of \(scope) has a name no request can carry and was left out"
        case .method(let name, let scope):
            "the request \(scope) has a method no request can carry ('\(name)') and was left out"
        }
    }
}
