import FathomHTTP
import Foundation

/// The loop: read an entry, run it, remember it; until `exit` or the end of input.
///
/// The only place that does I/O on behalf of the session; the executor it drives is the same one
/// tests use with strings.
public final class REPL: Sendable {
    let executor: Executor
    let reader: any LineReader
    let history: HistoryStore
    let palette: Palette
    /// Whether a person is at a terminal: entries go to the history file, and the exit status is 0.
    let interactive: Bool

    public init(
        executor: Executor, reader: any LineReader, history: HistoryStore, colors: Bool, interactive: Bool
    ) {
        self.executor = executor
        self.reader = reader
        self.history = history
        self.palette = Palette(enabled: colors)
        self.interactive = interactive
    }

    /// Runs until the end; returns the exit status: 0 when every command succeeded, else 1 — or
    /// always 0 for an interactive session, where failures were seen as they happened.
    public func run() async -> Int32 {
        let interrupts = InterruptHandler(exitsWhenIdle: !interactive)
        var assembler = LineAssembler()
        var failures = 0
        while true {
            let prompt = assembler.isContinuing ? palette.dim("… ") : prompt()
            guard let input = await reader.readLine(prompt: prompt) else {
                // End of input: a half-read entry still runs, and fails clearly if it is incomplete.
                if let entry = assembler.flush(), await run(entry, interrupts) == .failed { failures += 1 }
                break
            }
            guard case .line(let line) = input else {
                assembler.cancel()
                continue
            }
            guard let entry = assembler.add(line) else { continue }
            let outcome = await run(entry, interrupts)
            if outcome == .exit { break }
            if outcome == .failed { failures += 1 }
        }
        return failures == 0 || interactive ? 0 : 1
    }

    private func run(_ entry: String, _ interrupts: InterruptHandler) async -> Executor.Outcome {
        guard !entry.allSatisfy({ $0 == " " || $0 == "\t" }) else { return .succeeded }
        let executor = self.executor
        let outcome = await interrupts.run { await executor.run(entry) }
        if interactive {
            // Masked after running: a line that declared a secret has registered it by now.
            let masked = executor.redactor.redact(entry)
            history.add(masked)
            reader.remember(masked)
        }
        return outcome
    }

    /// `GET 127.0.0.1:8080/users> `
    func prompt() -> String {
        let values = executor.snapshot.current
        return palette.bold(values.method) + " " + palette.cyan(values.location) + "> "
    }
}
