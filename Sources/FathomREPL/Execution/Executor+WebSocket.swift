@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// A message as a line writes it: text (variables expanded when sent) or a file's content.
enum WebSocketMessageSpec: Equatable, Sendable {
    case text(String)
    /// Sent as text when it is UTF-8, else as binary; read when sent.
    case file(String)
}

/// `ws`, and the lines that talk on the WebSocket it opens.
extension Executor {
    /// How long `expect message` waits without a `timeout`.
    static let defaultMessageWait = Duration.seconds(10)

    /// Opens a WebSocket to `written` (a path under the base, or a `ws://`, `wss://` or `http(s)://`
    /// URL). The upgrade request carries what a `GET` of that URL would: its API's defaults,
    /// credentials and cookies, and nothing of another API's.
    func openWebSocket(_ written: String) async throws -> CommandResult {
        if let open = webSocket, open.closed == nil {
            throw CommandError(.session, "a WebSocket to \(open.shownURL) is open", hint: "`close` it first")
        }
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
        feeds.snapshot.setWebSocket(shown)
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
            ended: { snapshot.setWebSocket(nil) })
        return CommandResult(.succeeded, [.webSocket(WebSocketOutput(kind: .opened(url: shown, number: number)))])
    }

    /// Sends a message on the open WebSocket.
    func sendMessage(_ spec: WebSocketMessageSpec) async throws -> CommandResult {
        let open = try openWebSocketOrThrow()
        let message: WebSocketMessage
        switch spec {
        case .text(let template):
            message = .text(try session.variables.expand(template))
        case .file(let template):
            let path = resolvePath(try session.variables.expand(template))
            // One message, held whole: no larger than a message the connection takes.
            let data = try BoundedFile.read(
                path, limit: WebSocketConnection.Configuration().maxMessageSize, what: "a message")
            message = String(validating: data, as: UTF8.self).map { .text($0) } ?? .binary(data)
        }
        try await open.send(message)
        return CommandResult(.succeeded, [.webSocket(WebSocketOutput(kind: .sent(message)))])
    }

    /// Pings the server on the open WebSocket.
    func pingWebSocket() async throws -> CommandResult {
        let open = try openWebSocketOrThrow()
        try await open.connection.ping()
        return CommandResult(.succeeded, [.webSocket(WebSocketOutput(kind: .ping))])
    }

    /// Closes the open WebSocket with `code` and waits for the server's answer.
    func closeWebSocket(code: Int, reason: String?) async throws -> CommandResult {
        let open = try openWebSocketOrThrow()
        let close = await open.connection.close(code: code, reason: reason)
        feeds.snapshot.setWebSocket(nil)
        let output = WebSocketOutput(kind: .closed(close, url: open.shownURL, received: open.counts.received))
        return CommandResult(close.initiator == .dropped ? .failed : .succeeded, [.webSocket(output)])
    }

    /// Closes the open WebSocket, if any, without a line: a script's or a replayed file's end,
    /// the end of the prompt.
    public func endWebSocket() async {
        guard let open = webSocket, open.closed == nil else { return }
        await open.connection.close()
        feeds.snapshot.setWebSocket(nil)
    }

    /// `expect message …`: waits for a message that matches, from the one after the last matched.
    func expectMessage(_ expectation: Expectation) async throws -> CommandResult {
        guard let open = webSocket else {
            throw CommandError(.session, "no WebSocket has been opened", hint: "open one with `ws PATH`")
        }
        guard case .value(let written) = expectation.subject else {
            throw CommandError(.session, "expect message takes EXPR OP VALUE")
        }
        let wait = options.requestTimeout ?? session.settings.timeout ?? Self.defaultMessageWait
        return try await open.expect(written, expectation, variables: session.variables, wait: wait)
    }

    private func openWebSocketOrThrow() throws -> OpenWebSocket {
        if let open = webSocket, let close = open.closed {
            let how =
                switch close.initiator {
                case .client: "closed"
                case .server: "closed by the server" + (close.code.map { " (\($0))" } ?? "")
                case .dropped: "cut off"
                }
            throw CommandError(
                .session, "the WebSocket to \(open.shownURL) was \(how)", hint: "open another with `ws PATH`")
        }
        guard let open = webSocket else {
            throw CommandError(
                .session, "no WebSocket is open", hint: "open one with `ws PATH` (`send` alone sends the draft)")
        }
        return open
    }
}
