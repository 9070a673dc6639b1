@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// What a WebSocket conversation shows: its opening, each message each way, and its end.
struct WebSocketOutput: Sendable {
    enum Kind: Sendable {
        /// Opened: the URL (masked) it went to, and the conversation's number in the history.
        case opened(url: String, number: Int)
        /// A message from the server, its number in the conversation (from 1) and when it came.
        case received(WebSocketMessage, number: Int, at: Duration)
        /// A message sent, as it went (variables expanded).
        case sent(WebSocketMessage)
        /// A ping sent.
        case ping
        /// The conversation ended; `received` messages came in all.
        case closed(WebSocketClose, url: String, received: Int)
    }

    var kind: Kind

    /// A text message's JSON when it parses, else `nil`.
    static func json(of message: WebSocketMessage) -> JSON? {
        guard case .text(let text) = message, let first = text.first(where: { !$0.isWhitespace }),
            first == "{" || first == "[" || first == "\""
        else { return nil }
        return try? JSON(parsing: text)
    }

    /// A message as `expect message` reads it: its JSON, or its text as a JSON string (a binary
    /// message as its bytes in base64).
    static func document(of message: WebSocketMessage) -> JSON {
        if let json = json(of: message) { return json }
        switch message {
        case .text(let text): return .string(text)
        case .binary(let data): return .string(data.base64EncodedString())
        }
    }
}

/// The WebSocket a session has open: its connection, and the messages each way (its
/// ``MessageLog``). Messages are shown as they arrive through the executor's background outputs,
/// whether a line runs or the prompt waits.
final class OpenWebSocket: OpenConversation {
    let connection: WebSocketConnection
    /// The URL as shown (secrets masked).
    let shownURL: String
    let log = MessageLog<WebSocketMessage>(document: WebSocketOutput.document(of:))

    init(connection: WebSocketConnection, shownURL: String) {
        self.connection = connection
        self.shownURL = shownURL
    }

    /// Reads the connection's events until it ends: keeps each message (waking the lines
    /// waiting for one) and hands each to `show`; `ended` runs once it has ended.
    func pump(show: @escaping @Sendable (WebSocketOutput) -> Void, ended: @escaping @Sendable () -> Void) {
        Task {
            for await event in connection.events {
                switch event {
                case .message(let message, let at):
                    let number = log.receive(message, at: at)
                    show(WebSocketOutput(kind: .received(message, number: number, at: at)))
                case .closed(let close):
                    let received = log.end()
                    ended()
                    show(WebSocketOutput(kind: .closed(close, url: shownURL, received: received)))
                }
            }
        }
    }

    /// Sends `message`, kept in the log first; one that could not be sent is taken back out.
    func send(_ message: WebSocketMessage) async throws {
        log.sending(message)
        do {
            try await connection.send(message)
        } catch {
            log.unsent(message)
            throw error
        }
    }

    /// The conversation as `inspect`, `let` and `show` read it: `url`, `messages` (each way, in
    /// order: `from` `server` or `client`, `data` as `expect message` reads it, `n` and `ms` for
    /// one received), `received`, `sent`, and `closed` (`code`, `reason`, `by`) once it has ended.
    func document() -> JSON {
        let counts = log.counts
        var closed = JSON.null
        if let close = self.closed {
            var members: [JSON.Member] = []
            if let code = close.code { members.append(JSON.Member(key: "code", value: .number(String(code)))) }
            if let reason = close.reason { members.append(JSON.Member(key: "reason", value: .string(reason))) }
            let by =
                switch close.initiator {
                case .client: "client"
                case .server: "server"
                case .dropped: "dropped"
                }
            members.append(JSON.Member(key: "by", value: .string(by)))
            closed = .object(members)
        }
        return .object([
            JSON.Member(key: "url", value: .string(shownURL)),
            JSON.Member(key: "messages", value: log.messagesDocument()),
            JSON.Member(key: "received", value: .number(String(counts.received))),
            JSON.Member(key: "sent", value: .number(String(counts.sent))),
            JSON.Member(key: "closed", value: closed),
        ])
    }

    /// What a recording keeps and `replay --compare` checks: the messages the file's lines made
    /// of the conversation (``MessageLog/recordedMessages()``) and how the file's `close` ended it.
    func recordedDocument() -> JSON {
        var members = [JSON.Member(key: "messages", value: log.recordedMessages())]
        if let close = closed, close.initiator == .client, !close.failedByFathom {
            members.append(
                JSON.Member(
                    key: "closed",
                    value: .object([JSON.Member(key: "code", value: .number(String(close.code ?? 1005)))])))
        }
        return .object(members)
    }

    /// How it ended, or `nil` while it is open: as soon as the connection knows, before its
    /// last event is read.
    var closed: WebSocketClose? { connection.closed }

    /// Messages received and sent so far.
    var counts: (received: Int, sent: Int) { log.counts }
}

/// A WebSocket conversation as an entry of the history: its messages each way, read live from
/// the connection while it is open.
struct Conversation: Exchange {
    let number: Int
    let socket: OpenWebSocket
    /// The `ws` line's target as written (`/ws/{{room}}`): with `WS`, what a recording matches it by.
    let target: String

    func document() -> JSON { socket.document() }

    /// The conversation as a recording keeps it: `WS`, the URL's path, 101, and as its JSON
    /// what the file's lines made of it (``OpenWebSocket/recordedDocument()``).
    func recorded() -> RecordedResponse? {
        let path = URL(string: socket.connection.url.description)?.path ?? target
        return RecordedResponse(
            method: "WS", target: target, path: path, status: 101, contentType: "application/json",
            body: Data(socket.recordedDocument().formatted(.compactText).utf8))
    }

    var listed: String {
        let (received, sent) = socket.counts
        return "WS \(socket.shownURL) · \(received) received, \(sent) sent" + (socket.closed == nil ? " · open" : "")
    }

    func notAResponse(last: Bool) -> CommandError {
        CommandError(
            .session,
            "\(last ? "the last entry is" : "#\(number) is") the WebSocket conversation #\(number), not a response",
            hint: "`expect message …` waits for a message; `inspect #\(number) $.messages` reads them")
    }
}

extension WebSocketClose {
    /// Fathom failed the connection (RFC 6455 §7.1.7): the server broke the protocol (1002),
    /// sent text that is not UTF-8 (1007), or a message over the limit (1009) — not a `close` line.
    var failedByFathom: Bool {
        initiator == .client && error != nil && [1002, 1007, 1009].contains(code ?? 0)
    }
}
