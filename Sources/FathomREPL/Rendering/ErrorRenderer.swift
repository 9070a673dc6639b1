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
            return Self.line(error)
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

    /// A line's error: `error at column 9: unknown decoder option 'jsn' — did you mean 'json'?`.
    static func line(_ error: CommandError) -> String {
        var text = error.column.map { "error at column \($0): " } ?? "error: "
        text += sentence(error.problem)
        if let advice = error.advice { text += " — \(advice)" }
        return text
    }

    /// What went wrong, as a sentence.
    static func sentence(_ problem: CommandError.Problem) -> String {
        switch problem {
        case .unknown(let kind, let word, _): "unknown \(kind) '\(word)'"
        case .notFound(let kind, let name, _): "no \(kind) '\(name)'"
        case .unexpected(let word): "unexpected '\(word)'"
        case .missing(let what): "missing \(what)"
        case .invalid(let kind, let value): "invalid \(kind) '\(value)'"
        case .unterminatedQuote(let kind): "unterminated \(kind.map { "\($0) " } ?? "")quote"
        case .unknownVariable(let name, _): "unknown variable '\(name)'"
        case .noValue(let secret, let typed, _):
            typed ? "no value was typed for '\(secret)'" : "secret '\(secret)' has no value"
        case .notSent(let problems):
            "not sent: " + problems.prefix(notSentShown).joined(separator: "; ")
                + (problems.count > notSentShown ? "; and \(problems.count - notSentShown) more" : "")
        case .cannotRead(let path, let reason): "cannot read '\(path)'" + (reason.map { ": \($0)" } ?? "")
        case .cannotWrite(let path, let reason): "cannot write to \(path): \(reason)"
        case .noResponse: "no response yet"
        case .stated(let text): text
        }
    }

    /// How many of a refused request's problems the sentence lists before counting the rest.
    static let notSentShown = 20

    /// What to do about a line's error: a close word first, then the hint the place it happened
    /// gave, then what the problem suggests by itself.
    static func advice(for error: CommandError) -> String? {
        switch error.problem {
        case .unknown(_, _, let suggestion?), .notFound(_, _, let suggestion?), .unknownVariable(_, let suggestion?):
            "did you mean '\(suggestion)'?"
        default: error.hint ?? advice(for: error.problem)
        }
    }

    /// What a problem suggests by itself.
    static func advice(for problem: CommandError.Problem) -> String? {
        switch problem {
        case .noValue(let secret, true, _):
            "type it at the prompt, or set \(DotEnv.secretKey(for: secret)) or add it to .env"
        case .noValue(let secret, false, let canBeAsked):
            "set \(DotEnv.secretKey(for: secret)), add it to .env"
                + (canBeAsked ? ", or run on a terminal to be asked" : "")
        case .noResponse: "send a request first"
        default: nil
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
        case .tls where error.isAboutTheClientCertificate: "give the API one with `cert FILE --key FILE`"
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
