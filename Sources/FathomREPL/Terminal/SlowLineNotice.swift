@_spi(Fathom) import FathomHTTP
import Foundation
import Synchronization

/// At a terminal, a line still running after a second says so on standard error — how long it
/// has run and that Ctrl-C cancels it — updated in place and wiped before anything else is
/// printed. Scripts and replays never see it.
final class SlowLineNotice: Sendable {
    /// Whether the notice is on the screen, shared with the task that updates it.
    private final class State: Sendable {
        let shown = Mutex(false)
    }

    private let task: Task<Void, Never>
    private let state = State()
    private let console: any Console

    /// Starts watching a line that started now.
    init(console: any Console, palette: Palette, after delay: Duration = .seconds(1)) {
        self.console = console
        let state = self.state
        let start = ContinuousClock.now
        task = Task {
            do {
                try await Task.sleep(for: delay)
                while !Task.isCancelled {
                    let elapsed = ContinuousClock.now - start
                    state.shown.withLock { shown in
                        // Checked under the lock: once `finish` has wiped it, the notice stays off.
                        guard !Task.isCancelled else { return }
                        console.writeError(
                            "\r\u{1B}[K"
                                + TerminalText.finish(palette.dim("\(elapsed.shortDescription) — Ctrl-C cancels")))
                        shown = true
                    }
                    try await Task.sleep(for: .milliseconds(200))
                }
            } catch {}
        }
    }

    /// Stops the notice and wipes it, if it was shown.
    func finish() {
        task.cancel()
        state.shown.withLock { shown in
            if shown { console.writeError("\r\u{1B}[K") }
            shown = false
        }
    }
}
