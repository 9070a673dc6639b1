import CEditLine
import Foundation
import Synchronization

/// The prompt on a terminal: libedit (Emacs keys, Up/Down, Ctrl-R), tab completion, Ctrl-C that
/// clears the line, Ctrl-D that ends input.
///
/// libedit blocks in `el_gets`, and the cooperative pool has only as many threads as cores, so
/// the editor runs on its own thread; each `readLine` hands it a job and awaits the answer. The
/// C callbacks (prompt, completion, Ctrl-C) run on that thread inside `el_gets` and find this
/// object through `EL_CLIENTDATA`.
final class EditLineReader: LineReader, @unchecked Sendable {
    // Touched only on the editor thread (inside jobs and callbacks).
    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private var prompt: UnsafeMutablePointer<CChar>?
    private var interrupted = false
    private let snapshot: SessionSnapshot

    private enum Job {
        case read(prompt: String, CheckedContinuation<LineInput?, Never>)
        case remember(String)
    }

    private let jobs = JobQueue<Job>()

    /// What arrived to print while a line is being edited, and whether one is.
    private struct Interjections {
        var editing = false
        var writes: [@Sendable () -> Void] = []
        var prompt: String?
    }

    private let interjections = Mutex(Interjections())
    /// Written to (one byte) when something is to be printed above the line being edited: the
    /// read function waits on it beside standard input.
    private let wake: (read: Int32, write: Int32)

    /// - Parameters:
    ///   - snapshot: Where completion finds variables, paths and headers.
    ///   - history: Earlier entries, oldest first, for Up/Down and Ctrl-R.
    init(snapshot: SessionSnapshot, history entries: [String]) {
        self.snapshot = snapshot
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            fds = [-1, -1]
        }
        wake = (fds[0], fds[1])
        // libedit decodes lines by the locale: in "C" a non-ASCII history entry (a masked "••••")
        // ends history browsing. Use the environment's locale, else C.UTF-8.
        let locale = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"
        if locale == "C" || locale == "POSIX" { setlocale(LC_CTYPE, "C.UTF-8") }
        editLine = el_init("fathom", fathom_stdin(), fathom_stdout(), fathom_stderr())
        history = history_init()
        fathom_history_setsize(history, Int32(HistoryStore.defaultLimit))
        fathom_history_setunique(history, 1)
        for entry in entries { fathom_history_enter(history, entry) }

        fathom_el_set_editor(editLine, "emacs")
        // No libedit signal handlers: they save and restore SIGINT's around each line, racing the
        // DispatchSource that cancels commands. ISIG is off while editing, so Ctrl-C is a key there.
        fathom_el_set_signal(editLine, 0)
        fathom_el_set_history(editLine, history)
        fathom_el_disable_isig(editLine)
        fathom_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        fathom_el_set_prompt(
            editLine,
            { editLine in
                guard let editLine, let reader = EditLineReader.owner(of: editLine) else { return nil }
                return reader.prompt
            }, 1)
        fathom_el_addfn(
            editLine, "fathom-complete", "Complete the word before the cursor",
            { editLine, _ in
                guard let editLine, let reader = EditLineReader.owner(of: editLine) else { return UInt8(CC_ERROR) }
                return reader.complete(editLine)
            })
        fathom_el_bind(editLine, "^I", "fathom-complete")
        fathom_el_addfn(
            editLine, "fathom-interrupt", "Discard the line",
            { editLine, _ in
                guard let editLine, let reader = EditLineReader.owner(of: editLine) else { return UInt8(CC_ERROR) }
                return reader.discardLine(editLine)
            })
        fathom_el_bind(editLine, "^C", "fathom-interrupt")
        if wake.read >= 0 {
            fathom_el_set_getcfn(
                editLine,
                { editLine, character in
                    guard let editLine, let character, let reader = EditLineReader.owner(of: editLine) else {
                        return -1
                    }
                    return reader.readCharacter(editLine, into: character)
                })
        }

