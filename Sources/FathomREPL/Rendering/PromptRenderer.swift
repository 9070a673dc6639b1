/// The prompt: the draft's method and where it goes, and a badge for what else it carries, so a
/// draft that persists between lines is never invisible: `GET 127.0.0.1:8080/users [2 headers, body]> `.
struct PromptRenderer: Sendable {
    let palette: Palette

    func prompt(_ values: SessionSnapshot.Values) -> String {
        if let conversation = values.conversation {
            // In a conversation: its sub-prompt, `ws 127.0.0.1:8080/ws> `, `grpc Todos/Chat> `.
            return palette.bold(conversation.word) + " " + palette.cyan(conversation.target) + "> "
        }
        var text = palette.bold(values.method) + " " + palette.cyan(values.location)
        let badge = Self.badge(values.carries)
        if !badge.isEmpty { text += " " + palette.dim("[\(badge)]") }
        return text + "> "
    }

    /// `2 headers, 1 query item, body, auth`; empty when the draft is its method and path alone.
    static func badge(_ carries: SessionSnapshot.Carries) -> String {
        var parts: [String] = []
        if carries.headers > 0 { parts.append("\(carries.headers) header\(carries.headers == 1 ? "" : "s")") }
        if carries.query > 0 { parts.append("\(carries.query) query item\(carries.query == 1 ? "" : "s")") }
        if carries.body { parts.append("body") }
        if let auth = carries.auth { parts.append(auth ? "auth" : "no auth") }
        return parts.joined(separator: ", ")
    }
}
