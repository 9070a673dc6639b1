import FathomHTTP
import Foundation

/// The loop: read an entry, run it, print what it returned, remember it; until `exit` or the
/// end of input. The prompt at a terminal and the script runner (`-c`, standard input) alike.
///
/// The one place that does I/O for a session; the executor it drives returns values, as it does
/// for tests.
public final class REPL: Sendable {
    let executor: Executor
    let reader: any LineReader
    let history: HistoryStore
    /// Background outputs held while a line that opens a conversation runs.
    let gate = BackgroundGate()
    let palette: Palette
    let printer: OutputPrinter
    /// Whether a person is at a terminal: entries go to the history file, and the exit status is 0.
    let interactive: Bool

    /// Where lines come from.
    public enum Input: Sendable {
        /// `-c` arguments, in order.
        case arguments([String])
        /// The line editor on a terminal: prompt, completion, history.
        case terminal
        /// Standard input read plainly: no prompt, no editing.
        case standardInput
    }

    public convenience init(
        executor: Executor, input: Input, console: any Console, history: HistoryStore, colors: Bool,
        interactive: Bool, format: OutputFormat = .text
    ) {
        let reader: any LineReader =
            switch input {
            case .arguments(let lines): ArgumentLineReader(lines)
            case .terminal: EditLineReader(snapshot: executor.feeds.snapshot, history: history.all)
            case .standardInput: PlainLineReader()
            }
        self.init(
            executor: executor, reader: reader, console: console, history: history, colors: colors,
            interactive: interactive, format: format)
    }

    init(
        executor: Executor, reader: any LineReader, console: any Console, history: HistoryStore, colors: Bool,
        interactive: Bool, format: OutputFormat = .text
    ) {
        self.executor = executor
        self.reader = reader
        self.history = history
        self.palette = Palette(enabled: colors)
        self.printer = OutputPrinter(
            console: console, format: format, palette: Palette(enabled: colors), redactor: executor.redactor)
        self.interactive = interactive
    }

    /// What a session starts with, from the command line: each becomes the command that does it.
    public enum StartupStep: Sendable {
        /// The demo API at `url`: `{{demo}}` is its URL, the base, and its own description loaded
        /// quietly (the tour says so) unless `describes` is false (another `--spec` is given);
        /// `{{grpc}}` is its gRPC service's `HOST:PORT`, when it has one.
        case demo(url: String, describes: Bool, grpc: String? = nil)
        /// `fathom URL`: the base URL.
        case base(String)
        /// `--env NAME`.
        case environment(String)
        /// `--spec FILE|URL`.
        case spec(String)
        /// A setting from the person's config (``UserConfig/commandLines``): a prompt command's
        /// line, run quietly (a failure is still shown).
        case setting(String)

        /// The commands that do it, each with whether it runs quietly; the demo's variables are
        /// defined on `executor` first.
        func commands(defining executor: Executor) async throws(CommandError) -> [(command: any Command, quiet: Bool)] {
            switch self {
            case .demo(let url, let describes, let grpc):
                // A variable, so that a saved demo session replays against any demo's port.
                await executor.define("demo", url)
                if let grpc { await executor.define("grpc", grpc) }
                var commands: [(command: any Command, quiet: Bool)] = [(BaseCommand(url: "{{demo}}"), false)]
                if describes { commands.append((SpecCommand(action: .load("{{demo}}/openapi.json")), true)) }
                return commands
            case .base(let url): return [(BaseCommand(url: url), false)]
            case .environment(let name): return [(EnvCommand(use: name), false)]
            case .spec(let source): return [(SpecCommand(action: .load(source)), false)]
            case .setting(let line): return try CommandParser.parse(line).map { [($0, true)] } ?? []
            }
        }
    }

    /// Runs the start-up steps before the loop starts, printing what they return — only
    /// failures for the quiet ones; `false` when one failed.
    public func start(with steps: [StartupStep]) async -> Bool {
        var succeeded = true
        for step in steps {
            let commands: [(command: any Command, quiet: Bool)]
            do {
                commands = try await step.commands(defining: executor)
            } catch {
                printer.print([.failure(Failure(.command(error)))], pager: .off)
                succeeded = false
                continue
            }
            for (command, quiet) in commands {
                let result = await executor.run(command, text: command.line, location: nil)
                let shown =
                    quiet ? result.outputs.filter { if case .failure = $0 { true } else { false } } : result.outputs
                printer.print(shown, pager: .off)
                if interactive { await executor.updateSnapshot(after: result) }
                if result.outcome == .failed { succeeded = false }
            }
        }
        return succeeded
    }

