import FathomHTTP
import FathomJSON

/// ANSI styles, or nothing when colors are off.
///
/// The styles are written in ``TerminalText``'s form and become escapes only when a renderer
/// finishes its text: outside text cannot forge one.
public struct Palette: Sendable {
    public let enabled: Bool

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    public func paint(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? TerminalText.sgr(code) + text + TerminalText.sgr("0") : text
    }

    public func bold(_ text: String) -> String { paint(text, "1") }
    public func dim(_ text: String) -> String { paint(text, "2") }
    public func red(_ text: String) -> String { paint(text, "31") }
    public func green(_ text: String) -> String { paint(text, "32") }
    public func yellow(_ text: String) -> String { paint(text, "33") }
    public func cyan(_ text: String) -> String { paint(text, "36") }

    public func status(_ status: HTTPStatus) -> String {
        let color =
            switch status.category {
            case .success: "1;32"
            case .redirection: "1;36"
            case .clientError: "1;33"
            case .serverError: "1;31"
            default: "1"
            }
        return paint(status.description, color)
    }

    var json: JSONFormat { JSONFormat(colors: enabled ? .jq : nil) }
}
