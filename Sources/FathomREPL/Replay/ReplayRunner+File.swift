import FathomHTTP
import FathomOpenAPI
import Foundation

/// One file in a fresh session.
extension ReplayRunner {
    /// What comes after a replayed line.
    enum Next {
        case next
        /// `exit` ends the file.
        case exit
        /// The file stops: a failed request (without `--continue-on-error`), or the run was stopped.
        case stop
    }

    /// Runs `plan`'s file in `executor`'s session, from its first line until its end, its
    /// `exit`, its first failed request, or the run's stop.
    func run(_ plan: Plan, executor: Executor, asked: [(name: String, value: String)]) async -> FileReport {
        var run = FileRun(runner: self, plan: plan, executor: executor)
        return await run.run(asked: asked)
    }
}

/// The state of one file as it runs: the request being reported on, what the setup lines
/// before it came to, the identities that match responses to recordings.
struct FileRun {
    let runner: ReplayRunner
    let plan: Plan
    let executor: Executor
    var options: ReplayRunner.Options { runner.options }
    var file: SessionFile { plan.file }

    var report: FileReport
    /// The request being run, from its line to the next request's.
    var current: RequestReport?
    /// The WebSocket conversation the current request's line opened: recorded and compared as
    /// it stands when the block ends.
    var conversation: ResponseHistory.ExchangeEntry?
    /// Failures of the lines before the first request: reported with it.
    var carried: [ReplayFailure] = []
    /// The request of the current block got no answer: its `expect` and `let` lines are not run.
    var unanswered = false
    var identities = RequestIdentities()
    var requestCount = 0
    /// Why the file stopped early, for the requests it did not run.
    var stopped: String?
    /// With `--record`: the responses, written as the file's recording at the end.
    var recording: Recording
    var unrecorded = 0
    /// The names given so far: two tests of one file never share one.
    var names = Set<String>()
    let printer: OutputPrinter

    typealias Plan = ReplayRunner.Plan
    typealias Next = ReplayRunner.Next

    init(runner: ReplayRunner, plan: Plan, executor: Executor) {
        self.runner = runner
        self.plan = plan
        self.executor = executor
        report = FileReport(path: plan.file.path, redactor: executor.redactor)
        printer = OutputPrinter(
            console: runner.output, format: .json, palette: Palette(enabled: false), redactor: executor.redactor)
        let recordingPath = Recording.path(forSession: plan.file.path)
        // Kept across recordings, so digests of unchanged secrets do not churn in git.
        let key = (try? Recording.load(recordingPath))?.key.nonEmpty ?? Recording.newKey()
        recording = Recording(session: (plan.file.path as NSString).lastPathComponent, key: key)
    }

