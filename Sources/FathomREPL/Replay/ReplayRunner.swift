import FathomHTTP
import Foundation

/// `fathom replay FILE…`: runs session files top to bottom, each in a fresh session, and reports
/// one line per request, every failed expectation or comparison, and a summary.
///
/// Every file is read and checked before any request is sent: an unreadable file, a line that does
/// not parse, a missing recording (with `compare`) or a secret with no value and no terminal to
/// ask on ends the run with status 2. Otherwise the status is 0 when everything passed, else 1.
/// Each line is parsed once, when its file is read; the executor runs the parsed command and
/// returns its outputs, which the report reads as values.
public struct ReplayRunner: Sendable {
    public struct Options: Sendable {
        public var compare = false
        /// JSONPaths left out of every comparison, beside each file's own `volatile` marks (a
        /// HAR has none of its own).
        public var volatile: [String] = []
        /// An OpenAPI description every file's session loads first (`spec FILE|URL`).
        public var spec: String?
        /// Whether to report, after the run, which operations the files called and the statuses
        /// seen against those declared.
        public var coverage = false
        public var junitPath: String?
        public var environment: String?
        public var variables: [(name: String, value: String)] = []
        public var failFast = false
        public var quiet = false
        public var colors = false
        public var format: OutputFormat = .text
        /// Options every file's session starts from.
        public var executor = Executor.Options()

        public init() {}
    }

    let options: Options
    /// Where the report goes.
    let output: any Console
    /// Where each session's prompts for secrets go (a terminal, when there is one).
    let prompter: any SecretPrompter

    public init(options: Options, output: any Console, prompter: any SecretPrompter) {
        self.options = options
        self.output = output
        self.prompter = prompter
    }

    private var renderer: ReplayRenderer {
        ReplayRenderer(palette: Palette(enabled: options.colors), format: options.format)
    }

    /// Runs every file; returns the exit status (0, 1 or 2).
    public func run(files: [String]) async -> Int32 {
        var executorOptions = options.executor
        executorOptions.prompter = prompter
        // Read and check everything first: nothing is sent when any file is broken.
        var plans: [(file: SessionFile, recording: Recording?)] = []
        /// A HAR's own credentials, by file: its requests are sent as they were.
        var fileSecrets: [String: [(name: String, value: String)]] = [:]
        var problems: [ReplayProblem] = []
        for path in files {
            do {
                if path.lowercased().hasSuffix(".har") {
                    // A HAR is its own recording: today's responses are compared with the ones it holds.
                    let har = try Importer.harReplay(path, redactor: Redactor())
                    plans.append((har.file, options.compare ? har.recording : nil))
                    fileSecrets[path] = har.secrets
                    continue
                }
                let file = try SessionFile.read(path)
                var recording: Recording?
                if options.compare {
                    recording = try Recording.load(Recording.path(forSession: path))
                }
                plans.append((file, recording))
            } catch let problem as SessionFile.Problem {
                let parts = problem.message.components(separatedBy: " — ")
                problems.append(
                    ReplayProblem(
                        file: problem.path, line: problem.line, column: problem.column, reason: parts[0],
                        hint: parts.count > 1 ? parts.dropFirst().joined(separator: " — ") : nil))
            } catch let error as CommandError {
                problems.append(ReplayProblem(file: path, reason: error.message, hint: error.hint))
            } catch {
                problems.append(ReplayProblem(file: path, reason: "\(error)"))
            }
        }
        var loadedSpec: LoadedSpec?
        if let spec = options.spec {
            do {
                loadedSpec = try await Executor(options: executorOptions).loadSpec(spec).0
            } catch let error as CommandError {
                problems.append(ReplayProblem(file: "--spec \(spec)", reason: error.message, hint: error.hint))
            } catch {
                problems.append(
                    ReplayProblem(file: "--spec \(spec)", reason: ErrorRenderer().message(Failure(error: error).reason))
                )
            }
        }
        /// Secrets asked for at the terminal, once each, before anything is sent.
        var asked: [(name: String, value: String)] = []
        if problems.isEmpty {
            (problems, asked) = await checkSecretsAndEnvironment(plans.map(\.file), executorOptions, given: fileSecrets)
        }
        guard problems.isEmpty else {
            complain(renderer.problems(problems))
            return 2
        }

        let started = ContinuousClock.now
        var reports: [FileReport] = []
        var stop = false
        var coverage = loadedSpec
        for plan in plans where !stop {
            let executor = Executor(options: executorOptions)
            if let loadedSpec { await executor.adopt(loadedSpec) }
            reports.append(
                await run(
                    plan.file, executor: executor, recording: plan.recording,
                    secrets: asked + (fileSecrets[plan.file.path] ?? []),
                    stop: &stop))
            // What each session called, added up (a file may load its own description).
            for state in await executor.session.specs {
                if coverage == nil { coverage = LoadedSpec(description: state.description, source: state.source) }
                if coverage?.description.title == state.description.title {
                    for (operation, statuses) in state.coverage {
                        coverage?.coverage[operation, default: []].formUnion(statuses)
                    }
                }
            }
        }
        let summary = ReplaySummary(
            files: reports, elapsed: ContinuousClock.now - started, skipped: plans.count - reports.count)
        output.write(renderer.summary(summary))
        if options.coverage {
            if let coverage {
                let listing = Output.listing(SpecCommand.coverage(coverage))
                output.write(
                    options.format == .json
                        ? JSONOutputRenderer(redactor: Redactor()).render(listing)
                        : OutputRenderer(palette: Palette(enabled: options.colors), redactor: Redactor()).render(
                            listing
                        )
                        .text)
            } else {
                complain(renderer.noCoverage())
            }
        }
        if let path = options.junitPath {
            do {
                try AtomicFile.write(Data(JUnitReport.xml(reports, elapsed: summary.elapsed).utf8), to: path)
            } catch {
                complain(renderer.junitFailure(path, error))
                return 2
            }
        }
        return summary.passed ? 0 : 1
    }

