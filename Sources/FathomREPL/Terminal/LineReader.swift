import Foundation
import Synchronization

/// What reading one line gave.
enum LineInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-C at the prompt: the line was discarded.
    case interrupted
}

/// Where lines come from: the line editor on a terminal, standard input, or `-c` arguments.
protocol LineReader: Sendable {
    /// The next line after showing `prompt`; `nil` at the end of input (Ctrl-D).
    func readLine(prompt: String) async -> LineInput?
    /// Whether `readLine` shows its prompt: a terminal's editor does; a script's or a `-c`
    /// line's reader does not, and the prompt is then not worth rendering for every line.
    var showsPrompt: Bool { get }
    /// Adds an entry to the editor's in-memory history (Up/Down, Ctrl-R).
    func remember(_ entry: String)
    /// Prints what arrived on its own (a WebSocket's message) by running `write`: above the
    /// line being edited, with `prompt` from then on, when the editor has one; else now.
    func interject(prompt: String?, _ write: @escaping @Sendable () -> Void)
}

extension LineReader {
    var showsPrompt: Bool { false }
    func remember(_ entry: String) {}

    func interject(prompt: String?, _ write: @escaping @Sendable () -> Void) { write() }
}

/// Lines from standard input when it is not a terminal: no prompt, no editing, no history.
final class PlainLineReader: LineReader {
    init() {}

    func readLine(prompt: String) async -> LineInput? {
        Swift.readLine(strippingNewline: true).map { .line($0) }
    }
}

/// The `-c` commands, in order.
final class ArgumentLineReader: LineReader {
    private let lines: Mutex<[String]>

    init(_ lines: [String]) {
        self.lines = Mutex(lines.reversed())
    }

    func readLine(prompt: String) async -> LineInput? {
        lines.withLock { $0.popLast() }.map { .line($0) }
    }
}
