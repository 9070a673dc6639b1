@_spi(Fathom) import FathomJSON

/// A line that cannot be run, as a value: the domain it failed in, what went wrong with the
/// values it names, where in the line, and what to do instead.
///
/// The sentence is made in one place, ``ErrorRenderer``:
/// `error at column 1: unknown command 'hedaer' — did you mean 'header'?`. `--output json`
/// carries the same failure as fields (`domain`, `problem`, `word`, `suggestion`, …), so nothing
/// reads a sentence back apart.
struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where a failure belongs: what a script or a report groups failures by.
    enum Domain: String, Sendable, CaseIterable {
        /// The line as written: a word, a quote, a value out of range.
        case parse
        /// What the session holds or lacks: no response yet, no description, an open WebSocket.
        case session
        /// A file named by the line: unreadable, too large, not what it claims.
        case file
        /// Something on the way to or from a server, found by Fathom rather than the client.
        case network
        /// A check: `expect`, a description's refusal of a request.
        case expectation
        /// A replay's own inputs.
        case replay
    }

    /// What went wrong, with what it names. ``stated(_:)`` is a sentence said where it happened,
    /// for what has only one place that says it.
    enum Problem: Equatable, Sendable {
        /// A word that is none of those allowed here (`kind`: "command", "env action", …), with the
        /// closest allowed word when one is close.
        case unknown(kind: String, word: String, suggestion: String?)
        /// A name (`kind`: "variable", "environment", "operation", …) the session has nothing by,
        /// with the closest name it has when one is close.
        case notFound(kind: String, name: String, suggestion: String?)
        /// A word where the line should have ended.
        case unexpected(word: String)
        /// Something the line needs and does not have ("a JSONPath", "file name after '@'").
        case missing(String)
        /// A value of a kind ("duration", "method") that is not one.
        case invalid(kind: String, value: String)
        /// A quote (`kind`: "single", "double", "$'…'", or nil for any) that never closes.
        case unterminatedQuote(kind: String?)
        /// `{{name}}` with no variable of that name.
        case unknownVariable(name: String, suggestion: String?)
        /// A secret with no value: from the environment, `.env`, or (`typed`) a prompt.
        case noValue(secret: String, typed: Bool, canBeAsked: Bool)
        /// `validate strict` refused the request for these problems.
        case notSent(problems: [String])
        /// A file that could not be read (`reason` when the system said one).
        case cannotRead(path: String, reason: String?)
        /// A file that could not be written.
        case cannotWrite(path: String, reason: String)
        /// A command that reads the last response, before there is one.
        case noResponse
        /// A failure said where it happened.
        case stated(String)
    }

    var domain: Domain
    var problem: Problem
    /// The 1-based column where the problem starts, when it lies in the line.
    var column: Int?
    /// What to do instead, where the place it happened knows (else the renderer's advice).
    var hint: String?

    init(_ domain: Domain, _ problem: Problem, column: Int? = nil, hint: String? = nil) {
        self.domain = domain
        self.problem = problem
        self.column = column
        self.hint = hint
    }

    init(_ domain: Domain, _ message: String, column: Int? = nil, hint: String? = nil) {
        self.init(domain, .stated(message), column: column, hint: hint)
    }

    /// What is wrong, as the renderer says it.
    var message: String { ErrorRenderer.sentence(problem) }

    /// What to do: a close word, else the hint given, else what the problem itself suggests.
    var advice: String? { ErrorRenderer.advice(for: self) }

    var description: String { ErrorRenderer.line(self) }

    /// The secret this error says has no value: the environment's fault, not the line's (a
    /// replay counts it as a runtime error, as a refused connection).
    var missingSecret: String? {
        if case .noValue(let secret, _, _) = problem { secret } else { nil }
    }

    /// A secret with no value from the environment, `.env` or a prompt: names the exact variable to set.
    static func noValue(forSecret name: String, canBeAsked: Bool = true) -> CommandError {
        CommandError(.session, .noValue(secret: name, typed: false, canBeAsked: canBeAsked))
    }

    /// `validate strict` refused a request: every problem.
    static func notSent(_ problems: [String]) -> CommandError {
        CommandError(.expectation, .notSent(problems: problems), hint: "`validate warn` sends it anyway")
    }
}
