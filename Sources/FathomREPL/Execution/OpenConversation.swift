/// A conversation a line opened and later lines talk on — a WebSocket (`ws`), a gRPC client or
/// bidirectional stream (`call`). At most one is open (``SessionRecord/conversation``); `send`,
/// `expect message`, `close` and Ctrl-D reach it, whatever its protocol, and the prompt becomes
/// its sub-prompt. A protocol with conversations adds one of these (ARCHITECTURE.md, "Adding a
/// protocol"), not its own copy of those lines.
protocol OpenConversation: AnyObject, Sendable {
    /// What the sub-prompt shows: `ws 127.0.0.1:8080/ws> `.
    var prompt: ConversationPrompt { get }
    /// Why lines can no longer talk on it — "the WebSocket to ws://…/ws was closed by the server
    /// (1001)" — or `nil` while it is open.
    var ended: String? { get }
    /// What it is, to name it in a sentence: "a WebSocket to ws://…/ws".
    var described: String { get }
    /// How another is opened, for the errors of lines that find none open.
    var opener: String { get }

    /// Sends the message a `send` line wrote.
    func send(_ message: MessageSpec, in executor: isolated Executor) async throws -> CommandResult
    /// `close [CODE [REASON]]`: ends this side, and says how it ended.
    func close(_ line: CloseCommand, in executor: isolated Executor) async throws -> CommandResult
    /// `close` once the other side ended it: what the line shows instead of an error, or `nil`
    /// for the error (a WebSocket's).
    func closeAfterEnd(_ line: CloseCommand, in executor: isolated Executor) throws -> CommandResult?
    /// `expect message EXPR OP VALUE`: waits up to `wait` for a message that matches.
    func expectMessage(
        _ written: String, _ expectation: Expectation, variables: Variables, wait: Duration
    ) async throws -> CommandResult
    /// Ends it without a line: a script's or a replayed file's end, the end of the prompt.
    func end() async
}

extension OpenConversation {
    func closeAfterEnd(_ line: CloseCommand, in executor: isolated Executor) throws -> CommandResult? { nil }
}

/// The sub-prompt of an open conversation: its protocol's word and where it goes.
struct ConversationPrompt: Equatable, Sendable {
    /// `ws`, `grpc`.
    var word: String
    /// `127.0.0.1:8080/ws`, `Todos/Chat` (masked).
    var target: String
}

/// A message as a `send` line writes it: text (variables expanded when sent) or a file's content.
enum MessageSpec: Equatable, Sendable {
    case text(String)
    /// Read when sent.
    case file(String)
}