    /// What went wrong with the run itself: for a person on standard error; for a script, as
    /// every other object, on standard output.
    private func complain(_ text: String) {
        if options.format == .json { output.write(text) } else { output.writeError(text) }
    }

    /// One session that sends nothing answers for all files: the environment can be used, and
    /// every `secret NAME` has a value (environment, .env, --var) — or, at a terminal, is asked
    /// for now, once for every file, with the line that needs it, before the first request goes.
    private func checkSecretsAndEnvironment(
        _ files: [SessionFile], _ executorOptions: Executor.Options, given: [String: [(name: String, value: String)]]
    ) async -> (problems: [ReplayProblem], asked: [(name: String, value: String)]) {
        var problems: [ReplayProblem] = []
        var asked: [(name: String, value: String)] = []
        let probe = Executor(options: executorOptions)
        if let environment = options.environment {
            let command = EnvCommand(use: environment)
            let result = await probe.run(command, text: command.line, location: nil)
            if result.outcome == .failed {
                let reasons = result.outputs.compactMap { output -> String? in
                    guard case .failure(let failure) = output else { return nil }
                    return ErrorRenderer().message(failure.reason)
                }
                problems.append(ReplayProblem(file: "--env \(environment)", reason: reasons.joined(separator: " ")))
            }
        }
        for file in files {
            let secretNames = file.secretNames.filter { name in
                !options.variables.contains { $0.name == name }
                    && !(given[file.path] ?? []).contains { $0.name == name } && !asked.contains { $0.name == name }
            }
            for name in await probe.storedlessSecrets(secretNames) {
                let declared = file.entries.first {
                    ($0.command as? SecretCommand).map { $0.name == name && $0.value == nil } ?? false
                }?.line
                // The line that needs it says what it is for.
                let user = file.entries.first { $0.text.contains("{{\(name)}}") }
                if prompter.canAskForSecrets {
                    let context = user.map { " (\(file.path):\($0.line) \(Self.firstLine($0.text)))" } ?? ""
                    if let value = await prompter.readSecret(prompt: "\(name)\(context): "), !value.isEmpty {
                        asked.append((name, value))
                        continue
                    }
                }
                problems.append(
                    ReplayProblem(
                        file: file.path, line: declared, reason: "secret '\(name)' has no value",
                        hint: "set \(DotEnv.secretKey(for: name)) or add it to .env"))
            }
        }
        return (problems, asked)
    }

