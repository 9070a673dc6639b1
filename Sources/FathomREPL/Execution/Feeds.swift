import Foundation
import Synchronization

/// Everything the executor tells the loop outside a line's ``CommandResult``, in one place: what
/// arrives while a line runs (a stream's head and events), what arrives between lines (a
/// WebSocket's messages), what to say before the next prompt (a structure check's findings, a
/// `.env` problem), how far a batch has come, and what the prompt and completion read. The loop
/// listens to what it can show; the executor never prints.
final class Feeds: Sendable {
    /// A stream's head and events as they arrive, while the line that asked for them runs.
    let live = LiveOutputs()
    /// What arrives between lines (a WebSocket's messages): at the prompt, printed above the line
    /// being edited.
    let background = LiveOutputs()
    /// How far a running batch has come, for the terminal's slow-line notice.
    let progress = LineProgress()
    /// What the prompt and completion read, from the line editor's thread.
    let snapshot = SessionSnapshot()
    /// What arrived while lines ran, held for the loop to print before its next prompt.
    private let notices = Mutex<[Output]>([])

    /// Holds `output` until the loop next asks (``takeNotices()``).
    func notice(_ output: Output) {
        notices.withLock { $0.append(output) }
    }

    /// What was held, once.
    func takeNotices() -> [Output] {
        notices.withLock { held in
            defer { held = [] }
            return held
        }
    }
}