    /// Runs until the end; returns the exit status: 0 when every command succeeded, else 1 — or
    /// always 0 for an interactive session, where failures were seen as they happened.
    public func run() async -> Int32 {
        let interrupts = InterruptHandler(exitsWhenIdle: !interactive)
        var assembler = LineAssembler()
        var failures = 0
        // The input's line numbers: a script's failure says on which line its entry began.
        var lineNumber = 0
        var entryStart = 1
        // A WebSocket's messages print as they arrive: above the line being edited at the prompt.
        let (reader, printer, palette, snapshot) = (self.reader, self.printer, self.palette, executor.feeds.snapshot)
        let gate = self.gate
        executor.feeds.background.listen { output in
            guard !gate.hold(output) else { return }
            reader.interject(prompt: PromptRenderer(palette: palette).prompt(snapshot.current)) {
                printer.print([output], pager: .off)
            }
        }
        defer { executor.feeds.background.listen(nil) }
        while true {
            // What arrived meanwhile (a structure check's findings), before the next prompt.
            printer.print(await executor.takeNotices())
            let prompt = !reader.showsPrompt ? "" : assembler.isContinuing ? palette.dim("… ") : prompt()
            guard let input = await reader.readLine(prompt: prompt) else {
                if interactive, !assembler.isContinuing, executor.feeds.snapshot.current.conversation != nil {
                    // Ctrl-D on a conversation's prompt closes it and returns to the main prompt.
                    StandardStreams.write("\n", to: STDOUT_FILENO)
                    if await run(.success(CloseCommand()), text: "close", interrupts) == .failed { failures += 1 }
                    continue
                }
                // End of input: a half-read entry still runs, and fails clearly if it is incomplete.
                if let entry = assembler.flush(),
                    [.failed, .checkFailed].contains(await run(entry, interrupts, line: entryStart))
                {
                    failures += 1
                }
                break
            }
            guard case .line(let line) = input else {
                assembler.cancel()
                continue
            }
            lineNumber += 1
            if !assembler.isContinuing { entryStart = lineNumber }
            guard let entry = assembler.add(line) else { continue }
            let outcome = await run(entry, interrupts, line: entryStart)
            if outcome == .exit { break }
            if outcome == .failed || outcome == .checkFailed { failures += 1 }
        }
        await executor.endConversation()
        await executor.writeArchive()
        if !interactive {
            // A script's lines ran without waiting for the structure check; its findings come
            // at the end (they fail nothing: `spec problems` and `validate strict` act on them).
            await executor.finishStructureChecks()
            printer.print(await executor.takeNotices())
        }
        return failures == 0 || interactive ? 0 : 1
    }

    private func run(_ entry: String, _ interrupts: InterruptHandler, line: Int? = nil) async -> Executor.Outcome {
        guard !entry.allSatisfy({ $0 == " " || $0 == "\t" }) else { return .succeeded }
        let executor = self.executor
        // A script's failures carry the line their entry began on (`--output json`'s `line`).
        let line = interactive ? nil : line
        // Parsed once: the loop reads what it needs of the command, and the executor runs it.
        let parsed = Result { () throws(CommandError) in try CommandParser.parse(entry) }
        let outcome = await run(parsed, text: entry, interrupts, line: line)
        if interactive {
            // Masked after running: a line that declared a secret has registered it by now,
            // whether it ran or failed. A line that is not a command at all (a misspelt `auht
            // bearer …`) declared nothing: it is kept for this session's recall only, never
            // written to the history file.
            let masked = executor.redactor.redact(entry)
            if case .success = parsed { history.add(masked) }
            reader.remember(masked)
        }
        return outcome
    }

    /// Runs a parsed line (or says why it did not parse) and prints what it brings.
    private func run(
        _ parsed: Result<(any Command)?, CommandError>, text: String, _ interrupts: InterruptHandler, line: Int? = nil
    ) async -> Executor.Outcome {
        let opens = (try? parsed.get())??.opensConversation ?? false
        return await interrupts.run { [self] in
            await self.run(parsed, text: text, line: line, opensConversation: opens)
        }
    }