    private static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        return line.count > 60 ? line.prefix(60) + "…" : line
    }

    /// One file in a fresh session.
    private func run(
        _ file: SessionFile, executor: Executor, recording: Recording?, secrets: [(name: String, value: String)],
        stop: inout Bool
    ) async -> FileReport {
        for (name, value) in options.variables { await executor.define(name, value) }
        // Given before the file's `secret NAME` lines, which then mark them secret.
        for (name, value) in secrets { await executor.define(name, value) }
        let printer = OutputPrinter(
            console: output, format: .json, palette: Palette(enabled: false), redactor: executor.redactor)
        var report = FileReport(path: file.path, redactor: executor.redactor)
        if !options.quiet, let started = renderer.fileStarted(file.path) { output.write(started) }

        var current = RequestReport(name: "setup", line: file.entries.first?.line ?? 1, isSetup: true)
        if let environment = options.environment {
            let command = EnvCommand(use: environment)
            let result = await executor.run(command, text: command.line, location: nil)
            if result.outcome == .failed { current.failures += failures(result.outputs) }
        }
        var requestCount = 0

        func finish(_ block: RequestReport) async -> Bool {
            var block = block
            if !block.isSetup, let response = block.response, let recording,
                let recorded = recording.entry(forRequest: block.ordinal)
            {
                let differences = RecordingComparison.differences(
                    response.response, recorded: recorded, volatile: await executor.volatileFields + options.volatile,
                    redactor: executor.redactor)
                if !differences.isEmpty { block.failures.append(.recording(differences)) }
                block.compared = true
            }
            // The report outlives the response: a replay of many large responses keeps none of them.
            block.response = nil
            // Setup without failures is not worth a line or a test case.
            if block.isSetup, block.passed { return true }
            report.requests.append(block)
            if !options.quiet || !block.passed {
                output.write(renderer.request(block, file: file.path, redactor: executor.redactor))
            }
            return block.passed
        }

        /// One line of `path` (the file, or a file it loads), and whether to go on after it.
        func process(_ entry: SessionFile.Entry, in path: String, depth: Int) async -> Next {
            if entry.command.sendsRequest {
                if !(await finish(current)), options.failFast { return .stop }
                requestCount += 1
                current = RequestReport(name: "", line: entry.line, isSetup: false)
                current.ordinal = requestCount
            }
            let result = await executor.run(entry.command, text: entry.text, location: "\(path):\(entry.line)")
            if options.format == .json { printer.print(result.outputs) }
            for case .response(let response) in result.outputs {
                current.name = "\(response.response.request.method) \(response.shownPath)"
                current.status = response.response.status
                current.time = response.response.timing.total
                current.response = response
                current.schema = response.schema
            }
            for case .expectation(let expectation) in result.outputs {
                current.expectations += 1
                if !expectation.result.passed { current.failedExpectations += 1 }
            }
            let failed = result.outcome == .failed || result.outcome == .checkFailed
            var failures = failed ? self.failures(result.outputs) : []
            if failed, failures.isEmpty { failures = [.failed(location: "\(path):\(entry.line)")] }
            switch result.followUp {
            case .load(let loaded)?:
                // A file this one loads runs here, line by line, in the same session and report.
                guard depth < LoadCommand.depthLimit else {
                    failures += self.failures([LoadCommand.tooDeep])
                    break
                }
                for nested in loaded.entries {
                    let next = await process(nested, in: loaded.path, depth: depth + 1)
                    // `exit` in a loaded file ends that file, as at the prompt.
                    if next == .stop { return .stop }
                    if next == .exit { break }
                }
            case .replay?:
                failures.append(.nestedReplay(location: "\(path):\(entry.line)"))
            case .paste?:
                failures += self.failures([ImportCommand.noPasteHere])
            case nil:
                break
            }
            if !failures.isEmpty {
                if current.name.isEmpty, !current.isSetup {
                    // The line as written names the request; masked, as everything printed.
                    let firstLine = entry.text.split(separator: "\n").first.map(String.init) ?? entry.text
                    current.name = executor.redactor.redact(firstLine)
                }
                current.failures += failures
            }
            return result.outcome == .exit ? .exit : .next
        }

        for entry in file.entries {
            let next = await process(entry, in: file.path, depth: 0)
            if next == .stop {
                stop = true
                return report
            }
            if next == .exit { break }
        }
        if !(await finish(current)), options.failFast { stop = true }
        return report
    }

    /// What comes after a replayed line.
    private enum Next {
        case next
        case exit
        /// `--fail-fast` and a request failed.
        case stop
    }

    /// The failures among `outputs`: failed lines and expectations that do not hold.
    private func failures(_ outputs: [Output]) -> [ReplayFailure] {
        outputs.compactMap { output in
            switch output {
            case .failure: return .output(output)
            case .expectation(let expectation) where !expectation.result.passed: return .output(output)
            default: return nil
            }
        }
    }
}
