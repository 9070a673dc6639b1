import CEditLine
import Foundation

/// Standard output and error, with a pager and prompts without echo when on a terminal.
public final class StandardConsole: Console {
    public let isInteractive: Bool

    /// - Parameter interactive: Whether standard input and output are a terminal.
    public init(interactive: Bool) {
        self.isInteractive = interactive
    }

    public func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    public func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    public var rows: Int {
        var rows: Int32 = 0
        var columns: Int32 = 0
        fathom_terminal_size(&rows, &columns)
        return Int(rows)
    }

    /// `$PAGER`, `less -FRX` by default, fed through a pipe.
    public func page(_ text: String) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        let command = environment["PAGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "less -FRX"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardInput = pipe
        do {
            try process.run()
        } catch {
            return false
        }
        // A pager quit early closes the pipe: ignore SIGPIPE's EPIPE rather than die of it.
        signal(SIGPIPE, SIG_IGN)
        try? pipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        return true
    }

    /// Reads a line with echo off, on its own thread (a blocked read must not hold the cooperative pool).
    public func readSecret(prompt: String) async -> String? {
        guard isInteractive else { return nil }
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Self.readWithoutEcho(prompt: prompt))
            }
            thread.start()
        }
    }

    private static func readWithoutEcho(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true)
    }
}
