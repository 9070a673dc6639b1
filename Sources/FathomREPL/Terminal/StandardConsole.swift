import CEditLine
import FathomHTTP
import Foundation
import Synchronization

/// Standard output and error, with a pager and prompts without echo when on a terminal.
public final class StandardConsole: Console {
    public let isInteractive: Bool

    /// - Parameter interactive: Whether standard input and output are a terminal.
    public init(interactive: Bool) {
        self.isInteractive = interactive
    }

    /// A failed write to standard output ends the process (``StandardStreams/outputFailed(_:)``).
    public func write(_ text: String) {
        if let code = StandardStreams.write(text, to: STDOUT_FILENO) { StandardStreams.outputFailed(code) }
    }

    /// A failed write to standard error is dropped: there is nowhere left to say so.
    public func writeError(_ text: String) {
        StandardStreams.write(text, to: STDERR_FILENO)
    }

    public var rows: Int {
        var rows: Int32 = 0
        var columns: Int32 = 0
        fathom_terminal_size(&rows, &columns)
        return Int(rows)
    }

    public var columns: Int {
        guard isInteractive else { return 0 }
        var rows: Int32 = 0
        var columns: Int32 = 0
        fathom_terminal_size(&rows, &columns)
        return Int(columns)
    }

    /// `$PAGER`, `less -FRX` by default, fed through a pipe.
    ///
    /// Started with `posix_spawn` in Fathom's own process group — the terminal's foreground group —
    /// so that it can read keys from the terminal (a pager in a group of its own gets EIO and quits
    /// after the first screen). SIGINT, SIGQUIT and SIGPIPE are back to their defaults in it.
    public func page(_ text: String) -> Bool {
        let environment = ProcessEnvironment.current
        let command = environment["PAGER"].flatMap { $0.isEmpty ? nil : $0 } ?? "less -FRX"
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return false }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, STDIN_FILENO)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTSTP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
        close(readEnd)
        guard spawned == 0 else {
            close(writeEnd)
            return false
        }
        // A pager quit early closes the pipe: its EPIPE ends the writing (SIGPIPE is ignored
        // since start, StandardStreams.prepare()).
        _ = StandardStreams.write(text, to: writeEnd)
        close(writeEnd)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return true
    }

    /// Whether a prompt without echo is open now.
    private let asking = Asking()

    private final class Asking: Sendable {
        let open = Atomic<Bool>(false)
        let cancelled = Atomic<Bool>(false)
    }

    public var isAskingForSecret: Bool { asking.open.load(ordering: .relaxed) }

    /// The longest a prompt without echo waits for a person: past it, no value was given.
    static let secretWait: Duration = .seconds(300)

    /// Reads a line with echo off, on its own thread (a blocked read must not hold the cooperative
    /// pool). Ctrl-C (the task cancelled) and ``secretWait`` end it with no value.
    public func readSecret(prompt: String) async -> String? {
        guard isInteractive else { return nil }
        let asking = self.asking
        asking.cancelled.store(false, ordering: .relaxed)
        asking.open.store(true, ordering: .relaxed)
        defer { asking.open.store(false, ordering: .relaxed) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: Self.readWithoutEcho(prompt: prompt, asking: asking))
                }
                thread.start()
            }
        } onCancel: {
            asking.cancelled.store(true, ordering: .relaxed)
        }
    }

    private static func readWithoutEcho(prompt: String, asking: Asking) -> String? {
        // On a line of its own: a slow line's notice may have been drawn where the prompt goes.
        StandardStreams.write("\r\u{1B}[K" + TerminalText.finish(prompt), to: STDERR_FILENO)
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            // TCSANOW, not TCSAFLUSH: what was typed after the answer (the next line, typed
            // ahead) is the next line's, and stays queued for the line editor.
            if hasTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            StandardStreams.write("\n", to: STDERR_FILENO)
        }
        let deadline = ContinuousClock.now + secretWait
        var bytes: [UInt8] = []
        while ContinuousClock.now < deadline {
            if asking.cancelled.load(ordering: .relaxed) { return nil }
            var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 100)
            if polled < 0, errno == EINTR { continue }
            guard polled > 0 else {
                if polled < 0 { return nil }
                continue
            }
            var byte: UInt8 = 0
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(byte)
        }
        return nil
    }
}
