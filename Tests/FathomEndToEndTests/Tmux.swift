import Foundation

/// A terminal for interactive tests: `fathom` runs inside a detached tmux session on its own
/// server socket; tests type keys and read the screen.
final class Tmux {
    let socket = "fathom-test-\(UUID().uuidString.prefix(8))"
    let session = "t"

    /// Starts `command` (a shell line) in an 100×40 terminal.
    init(_ command: String) throws {
        // The server this starts keeps the client's file descriptors: no pipe, or reading it never ends.
        try tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "40", command + "; sleep 60"], capture: false)
    }

    deinit {
        _ = try? tmux(["kill-server"], capture: false)
        unlink("/tmp/tmux-\(getuid())/\(socket)")
    }

    /// Types keys: literal text, or tmux key names such as `Enter`, `Tab`, `C-c`, `Up`.
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", session] + keys)
    }

    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", session, "-l", text])
    }

    /// The screen as text.
    func screen() throws -> String {
        try tmux(["capture-pane", "-t", session, "-p"])
    }

    /// The screen with lines the terminal wrapped joined again (a long URL whole), and the
    /// `history` lines above it.
    func joinedScreen(history: Int = 0) throws -> String {
        try tmux(["capture-pane", "-t", session, "-p", "-J", "-S", "-\(history)"])
    }

    /// Waits until the screen shows `text` (tmux trims the blanks that end a line) (up to `timeout` seconds) and returns it.
    ///
    /// `joined`: the screen with wrapped lines joined (``joinedScreen(history:)``), for a line
    /// longer than the terminal is wide.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 15, joined: Bool = false) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try joined ? joinedScreen() : screen()
            if last.contains(text) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TmuxError.timedOut(waitingFor: text, screen: last)
    }

    /// Waits until the prompt is back (the screen's last line ends with `prompt`, `>` by default):
    /// libedit owns the terminal again, so keys typed now reach it rather than the terminal's own echo.
    @discardableResult
    func waitForPrompt(_ prompt: String = ">", timeout: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            let lines = last.split(separator: "\n").filter { !$0.allSatisfy { $0 == " " } }
            if let line = lines.last, line.hasSuffix(prompt) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TmuxError.timedOut(waitingFor: "the prompt", screen: last)
    }

    enum TmuxError: Error, CustomStringConvertible {
        case timedOut(waitingFor: String, screen: String)
        case failed(String)

        var description: String {
            switch self {
            case .timedOut(let text, let screen): "timed out waiting for '\(text)'; the screen:\n\(screen)"
            case .failed(let message): message
            }
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), looked up at run time: Glibc's
    /// Swift module does not declare it without `_GNU_SOURCE`.
    private static let closeFrom: @Sendable (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Void = {
        typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return { _, _ in } }
        let function = unsafeBitCast(symbol, to: Function.self)
        return { actions, lowest in _ = function(actions, lowest) }
    }()

    /// Runs tmux and returns what it printed.
    ///
    /// Through `posix_spawn` and `waitpid` rather than `Process`, so that the tmux server (which
    /// outlives the client) inherits no descriptor of this process but /dev/null.
    @discardableResult
    private func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        let output = NSTemporaryDirectory() + "\(socket)-\(UUID().uuidString).out"
        defer { unlink(output) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(
            &actions, 1, capture ? output : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else: the server tmux starts lives on, and an inherited pipe end (another test's
        // child's stdin) would keep that child waiting for an end of input that never comes.
        Self.closeFrom(&actions, 3)
        // An empty signal mask and default handlers: the calling thread blocks most signals, and a
        // tmux server (and its panes) inheriting that mask would never die of kill-server's SIGHUP.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ) == 0 else {
            throw TmuxError.failed("cannot start tmux")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        guard status == 0 else {
            throw TmuxError.failed("tmux \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        return capture ? (try String(contentsOfFile: output, encoding: .utf8)) : ""
    }
}
