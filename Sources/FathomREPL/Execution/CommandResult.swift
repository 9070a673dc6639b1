/// What running one command came to: an outcome and the outputs to show.
struct CommandResult: Sendable {
    var outcome: Executor.Outcome
    var outputs: [Output]
    /// Work the loop does after the command, outside the session that ran it (`replay` at the
    /// prompt runs files in fresh sessions).
    var followUp: FollowUp?

    init(_ outcome: Executor.Outcome = .succeeded, _ outputs: [Output] = [], followUp: FollowUp? = nil) {
        self.outcome = outcome
        self.outputs = outputs
        self.followUp = followUp
    }

    /// Succeeded, with nothing to show.
    static let done = CommandResult()

    /// Succeeded, showing `outputs`.
    static func shows(_ outputs: Output...) -> CommandResult { CommandResult(.succeeded, outputs) }

    /// The response the command received, if it sent a request and got one.
    var response: ResponseOutput? {
        for case .response(let output) in outputs { return output }
        return nil
    }

    /// Whether the line's request got an answer: a response, or a batch (whatever its requests
    /// got) — what `expect` and `let` read.
    var answered: Bool {
        outputs.contains {
            switch $0 {
            case .response, .batch: true
            default: false
            }
        }
    }

    /// Whether the line opened a WebSocket (`ws`): answered, with messages rather than a response.
    var openedWebSocket: Bool { openedConversation != nil }

    /// The number of the conversation the line opened (`ws`, a streaming `call`), if it opened one.
    var openedConversation: Int? {
        for output in outputs {
            switch output {
            case .webSocket(let output): if case .opened(_, let number) = output.kind { return number }
            case .grpcStream(let output): if case .opened(_, let number) = output.kind { return number }
            default: continue
            }
        }
        return nil
    }
}

/// Work a command hands back to the loop that ran it.
enum FollowUp: Sendable {
    /// Replay files in fresh sessions and report here, as `fathom replay` does.
    case replay(files: [String], compare: Bool, variables: [(name: String, value: String)])
    /// Run a session file's lines in this session, one by one, each shown as it runs (a long file
    /// never waits in memory for its end).
    case load(SessionFile)
    /// Read what is pasted next at the prompt and import it (`import curl -`).
    case paste(Importer.Format)
}
