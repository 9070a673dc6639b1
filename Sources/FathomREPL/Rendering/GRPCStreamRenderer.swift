@_spi(Fathom) import FathomHTTP
import FathomJSON

/// A gRPC stream written at the prompt as text —
///
/// ```
/// ⇄ fathom.demo.v1.Todos/Chat open · #4 · send JSON|items, expect message …, close half-closes; Ctrl-D closes
/// → {"text":"hello"}
/// ← 1 · +3 ms
///   {
///     "text": "hello"
///   }
/// ⇄ the server ended fathom.demo.v1.Todos/Chat: gRPC DEADLINE_EXCEEDED · 1 message received · `close` shows its end
/// ```
///
/// — the server's messages pretty, as a WebSocket's are; the call's end, when `close` ended it,
/// is the response that line shows.
struct GRPCStreamRenderer {
    let palette: Palette

    func render(_ output: GRPCStreamOutput) -> String {
        switch output.kind {
        case .opened(let method, let number):
            return palette.cyan("⇄ ") + TerminalText.visible(method) + " open"
                + palette.dim(
                    " · #\(number) · send JSON|items, expect message …, close half-closes; Ctrl-D closes")
        case .received(let text, let number, let at):
            let label = palette.bold("← \(number)") + palette.dim(" · +" + at.shortDescription)
            return label + "\n" + WebSocketRenderer.indented(try? JSON(parsing: text), text: text, palette: palette)
        case .sent(let text):
            return palette.dim("→ ") + TerminalText.visible(text)
        case .ended(let method, let status, let received):
            let code = status.isOK ? palette.green(status.codeName) : palette.red(status.codeName)
            var line = palette.cyan("⇄ the server ended ") + TerminalText.visible(method) + ": gRPC " + code
            if !status.message.isEmpty {
                line += palette.dim(" · ") + TerminalText.visible(ErrorRenderer.cut(status.message))
            }
            return line
                + palette.dim(
                    " · \(received) message\(received == 1 ? "" : "s") received · `close` shows its end")
        }
    }
}