    mutating func run(asked: [(name: String, value: String)]) async -> FileReport {
        await executor.resolveFiles(besideFile: file.path)
        // Given before the file's `secret NAME` lines, which then mark them secret.
        for (name, value) in asked + plan.secrets { await executor.define(name, value) }
        if !options.quiet, let started = runner.renderer.fileStarted(file.path) { runner.output.write(started) }
        if plan.recordingMissing {
            report.notes.append(
                "no recording (\(Recording.path(forSession: file.path))): compared with nothing — `fathom replay --record \(file.path)` makes one"
            )
        }
        if let environment = options.environment {
            let command = EnvCommand(use: environment)
            let result = await executor.run(command, text: command.line, location: nil)
            if result.outcome == .failed { carried += Self.failures(result.outputs) }
            // Its variables beat the file's `set` lines; the command line's beat them.
            await executor.pinEnvironmentVariables()
        }
        for (name, value) in options.variables { await executor.define(name, value, pinned: true) }
        for note in report.notes where !options.quiet || options.format == .json {
            runner.output.write(runner.renderer.note(note, file: file.path))
        }

        var reached = file.entries.count
        var exitLine: Int?
        for (index, entry) in file.entries.enumerated() {
            // The block before a request ends first: it may stop the file before this one runs.
            if entry.command.sendsRequest { await finish() }
            if stopped == nil, let reason = runner.stopReason() { stopped = reason.skipped }
            if stopped != nil {
                reached = index
                break
            }
            let next = await process(entry, in: file.path, loadedFrom: nil, depth: 0)
            if next == .exit {
                reached = index + 1
                exitLine = entry.line
                break
            }
        }
        await finish()
        // What did not run is reported, so a red run lists the same tests as a green one.
        let rest = file.entries[reached...].filter(\.command.sendsRequest)
        for entry in rest {
            var request = RequestReport(
                name: RequestReport.name(of: entry, redactor: executor.redactor), line: entry.line)
            request.skipped = stopped ?? exitLine.map { "not run: `exit` at line \($0) ends the file" } ?? "not run"
            if !carried.isEmpty {
                // The setup lines failed: the first request reports why, instead of being skipped.
                request.failures = carried
                request.skipped = nil
                carried = []
            }
            append(request)
        }
        if !carried.isEmpty {
            var setup = RequestReport(
                name: "setup (line \(file.entries.first?.line ?? 1))", line: file.entries.first?.line ?? 1)
            setup.failures = carried
            append(setup)
        }
        if options.record { writeRecording() }
        // A conversation the file left open ends with it.
        await executor.endConversation()
        // What the structure check of a description this file loaded found: said before the summary.
        await executor.finishStructureChecks()
        for notice in await executor.takeNotices() {
            let text = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor).render(notice).text
            let message = text.trimmingCharacters(in: .newlines)
            report.notes.append(message)
            runner.output.write(runner.renderer.note(message, file: file.path))
        }
        return report
    }

    /// One line of `path` (the file, or a file it loads), and whether to go on after it.
    mutating func process(_ entry: SessionFile.Entry, in path: String, loadedFrom: String?, depth: Int) async -> Next {
        let command = entry.command
        if command.sendsRequest {
            await finish()
            if stopped != nil { return .stop }
            requestCount += 1
            var request = RequestReport(
                name: RequestReport.name(of: entry, in: loadedFrom, redactor: executor.redactor), line: entry.line,
                loadedFrom: loadedFrom)
            request.ordinal = requestCount
            request.failures = carried
            carried = []
            current = request
            unanswered = false
            if !request.failures.isEmpty, !options.continueOnError {
                // The lines before it failed: it is not sent.
                await finish()
                return .stop
            }
        } else if unanswered, command.readsLastResponse {
            // Its request got no answer: checking or capturing from nothing only adds noise.
            return .next
        }
        let location = "\(path):\(entry.line)"
        var result = await executor.run(command, text: entry.text, location: location)
        var attempts = 0
        while command.sendsRequest, attempts < options.retries, Self.isRetryable(result), runner.stopReason() == nil {
            attempts += 1
            try? await Task.sleep(for: options.retryInterval)
            if runner.stopReason() != nil { break }
            result = await executor.run(command, text: entry.text, location: location)
        }
        if options.format == .json { printer.print(result.outputs) }
        if let reason = runner.stopReason(),
            result.outcome == .failed || command.sendsRequest && !result.answered && !result.openedWebSocket
        {
            // Stopped while it ran: the line says so, not how the cancelled request failed.
            record([.interrupted(reason)])
            stopped = reason.skipped
            return .stop
        }
        if command.sendsRequest {
            current?.retries = attempts
            unanswered = !result.answered && !result.openedWebSocket
        }
        for case .batch(let batch) in result.outputs {
            // A batch is one line of the report: its requests, its commonest status, its time.
            current?.sent = "\(batch.method) \(batch.shownPath) × \(batch.completed)"
            current?.status = batch.statuses.max { $0.count < $1.count }.map { HTTPStatus(code: $0.code) }
            current?.time = batch.elapsed
        }
        for case .webSocket(let output) in result.outputs {
            if case .opened(let url, _) = output.kind { current?.sent = "WS \(url)" }
        }
        if let number = result.openedConversation { conversation = await executor.record.responses.exchange(number) }
        for case .response(let response) in result.outputs {
            current?.sent = "\(response.response.request.method) \(response.shownPath)"
            current?.status = response.response.status
            if let call = response.grpc {
                current?.sent = "call \(call.method)"
                current?.grpcStatus = call.status
            }
            current?.time = response.response.timing.total
            current?.response = response
            current?.schema = response.schema
            if options.schemaFails, let schema = response.schema, schema.operation != nil, !schema.violations.isEmpty {
                current?.failures.append(.schema(schema))
            }
            if let errors = response.graphQLErrors, let first = errors.first {
                let count = "\(errors.count) error\(errors.count == 1 ? "" : "s")"
                current?.unexpectedGraphQLErrors = SchemaCheck(
                    operation: response.schema?.operation ?? "GraphQL",
                    violations: [
                        SchemaViolation(
                            path: "$.errors",
                            message:
                                "\(count) (the first: \(first.message)); `expect errors` in the file says they are meant"
                        )
                    ])
            }
        }
        // The block looks at its GraphQL errors: they are its to judge.
        if command.checksGraphQLErrors { current?.unexpectedGraphQLErrors = nil }
        var failures: [ReplayFailure] = []
        for case .expectation(let expectation) in result.outputs {
            current?.expectations += 1
            guard !expectation.result.passed else { continue }
            current?.failedExpectations += 1
            // `expect schema` repeats what the response's own check already failed with.
            let repeatsSchema =
                command.checksResponseSchema
                && current?.failures.contains { if case .schema = $0 { true } else { false } } == true
            if !repeatsSchema { failures.append(.output(.expectation(expectation))) }
        }
        if result.outcome == .failed {
            failures += Self.failures(result.outputs)
            if failures.isEmpty { failures = [.failed(location: location)] }
        }
        switch result.followUp {
        case .load(let loaded)?:
            // A file this one loads runs here, line by line, in the same session and report,
            // its file names read from its own folder.
            record(failures)
            failures = []
            var next = Next.next
            let ran = await LoadedLines.run(loaded, in: executor, depth: depth) { nested in
                next = await process(nested, in: loaded.path, loadedFrom: loaded.path, depth: depth + 1)
                return next == .next
            }
            if !ran { failures = Self.failures([LoadCommand.tooDeep]) }
            // `exit` in a loaded file ends that file, as at the prompt.
            if next == .stop { return .stop }
        case .replay?:
            failures.append(.nestedReplay(location: location))
        case .paste?:
            failures += Self.failures([ImportCommand.noPasteHere])
        case nil:
            break
        }
        record(failures)
        return result.outcome == .exit ? .exit : .next
    }

    /// Adds failures to the request being run, or to the setup's before the first.
    private mutating func record(_ failures: [ReplayFailure]) {
        guard !failures.isEmpty else { return }
        if current != nil { current!.failures += failures } else { carried += failures }
    }

    /// Ends the current request's block: compares it with its recording (or records it),
    /// reports it, and stops the file when it failed.
    mutating func finish() async {
        guard var block = current else { return }
        current = nil
        if options.schemaFails, let errors = block.unexpectedGraphQLErrors { block.failures.append(.schema(errors)) }
        let opened = conversation
        conversation = nil
        // A response, or the conversation the line opened as the file's lines made it.
        let response =
            block.response.map { RecordedResponse($0.response, target: $0.target) } ?? opened?.exchange.recorded()
        if let recorded = response {
            let identity = identities.next(method: recorded.method, target: recorded.target)
            if options.record {
                recording.entries.append(
                    recording.entry(
                        recorded, identity: identity, position: block.ordinal, line: block.line,
                        redactor: executor.redactor))
            } else if let recording = plan.recording {
                if let entry = recording.entry(for: identity, position: block.ordinal) {
                    let differences = RecordingComparison.differences(
                        recorded, recorded: entry, masker: recording.masker(executor.redactor),
                        volatile: await executor.volatileFields + options.volatile,
                        mode: options.additive ? .additive : .exact)
                    if !differences.isEmpty { block.failures.append(.recording(differences)) }
                    block.compared = true
                } else {
                    block.notes.append(
                        "no recorded response for \(identity): compared with nothing — `fathom replay --record \(file.path)` records it"
                    )
                }
            }
        } else if options.record {
            unrecorded += 1
        }
        // The report outlives the response: a replay of many large responses keeps none of them.
        block.response = nil
        append(block)
        if !block.failures.isEmpty, !options.continueOnError, stopped == nil {
            stopped = "not run: line \(block.line) failed — --continue-on-error runs the rest"
        }
    }

    private mutating func append(_ request: RequestReport) {
        var request = request
        // Two tests of one file never share a name (a file loaded twice).
        if names.contains(request.name) {
            var number = 2
            while names.contains("\(request.name) #\(number)") { number += 1 }
            request.name += " #\(number)"
        }
        names.insert(request.name)
        report.requests.append(request)
        if !options.quiet || !request.passed && request.skipped == nil {
            runner.output.write(runner.renderer.request(request, file: file.path, redactor: executor.redactor))
        }
    }

    /// `--record`: the responses as the file's recording, unless a request got none.
    private mutating func writeRecording() {
        let path = Recording.path(forSession: file.path)
        let message: String
        if unrecorded > 0 || report.requests.contains(where: { $0.skipped != nil }) {
            message = "not recorded: some requests got no response or did not run — \(path) is unchanged"
        } else {
            do {
                try AtomicFile.write(Data(executor.redactor.redact(recording.serialized()).utf8), to: path)
                message =
                    "recorded \(recording.entries.count) response\(recording.entries.count == 1 ? "" : "s") to \(path)"
            } catch {
                message = "cannot write \(path): \(ReplayRunner.reason(error)) — it is unchanged"
            }
        }
        report.notes.append(message)
        runner.output.write(runner.renderer.note(message, file: file.path))
    }

    /// A line that failed only because nothing answered: worth sending again (`--retry`).
    static func isRetryable(_ result: CommandResult) -> Bool {
        guard result.outcome == .failed else { return false }
        let failures = result.outputs.compactMap { output -> Failure? in
            if case .failure(let failure) = output { return failure }
            return nil
        }
        return !failures.isEmpty
            && failures.allSatisfy { if case .network = $0.reason { true } else { false } }
    }

    /// The failures among `outputs`: failed lines and expectations that do not hold.
    static func failures(_ outputs: [Output]) -> [ReplayFailure] {
        outputs.compactMap { output in
            switch output {
            case .failure: return .output(output)
            case .expectation(let expectation) where !expectation.result.passed: return .output(output)
            default: return nil
            }
        }
    }
}

extension Data {
    /// `nil` when empty.
    fileprivate var nonEmpty: Data? { isEmpty ? nil : self }
}