    /// Runs one entry and prints its outputs (and a replay it asked for).
    private func run(
        _ parsed: Result<(any Command)?, CommandError>, text: String, line: Int? = nil,
        opensConversation opens: Bool = false
    ) async -> Executor.Outcome {
        // At a terminal a slow line says how long it has run, and that Ctrl-C cancels it.
        let notice =
            interactive
            ? SlowLineNotice(console: printer.console, palette: palette, progress: executor.feeds.progress) : nil
        // A stream's head and events print as they arrive, in place of the notice.
        let printer = self.printer
        executor.feeds.live.listen { output in
            notice?.finish()
            printer.print([output], pager: .off)
        }
        // A line that opens a conversation shows its own output before the first message.
        if opens { gate.close() }
        defer { if opens { printer.print(gate.open(), pager: .off) } }
        var result = await executor.run(parsed, text: text)
        if let line {
            result.outputs = result.outputs.map { output in
                guard case .failure(var failure) = output, failure.location == nil else { return output }
                failure.line = line
                return .failure(failure)
            }
        }
        executor.feeds.live.listen(nil)
        notice?.finish()
        printer.print(result.outputs, pager: await executor.pagerMode)
        if interactive { await executor.updateSnapshot(after: result) }
        guard let followUp = result.followUp else { return result.outcome }
        if case .paste(let format) = followUp { return await paste(format) }
        return await Self.perform(followUp, executor: executor, printer: printer, colors: palette.enabled)
    }

    /// Reads the lines pasted after `import FORMAT -` until the paste is whole (or input ends),
    /// and imports them. The paste is data: it never reaches the history.
    private func paste(_ format: Importer.Format) async -> Executor.Outcome {
        var collector = PasteCollector(format: format)
        while true {
            guard let input = await reader.readLine(prompt: palette.dim("paste> ")) else { break }
            guard case .line(let line) = input else {
                printer.print([.event(.importCancelled)], pager: .off)
                return .failed
            }
            if collector.add(line) { break }
        }
        guard !collector.text.isEmpty else {
            printer.print([.failure(Failure(.command(CommandError(.session, "nothing was pasted"))))], pager: .off)
            return .failed
        }
        let result = await executor.importPaste(collector.text, format: format)
        printer.print(result.outputs, pager: await executor.pagerMode)
        if interactive { await executor.updateSnapshot(after: result) }
        guard let followUp = result.followUp else { return result.outcome }
        return await Self.perform(followUp, executor: executor, printer: printer, colors: palette.enabled)
    }

    /// Does what a command handed back: a replay in fresh sessions, or a file's lines in this
    /// session, each printed as it runs. `depth` counts files loading files.
    static func perform(
        _ followUp: FollowUp, executor: Executor, printer: OutputPrinter, colors: Bool, depth: Int = 0
    ) async -> Executor.Outcome {
        switch followUp {
        case .replay(let files, let compare, let variables):
            var options = ReplayRunner.Options()
            options.compare = compare
            options.colors = colors
            options.format = printer.format
            options.executor = executor.options
            options.variables = variables
            let status = await ReplayRunner(options: options, output: printer.console, prompter: printer.console)
                .run(files: files)
            return status == 0 ? .succeeded : .failed
        case .load(let file):
            var failures = 0
            let ran = await LoadedLines.run(file, in: executor, depth: depth) { entry in
                let result = await executor.run(entry.command, text: entry.text, location: "\(file.path):\(entry.line)")
                printer.print(result.outputs, pager: await executor.pagerMode)
                var outcome = result.outcome
                if let nested = result.followUp {
                    outcome = await perform(
                        nested, executor: executor, printer: printer, colors: colors, depth: depth + 1)
                }
                if outcome == .failed || outcome == .checkFailed { failures += 1 }
                return outcome != .exit
            }
            guard ran else {
                printer.print(LoadCommand.tooDeep)
                return .failed
            }
            let (outcome, summary) = LoadCommand.summary(of: file, failures: failures)
            printer.print(summary)
            return outcome
        case .paste:
            printer.print(ImportCommand.noPasteHere)
            return .failed
        }
    }

    /// `GET 127.0.0.1:8080/users> `, with what the draft carries besides: `[2 headers, body]`.
    func prompt() -> String {
        let values = executor.feeds.snapshot.current
        return PromptRenderer(palette: palette).prompt(values)
    }
}
