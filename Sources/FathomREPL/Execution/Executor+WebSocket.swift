@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// `ws`, and the lines that talk on the WebSocket it opens.
extension Executor {
    /// Opens a WebSocket to `written` (a path under the base, or a `ws://`, `wss://` or `http(s)://`
    /// URL). The upgrade request carries what a `GET` of that URL would: its API's defaults,
    /// credentials and cookies, and nothing of another API's.
    func openWebSocket(_ written: String) async throws -> CommandResult {
        try noConversationOpen()
        var draft = Draft()
        // As the HTTP request the upgrade is: for the base, the API and the proxy it belongs to.
        draft.target = NetworkClient.httpTarget(try session.variables.expand(written))
        let outgoing = try prepare(draft)
        let request = outgoing.request
        let settings = session.settings
        // Through the API's client: its authenticator (a token fetched, a 401 answered once), its
        // wire log; the jar's cookies for the URL.
        let client = try await client(for: outgoing.scope)
        let configuration = WebSocketConnection.Configuration(
            verifyCertificates: !settings.insecure, proxy: try proxySettings().proxy(for: request.url),
            connectTimeout: options.connectTimeout ?? settings.timeout ?? .seconds(10))
        let connection = try await client.webSocket(
            request, configuration: configuration, cookies: settings.cookies ? cookieJar : nil)
        recordCoverage(method: .get, url: request.url, status: 101)
        let shown = redactor.redact(connection.url.description)
        let open = OpenWebSocket(connection: connection, shownURL: shown)
        // An exchange like a response: `inspect`, `let` and `show` read its messages by number.
        let number = record.responses.append { Conversation(number: $0, socket: open, target: written) }.number
        record.conversation = open
        feeds.snapshot.setConversation(open.prompt)
        let background = feeds.background
        let snapshot = feeds.snapshot
        open.pump(
            show: { output in
                // What this side closed is the `close` line's own output; Fathom failing the
                // connection (the server broke the protocol) is news, and is shown.
                if case .closed(let close, _, _) = output.kind, close.initiator == .client, !close.failedByFathom {
                    return
                }
                background.send(.webSocket(output))
            },
            ended: { snapshot.setConversation(nil) })
        return CommandResult(.succeeded, [.webSocket(WebSocketOutput(kind: .opened(url: shown, number: number)))])
    }

    /// Pings the server on the open WebSocket.
    func pingWebSocket() async throws -> CommandResult {
        guard let open = try openConversation() as? OpenWebSocket else {
            throw CommandError(
                .session, "ping is a WebSocket's, and no WebSocket is open", hint: "open one with `ws PATH`")
        }
        try await open.connection.ping()
        return CommandResult(.succeeded, [.webSocket(WebSocketOutput(kind: .ping))])
    }
}

/// The lines that talk on an open WebSocket.
extension OpenWebSocket {
    var prompt: ConversationPrompt { ConversationPrompt(word: "ws", target: SessionSnapshot.hostPart(shownURL)) }

    var described: String { "a WebSocket to \(shownURL)" }

    var opener: String { "open another with `ws PATH`" }

    var ended: String? {
        guard let close = closed else { return nil }
        let how =
            switch close.initiator {
            case .client: "closed"
            case .server: "closed by the server" + (close.code.map { " (\($0))" } ?? "")
            case .dropped: "cut off"
            }
        return "the WebSocket to \(shownURL) was \(how)"
    }

    /// Sends a text message ({{variables}} expanded) or a file's content: text when it is
    /// UTF-8, else binary.
    func send(_ spec: MessageSpec, in executor: isolated Executor) async throws -> CommandResult {
        let message: WebSocketMessage
        switch spec {
        case .text(let template):
            message = .text(try executor.session.variables.expand(template))
        case .file(let template):
            let path = executor.resolvePath(try executor.session.variables.expand(template))
            // One message, held whole: no larger than a message the connection takes.
            let data = try BoundedFile.read(
                path, limit: WebSocketConnection.Configuration().maxMessageSize, what: "a message")
            message = String(validating: data, as: UTF8.self).map { .text($0) } ?? .binary(data)
        }
        try await send(message)
        return CommandResult(.succeeded, [.webSocket(WebSocketOutput(kind: .sent(message)))])
    }

    /// Closes with the line's code and waits for the server's answer.
    func close(_ line: CloseCommand, in executor: isolated Executor) async throws -> CommandResult {
        let close = await connection.close(code: line.code ?? 1000, reason: line.reason)
        executor.feeds.snapshot.setConversation(nil)
        let output = WebSocketOutput(kind: .closed(close, url: shownURL, received: counts.received))
        return CommandResult(close.initiator == .dropped ? .failed : .succeeded, [.webSocket(output)])
    }

    func expectMessage(
        _ written: String, _ expectation: Expectation, variables: Variables, wait: Duration
    ) async throws -> CommandResult {
        try await log.expect(written, expectation, variables: variables, wait: wait) { [self] in
            guard let closed else { return nil }
            // Why it closed, in the failure's own line: the notice of a connection Fathom failed can
            // come after the script's last line has run.
            guard closed.initiator == .client, closed.failedByFathom else { return "before the WebSocket closed" }
            let code = closed.code ?? 1002
            let name = WebSocketClose.name(of: code).map { " \($0)" } ?? ""
            return "before Fathom closed the WebSocket with \(code)\(name): \(closed.error ?? "")"
        }
    }

    func end() async {
        guard closed == nil else { return }
        await connection.close()
    }
}
