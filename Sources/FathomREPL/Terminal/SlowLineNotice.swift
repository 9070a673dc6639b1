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

    /// Starts watching a line that started now; a batch's `progress` is shown as it comes.
    init(
        console: any Console, palette: Palette, progress: LineProgress? = nil, after delay: Duration = .seconds(1)
    ) {
        self.console = console
        let state = self.state
        let start = ContinuousClock.now
        task = Task {
            do {
                // A batch shows its progress at once; any other line after `delay`.
                let tick = Duration.milliseconds(200)
                try await Task.sleep(for: tick)
                while !Task.isCancelled {
                    let elapsed = ContinuousClock.now - start
                    let counts = progress?.current
                    // A prompt without echo owns the line while it is open.
                    if counts != nil || elapsed >= delay, !console.isAskingForSecret {
                        let text = counts.map(Self.describe) ?? elapsed.shortDescription
                        state.shown.withLock { shown in
                            // Checked under the lock: once `finish` has wiped it, the notice stays off.
                            guard !Task.isCancelled else { return }
                            console.writeError(
                                "\r\u{1B}[K" + TerminalText.finish(palette.dim("\(text) — Ctrl-C cancels")))
                            shown = true
                        }
                    }
                    try await Task.sleep(for: tick)
                }
            } catch {}
        }
    }

    /// `1,204/10,000 · 5,230/s · 3 errors · 2.1s`.
    static func describe(_ counts: LineProgress.Counts) -> String {
        let elapsed = ContinuousClock.now - counts.start
        let seconds = elapsed.seconds
        var parts = [Count.grouped(counts.done) + (counts.total.map { "/" + Count.grouped($0) } ?? "")]
        if seconds > 0 { parts.append(Count.grouped(Int(Double(counts.done) / seconds)) + "/s") }
        if counts.errors > 0 { parts.append("\(Count.grouped(counts.errors)) error\(counts.errors == 1 ? "" : "s")") }
        parts.append(elapsed.shortDescription)
        return parts.joined(separator: " · ")
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
