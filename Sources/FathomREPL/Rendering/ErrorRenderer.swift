@_spi(Fathom) import FathomHTTP

/// The one place a failure becomes text: one line, with where it happened (`FILE:LINE`), the
/// column where a line went wrong, and what to do about it. Not masked here: the caller masks.
struct ErrorRenderer: Sendable {
    /// `a.fathom:3: error at column 9: unknown decoder option 'jsn' — did you mean 'json'?`
    func line(_ failure: Failure) -> String {
        (failure.location.map { "\($0): " } ?? "") + message(failure.reason)
    }

    func message(_ reason: Failure.Reason) -> String {
        switch reason {
        case .command(let error):
            return error.description
        case .network(let error):
            return "error: \(error)" + (Self.advice(for: error).map { " — \($0)" } ?? "")
        case .cancelled(let after):
            return after.map { "cancelled after \($0.shortDescription)" } ?? "cancelled"
        case .summary(let text):
            return text
        case .other(let text):
            return "error: \(text)"
        }
    }

    /// What a person can do at the prompt about a network error, where there is something.
    static func advice(for error: NetworkError) -> String? {
        switch error {
        case .tls: "use `insecure on` to proceed"
        case .timeout(.total, _), .timeout(.read, _): "allow more with `timeout 30s`"
        case .tooManyRedirects: "change the limit with `redirects N`"
        case .noMock: "add one with `mock PATH @FILE`, or `mock off`"
        default: nil
        }
    }
}
