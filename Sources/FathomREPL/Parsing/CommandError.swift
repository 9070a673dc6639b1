@_spi(Fathom) import FathomJSON

/// A line that cannot be run, with where it went wrong and what to do instead.
///
/// Rendered as one line in one place (``CommandError/description``):
/// `error at column 1: unknown command 'hedaer' — did you mean 'header'?`
struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    var message: String
    /// The 1-based column where the problem starts, when it lies in the line.
    var column: Int?
    /// What to do instead.
    var hint: String?
    /// The secret this error says has no value: the environment's fault, not the line's (a
    /// replay counts it as a runtime error, as a refused connection).
    var missingSecret: String?

    init(_ message: String, column: Int? = nil, hint: String? = nil) {
        self.message = message
        self.column = column
        self.hint = hint
    }

    var description: String {
        var text = column.map { "error at column \($0): " } ?? "error: "
        text += message
        if let hint { text += " — \(hint)" }
        return text
    }

    /// A secret with no value from the environment, `.env` or a prompt: names the exact variable to set.
    static func noValue(forSecret name: String, canBeAsked: Bool = true) -> CommandError {
        var error = CommandError(
            "secret '\(name)' has no value",
            hint: "set \(DotEnv.secretKey(for: name)), add it to .env"
                + (canBeAsked ? ", or run on a terminal to be asked" : ""))
        error.missingSecret = name
        return error
    }

    /// `validate strict` refused a request: every problem, up to 20, then how many more.
    static func notSent(_ problems: [String]) -> CommandError {
        let shown = problems.prefix(20)
        var message = "not sent: " + shown.joined(separator: "; ")
        if problems.count > shown.count { message += "; and \(problems.count - shown.count) more" }
        return CommandError(message, hint: "`validate warn` sends it anyway")
    }

    /// The hint for a misspelt word: the closest candidate, if one is close enough.
    static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        Spelling.closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }
}
