/// `ws PATH|URL`: opens a WebSocket — a path under the base, or a `ws://`/`wss://` URL — with
/// what a request there carries (its API's default headers, credentials and cookies). `ws` alone
/// says what is open.
struct WsCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "ws", synopsis: "ws [PATH|URL]",
        summary: "open a WebSocket; then `send TEXT|JSON|@FILE`, `ping`, `expect message …`, `close [CODE]`",
        details: """
            The upgrade request carries what a GET of the same URL would: the API's default headers, its \
            credentials and the cookie jar's cookies — never another API's. `insecure` and `proxy` apply \
            (`wss://` for TLS). Messages print as they arrive, pretty when they are JSON, above the line \
            being edited; the prompt becomes `ws HOST/PATH>`. Ctrl-D or `close [CODE [REASON]]` ends the \
            conversation and returns to the main prompt. `expect message $.type == "echo"` waits for a \
            matching message (up to the `timeout`); `ws` alone says what is open.
            """,
        completion: .paths, group: .draft)

    /// `nil` shows what is open.
    var target: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        if arguments.isEmpty { return WsCommand(target: nil) }
        return WsCommand(target: try arguments.single("a path or a ws:// URL").text)
    }

    var logKind: SessionLog.Kind? { target == nil ? nil : .request }

    var opensConversation: Bool { target != nil }

    var line: String {
        var writer = LineWriter("ws")
        if let target { writer.word(target) }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let target else {
            guard let open = executor.record.conversation as? OpenWebSocket, open.closed == nil else {
                return .shows(.setting(SettingShown(name: "ws", value: .text("none open — `ws PATH` opens one"))))
            }
            let (received, sent) = open.counts
            return .shows(
                .setting(
                    SettingShown(
                        name: "ws", value: .text("open to \(open.shownURL) · \(received) received · \(sent) sent"))))
        }
        return try await executor.openWebSocket(target)
    }
}

/// `ping`: pings the server on the open WebSocket.
struct PingCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "ping", synopsis: "ping", summary: "ping the server on the open WebSocket (`ws`)",
        details:
            "The server answers with a pong, which keeps the connection alive; a closed connection fails the line.",
        completion: .none, group: .draft)

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        try arguments.end()
        return PingCommand()
    }

    var logKind: SessionLog.Kind? { .followUp }

    var line: String { "ping" }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        try await executor.pingWebSocket()
    }
}

/// `close [CODE [REASON]]`: closes the open WebSocket (1000, normal closure, by default) and
/// waits for the server's answer; half-closes an open gRPC stream and waits for the call's end.
struct CloseCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "close", synopsis: "close [CODE [REASON]]",
        summary: "close the open WebSocket (1000 by default) or gRPC stream, and return to the main prompt",
        details: """
            On a WebSocket, CODE is 1000 (normal closure), 1001 (going away) or an application's 3000–4999; \
            REASON is the rest of the line. Waits up to 3 s for the server's own close frame, and says what \
            it sent. On a gRPC client or bidirectional stream (`call`), `close` half-closes: the server's \
            remaining messages, its response and the call's status follow, kept as a response.
            """,
        completion: .none, group: .draft)

    /// `nil`: the protocol's own (1000 on a WebSocket).
    var code: Int?
    var reason: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard let word = try arguments.optionalWord() else { return CloseCommand() }
        guard let code = Int(word.text), code == 1000 || code == 1001 || (3000...4999).contains(code) else {
            throw CommandError(
                .parse, "'\(word.text)' is not a close code a client may send", column: word.column,
                hint: "1000 (normal), 1001 (going away), or 3000–4999")
        }
        let reason = arguments.isEmpty ? nil : try arguments.afterEquals()
        if let reason, reason.utf8.count > 123 {
            throw CommandError(
                .parse, "a close reason is at most 123 bytes, not \(reason.utf8.count)", column: word.column)
        }
        return CloseCommand(code: code, reason: reason)
    }

    var logKind: SessionLog.Kind? { .followUp }

    var line: String {
        var writer = LineWriter("close")
        if let code, code != 1000 || reason != nil { writer.raw(String(code)) }
        if let reason { writer.raw(SetCommand.value(reason)) }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        try await executor.closeConversation(self)
    }
}
