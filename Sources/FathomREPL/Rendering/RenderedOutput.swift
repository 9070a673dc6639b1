/// An output as text, and where it goes.
struct RenderedOutput: Sendable {
    enum Stream: Sendable {
        case standardOutput
        case standardError
    }

    var text: String
    var stream: Stream = .standardOutput
    /// Long text (a body, a diff, help) that may go through the pager at a terminal.
    var pageable = false
}
