@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// A WebSocket conversation as text —
///
/// ```
/// ⇄ ws://127.0.0.1:8080/ws open · send TEXT|JSON|@FILE, ping, close [CODE]; Ctrl-D closes
/// ← 1 · +2 ms
///   {
///     "type": "welcome"
///   }
/// → {"hello": 1}
/// ⇄ closed · 1000 normal closure · 2 messages received
/// ```
///
/// — a message from the server pretty when it is JSON; one sent on one line, as it went.
struct WebSocketRenderer {
    let palette: Palette

    /// The text, and whether it goes to standard error (a connection that dropped).
    func render(_ output: WebSocketOutput) -> (text: String, error: Bool) {
        switch output.kind {
        case .opened(let url, let number):
            return (
                palette.cyan("⇄ ") + TerminalText.visible(url) + " open"
                    + palette.dim(" · #\(number) · send TEXT|JSON|@FILE, ping, close [CODE]; Ctrl-D closes"), false
            )
        case .received(let message, let number, let at):
            let label = palette.bold("← \(number)") + palette.dim(" · +" + at.shortDescription)
            switch message {
            case .text(let text):
                return (
                    label + "\n" + Self.indented(WebSocketOutput.json(of: message), text: text, palette: palette), false
                )
            case .binary(let data):
                return (
                    label + palette.dim(" · binary, \(ByteCount.format(data.count))") + "\n  " + Self.hex(data), false
                )
            }
        case .sent(let message):
            switch message {
            case .text(let text):
                return (palette.dim("→ ") + TerminalText.visible(text), false)
            case .binary(let data):
                return (palette.dim("→ binary, \(ByteCount.format(data.count))"), false)
            }
        case .ping:
            return (palette.dim("→ ping"), false)
        case .closed(let close, let url, let received):
            let count = palette.dim(" · \(received) message\(received == 1 ? "" : "s") received")
            switch close.initiator {
            case .client where close.failedByFathom:
                // Fathom failed the connection: the server broke the protocol, or a message was too big.
                let code = close.code ?? 1002
                var line = "✗ Fathom closed the WebSocket to \(TerminalText.visible(url)) with \(code)"
                if let name = WebSocketClose.name(of: code) { line += " \(name)" }
                line += ": " + TerminalText.visible(close.error ?? "")
                return (palette.red(line) + count, true)
            case .client, .server:
                var parts = [close.initiator == .server ? "⇄ closed by the server" : "⇄ closed"]
                if let code = close.code {
                    parts.append("\(code)" + (WebSocketClose.name(of: code).map { " \($0)" } ?? ""))
                }
                if let reason = close.reason { parts.append(Self.quoted(reason)) }
                var answer = ""
                if let code = close.answer, code != close.code {
                    answer = palette.dim(" · the server answered \(code)")
                } else if close.initiator == .client, let error = close.error {
                    answer = palette.dim(" · " + TerminalText.visible(error))
                }
                return (palette.cyan(parts.joined(separator: palette.dim(" · "))) + answer + count, false)
            case .dropped:
                var line = "✗ the WebSocket to \(TerminalText.visible(url)) was cut off"
                if let error = close.error { line += ": \(error)" }
                if let bytes = close.unfinishedBytes {
                    line += ", in the middle of a message (\(ByteCount.format(bytes)) never finished)"
                }
                return (palette.red(line) + count, true)
            }
        }
    }

    /// A message under its label: pretty and indented when it is JSON, else its text made visible.
    static func indented(_ json: JSON?, text: String, palette: Palette) -> String {
        let body =
            json.map { TerminalText.adopting(String($0.formatted(palette.json).dropLast(1))) }
            ?? TerminalText.visible(text)
        return body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    private static func quoted(_ text: String) -> String {
        "\"" + TerminalText.visible(text) + "\""
    }

    /// The first 32 bytes in hex, and how many more.
    static func hex(_ data: Data) -> String {
        let shown = data.prefix(32).map { String(format: "%02x", $0) }.joined(separator: " ")
        return data.count > 32 ? shown + " …" : shown
    }
}
