import FathomTestSupport

@testable import FathomREPL

/// A console that keeps what the executor writes, for tests.
final class BufferConsole: Console {
    private let output = Locked("")
    private let errors = Locked("")
    /// Everything written to either stream, in order.
    private let combined = Locked("")
    let secretAnswer: String?

    init(secretAnswer: String? = nil) {
        self.secretAnswer = secretAnswer
    }

    var isInteractive: Bool { false }
    var stdout: String { output.value }
    var stderr: String { errors.value }
    var transcript: String { combined.value }

    func write(_ text: String) {
        output.withLock { $0 += text }
        combined.withLock { $0 += text }
    }

    /// Adds the script's own line to the transcript only: it is input, not something Fathom printed.
    func echo(_ text: String) {
        combined.withLock { $0 += text }
    }

    func writeError(_ text: String) {
        errors.withLock { $0 += text }
        combined.withLock { $0 += text }
    }

    func readSecret(prompt: String) async -> String? { secretAnswer }

    /// Someone answers when the test gave an answer.
    var canAskForSecrets: Bool { secretAnswer != nil }
}
