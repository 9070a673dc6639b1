/// The lines that talk on the open conversation, whatever its protocol (``OpenConversation``):
/// `send MESSAGE`, `expect message`, `close`, and its end with the script or the prompt.
extension Executor {
    /// How long `expect message` waits without a `timeout`.
    static let defaultMessageWait = Duration.seconds(10)

    /// Sends a message on the open conversation.
    func sendMessage(_ message: MessageSpec) async throws -> CommandResult {
        try await openConversation().send(message, in: self)
    }

    /// `close [CODE [REASON]]` on the open conversation.
    func closeConversation(_ line: CloseCommand) async throws -> CommandResult {
        if let conversation = record.conversation, conversation.ended != nil,
            let result = try conversation.closeAfterEnd(line, in: self)
        {
            return result
        }
        return try await openConversation().close(line, in: self)
    }

    /// `expect message …`: waits for a message that matches, from the one after the last matched
    /// — on the last conversation, open or ended (what came before it ended is still read).
    func expectMessage(_ expectation: Expectation) async throws -> CommandResult {
        guard let conversation = record.conversation else {
            throw CommandError(
                .session, "no conversation has been opened",
                hint: "open one with `ws PATH`, or `call METHOD` for a gRPC stream")
        }
        guard case .value(let written) = expectation.subject else {
            throw CommandError(.session, "expect message takes EXPR OP VALUE")
        }
        let wait = options.requestTimeout ?? session.settings.timeout ?? Self.defaultMessageWait
        return try await conversation.expectMessage(written, expectation, variables: session.variables, wait: wait)
    }

    /// Ends the open conversation, if any, without a line: a script's or a replayed file's end,
    /// the end of the prompt.
    public func endConversation() async {
        guard let conversation = record.conversation, conversation.ended == nil else { return }
        await conversation.end()
        feeds.snapshot.setConversation(nil)
        archiveNewExchanges()
    }

    /// The open conversation, or the error a line that talks on one gives when none is.
    func openConversation() throws -> any OpenConversation {
        if let conversation = record.conversation, let ended = conversation.ended {
            throw CommandError(.session, ended, hint: conversation.opener)
        }
        guard let conversation = record.conversation else {
            throw CommandError(
                .session, "no WebSocket or gRPC stream is open",
                hint: "open one with `ws PATH` or `call METHOD` (`send` alone sends the draft)")
        }
        return conversation
    }

    /// Fails when a conversation is open: one at a time.
    func noConversationOpen() throws {
        if let conversation = record.conversation, conversation.ended == nil {
            throw CommandError(.session, "\(conversation.described) is open", hint: "`close` it first")
        }
    }
}
