import Foundation
import Synchronization

/// What reading one line gave.
public enum LineInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-C at the prompt: the line was discarded.
    case interrupted
}

/// Where lines come from: the line editor on a terminal, standard input, or `-c` arguments.
public protocol LineReader: Sendable {
    /// The next line after showing `prompt`; `nil` at the end of input (Ctrl-D).
    func readLine(prompt: String) async -> LineInput?
    /// Adds an entry to the editor's in-memory history (Up/Down, Ctrl-R).
    func remember(_ entry: String)
}

extension LineReader {
    public func remember(_ entry: String) {}
}

/// Lines from standard input when it is not a terminal: no prompt, no editing, no history.
public final class PlainLineReader: LineReader {
    public init() {}

    public func readLine(prompt: String) async -> LineInput? {
        Swift.readLine(strippingNewline: true).map { .line($0) }
    }
}

/// The `-c` commands, in order.
public final class ArgumentLineReader: LineReader {
    private let lines: Mutex<[String]>

    public init(_ lines: [String]) {
        self.lines = Mutex(lines.reversed())
    }

    public func readLine(prompt: String) async -> LineInput? {
        lines.withLock { $0.popLast() }.map { .line($0) }
    }
}
