import Foundation

/// Standard output and error written with `write(2)`: a failed write is an error code here,
/// never a trap (Foundation's `FileHandle.write(_:)` ends the process when a write fails).
public enum StandardStreams {
    /// Ignores SIGPIPE, so that writing to a closed pipe (`fathom … | head -1`) is an `EPIPE` the
    /// program handles rather than a signal that kills it mid-line. Call once at start.
    public static func prepare() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes all of `bytes` to `descriptor`; the `errno` of a failed write, or `nil`.
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard var pointer = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Glibc.write(descriptor, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            pointer += written
            remaining -= written
        }
        return nil
    }

    /// Writes `text` as UTF-8 to `descriptor`; the `errno` of a failed write, or `nil`.
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Standard output can no longer be written: nothing after this could be seen, so the process
    /// ends with status 1 — quietly for a closed pipe (the reader had enough), with one line on
    /// standard error otherwise (`No space left on device`).
    /// Writes a message about outside input (a file's name, what a parser met in it) to standard
    /// error on a line of its own, its control characters made visible: the subcommands' errors
    /// pass the same sanitiser as the prompt's, so a hostile file cannot drive the terminal.
    public static func diagnose(_ message: String) {
        write(TerminalText.visible(message) + "\n", to: STDERR_FILENO)
    }

    public static func outputFailed(_ code: Int32) -> Never {
        if code != EPIPE {
            let reason = String(cString: strerror(code))
            write("fathom: cannot write to standard output: \(reason)\n", to: STDERR_FILENO)
        }
        exit(1)
    }
}