        // Weak: after Ctrl-D the loop that owns the reader may end (and release it) while this
        // thread comes round for another job; `unowned` read a destroyed reader there and trapped.
        let thread = Thread { [jobs, weak self] in
            while true {
                let job = jobs.take()
                guard let self else { return }
                self.run(job)
            }
        }
        thread.name = "fathom-line-editor"
        thread.start()
    }

    var showsPrompt: Bool { true }

    func readLine(prompt: String) async -> LineInput? {
        await withCheckedContinuation { continuation in
            jobs.put(.read(prompt: prompt, continuation))
        }
    }

    func remember(_ entry: String) {
        jobs.put(.remember(entry))
    }

    /// Prints above the line being edited — the line cleared, `write` run, the prompt (a new
    /// one, if given) and the line drawn again — or now, when no line is being edited.
    func interject(prompt: String?, _ write: @escaping @Sendable () -> Void) {
        let now = interjections.withLock { state -> Bool in
            guard state.editing else { return true }
            state.writes.append(write)
            if let prompt { state.prompt = prompt }
            return false
        }
        if now {
            write()
            return
        }
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
    }

    // MARK: - On the editor thread

    private func run(_ job: Job) {
        switch job {
        case .remember(let entry):
            fathom_history_enter(history, entry)
        case .read(let text, let continuation):
            free(prompt)
            // The path in the prompt was typed or pasted: finished like every rendered text.
            prompt = strdup(Self.escapingANSI(TerminalText.finish(text)))
            interrupted = false
            var count: Int32 = 0
            interjections.withLock { $0.editing = true }
            let line = el_gets(editLine, &count)
            // What arrived while the line was entered prints after it.
            let writes = interjections.withLock { state in
                state.editing = false
                state.prompt = nil
                defer { state.writes = [] }
                return state.writes
            }
            for write in writes { write() }
            // Checked first: a discarded line comes back empty, which would otherwise read as Ctrl-D.
            if interrupted {
                StandardStreams.write("\n", to: STDOUT_FILENO)
                continuation.resume(returning: .interrupted)
                return
            }
            guard let line, count > 0 else {
                continuation.resume(returning: nil)
                return
            }
            var text = String(cString: line)
            if text.hasSuffix("\n") { text.removeLast() }
            continuation.resume(returning: .line(text))
        }
    }

    /// libedit's read function: the next character from standard input (UTF-8 decoded), and
    /// meanwhile whatever is interjected, printed above the line. 1 with a character, 0 at the
    /// end of input, -1 on an error.
    private func readCharacter(_ editLine: OpaquePointer, into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        while true {
            var fds = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if fds[1].revents != 0 { printInterjections(editLine) }
            guard fds[0].revents != 0 else { continue }
            guard let first = readByte() else { return 0 }
            let length =
                switch first {
                case 0..<0x80: 1
                case 0xC0..<0xE0: 2
                case 0xE0..<0xF0: 3
                case 0xF0..<0xF8: 4
                default: 1
                }
            var bytes = [first]
            while bytes.count < length, let next = readByte() { bytes.append(next) }
            let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
            character.pointee = wchar_t(bitPattern: scalar.value)
            return 1
        }
    }

    private func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR { continue }
            return nil
        }
    }

    /// Clears the line being edited, prints what was interjected, and draws the prompt and the
    /// line again below it.
    private func printInterjections(_ editLine: OpaquePointer) {
        var drained = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &drained, drained.count) > 0 {}
        let (writes, newPrompt) = interjections.withLock { state in
            defer {
                state.writes = []
                state.prompt = nil
            }
            return (state.writes, state.prompt)
        }
        guard !writes.isEmpty else { return }
        StandardStreams.write("\r\u{1B}[K", to: STDOUT_FILENO)
        for write in writes { write() }
        if let newPrompt {
            free(prompt)
            prompt = strdup(Self.escapingANSI(TerminalText.finish(newPrompt)))
        }
        fathom_el_refresh(editLine)
    }

    private static func owner(of editLine: OpaquePointer) -> EditLineReader? {
        guard let data = fathom_el_get_clientdata(editLine) else { return nil }
        return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue()
    }

    /// The text before the cursor, and the whole line's length in bytes.
    private func lineBeforeCursor(_ editLine: OpaquePointer) -> (String, cursorToEnd: Int, length: Int) {
        let info = el_line(editLine).pointee
        let before = UnsafeRawBufferPointer(
            start: UnsafeRawPointer(info.buffer), count: info.cursor - info.buffer)
        return (String(decoding: before, as: UTF8.self), info.lastchar - info.cursor, info.lastchar - info.buffer)
    }

    private func complete(_ editLine: OpaquePointer) -> UInt8 {
        let (before, _, _) = lineBeforeCursor(editLine)
        let completion = Completer(values: snapshot.current).complete(before)
        let candidates = completion.candidates
        guard !candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let replacement = candidates.count == 1 ? candidates[0] : Completer.commonPrefix(candidates)
        if replacement.utf8.count > completion.word.utf8.count || candidates.count == 1 {
            el_deletestr(editLine, Int32(completion.word.count))
            el_insertstr(editLine, replacement)
            return UInt8(CC_REFRESH)
        }
        let width = (candidates.map(\.count).max() ?? 0) + 2
        var rows: Int32 = 0
        var columns: Int32 = 0
        fathom_terminal_size(&rows, &columns)
        let perRow = max(1, Int(columns == 0 ? 80 : columns) / width)
        var listing = "\n"
        for (index, candidate) in candidates.enumerated() {
            listing += candidate.padding(toLength: width, withPad: " ", startingAt: 0)
            if (index + 1) % perRow == 0 { listing += "\n" }
        }
        if !listing.hasSuffix("\n") { listing += "\n" }
        // Candidates include paths harvested from responses: outside text.
        StandardStreams.write(TerminalText.visible(listing), to: STDOUT_FILENO)
        return UInt8(CC_REDISPLAY)
    }

    private func discardLine(_ editLine: OpaquePointer) -> UInt8 {
        let (_, toEnd, length) = lineBeforeCursor(editLine)
        el_cursor(editLine, Int32(toEnd))
        el_deletestr(editLine, Int32(length))
        interrupted = true
        StandardStreams.write("^C", to: STDOUT_FILENO)
        return UInt8(CC_NEWLINE)
    }

    /// Wraps ANSI escape sequences in `\u{1}` so libedit does not count them as width.
    static func escapingANSI(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{1B}" {
                result += "\u{1}"
                inEscape = true
            }
            result.unicodeScalars.append(scalar)
            if inEscape, scalar == "m" {
                result += "\u{1}"
                inEscape = false
            }
        }
        return result
    }
}

/// A blocking queue for the editor thread.
final class JobQueue<Job>: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [Job] = []

    func put(_ job: Job) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func take() -> Job {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty { condition.wait() }
        return jobs.removeFirst()
    }
}
