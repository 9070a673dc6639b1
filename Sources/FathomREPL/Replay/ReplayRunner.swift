@_spi(Fathom) import FathomHTTP
import Foundation
import Synchronization

/// `fathom replay FILE…`: runs session files top to bottom, each in a fresh session, and reports
/// one line per request, every failed expectation or comparison, and a summary — as text, NDJSON
/// and JUnit XML.
///
/// Every file is read and checked before any request is sent (its lines parse, the files it
/// reads exist, its secrets have values, `--env` and `--spec` can be used): a problem ends the run
/// with status 2. Otherwise each file runs until its first failed request (the rest are
/// skipped, unless `continueOnError`), and the status says what happened: 0 passed, 1 a check
/// failed, 3 a runtime error (no answer, a missing secret, `--max-time`), 128+N a signal.
/// Each line is parsed once, when its file is read; the executor runs the parsed command and
/// returns its outputs, which the report reads as values.
public struct ReplayRunner: Sendable {
    public struct Options: Sendable {
        /// Diff each response against the file's recording.
        public var compare = false
        /// With ``compare``, accept members a JSON response gained.
        public var additive = false
        /// Write each file's responses as its recording instead of comparing.
        public var record = false
        /// JSONPaths left out of every comparison, beside each file's own `volatile` marks (a
        /// HAR has none of its own).
        public var volatile: [String] = []
        /// An OpenAPI description every file's session loads first (`spec FILE|URL`).
        public var spec: String?
        /// Whether a response that breaks its operation's schema fails its request (the
        /// default) or is only said (`--schema warn`).
        public var schemaFails = true
        /// Whether to report, after the run, which operations the files called and the statuses
        /// seen against those declared.
        public var coverage = false
        public var junitPath: String?
        /// `--env NAME`: switched to before each file runs; its variables beat the file's `set`.
        public var environment: String?
        /// The environments file, instead of the nearest `fathom.env.json` to each file.
        public var environmentFile: String?
        /// The `.env` file, instead of the nearest one to each file.
        public var dotEnvFile: String?
        /// Variables from the command line (`--var`, `FATHOM_VAR_NAME`): they beat the
        /// environment's and the file's own.
        public var variables: [(name: String, value: String)] = []
        /// Stop the whole run after the first file that fails.
        public var failFast = false
        /// How many files run at once; each file's report is printed whole, in file order.
        public var jobs = 1
        /// Run only the `index`-th (from 1) of `count` slices of the files.
        public var shard: Shard?
        /// Go on with a file's requests after one fails (by default the rest are skipped).
        public var continueOnError = false
        /// How many times a request that got no answer is sent again (never for a failed check).
        public var retries = 0
        public var retryInterval: Duration = .seconds(1)
        public var quiet = false
        public var colors = false
        public var format: OutputFormat = .text
        /// Options every file's session starts from.
        public var executor = Executor.Options()
        /// Set from outside (a signal, `--max-time`) to end the run; the report is written.
        public var stop = ReplayStop()

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

    /// One of `count` slices of a run's files: the files whose place in the sorted list, counted
    /// from 0, leaves `index - 1` divided by `count`. Every file is in exactly one slice, the same
    /// one on every machine, and slices differ in size by at most one file.
    public struct Shard: Sendable, Equatable {
        public var index: Int
        public var count: Int

        /// The files of this slice, in their order.
        func slice(_ files: [String]) -> [String] {
            files.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
        }
    }

    /// `2/4` as a shard; `nil` unless 1 ≤ I ≤ N.
    public static func shard(_ text: String) -> Shard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else { return nil }
        return Shard(index: index, count: count)
    }

    /// A duration as the command line gives it (`30s`, `500ms`, `2m`), as the language reads it.
    public static func duration(_ text: String) -> Duration? { DurationText.parse(text) }

    var renderer: ReplayRenderer {
        ReplayRenderer(palette: Palette(enabled: options.colors), format: options.format)
    }

    /// A file read and ready to run, with the options of its session.
    struct Plan: Sendable {
        var file: SessionFile
        var recording: Recording?
        /// Compared with no recording: there is none beside the file.
        var recordingMissing = false
        /// A HAR's own credentials: its requests are sent as they were.
        var secrets: [(name: String, value: String)] = []
        var isHAR = false
        var executor: Executor.Options
    }

    /// Runs every file; returns the exit status (0, 1, 2, 3, or 128 + a signal's number).
    public func run(files arguments: [String]) async -> Int32 {
        let started = ContinuousClock.now
        var (paths, inputProblems) = ReplayInputs.expand(arguments)
        if let shard = options.shard { paths = shard.slice(paths) }
        var problems = inputProblems + checkGivenFiles()
        var plans: [Plan] = []
        for path in paths {
            do {
                plans.append(try read(path))
            } catch {
                problems.append(contentsOf: error.problems)
            }
        }
        let reportProblems = checkReportPath()
        problems += reportProblems
        var loadedSpec: LoadedSpec?
        var findings: StructureFindings?
        if let spec = options.spec {
            do {
                let loaded = try await Executor(options: options.executor).loadSpec(spec, checked: false).0
                // Checked once, before any file runs: every file's strict validation reads it.
                findings = StructureFindings(loaded.description.structureProblems(), in: loaded.description)
                loadedSpec = loaded
            } catch let error as CommandError {
                problems.append(ReplayProblem(file: "--spec \(spec)", reason: error.message, hint: error.advice))
            } catch {
                problems.append(
                    ReplayProblem(file: "--spec \(spec)", reason: ErrorRenderer().message(Failure(error: error).reason))
                )
            }
        }
        // Secrets asked for at the terminal, once each, before anything is sent.
        var asked: [(name: String, value: String)] = []
        if problems.isEmpty {
            (problems, asked) = await checkSecretsAndEnvironments(plans)
        }
        guard problems.isEmpty else {
            complain(renderer.problems(problems))
            if reportProblems.isEmpty {
                writeReport(ReplaySummary(problems: problems, elapsed: ContinuousClock.now - started))
            }
            return 2
        }

        if let loadedSpec, let first = findings?.problems.first {
            let count = findings?.problems.count ?? 0
            output.write(
                renderer.note(
                    "--spec \(loadedSpec.source): OpenAPIKit's structure check found \(count) problem\(count == 1 ? "" : "s"), the first at \(first)",
                    file: loadedSpec.source))
        }
        var reports: [FileReport] = []
        var coverage = loadedSpec
        var calls: [String: Set<Int>] = [:]
        let given = loadedSpec.map { ($0, findings) }
        let finished = await runPlans(plans, given: given, asked: asked)
        for (report, specs) in finished {
            reports.append(report)
            // What each session called, added up (a file may load its own description).
            for (state, called) in specs {
                if coverage == nil { coverage = LoadedSpec(description: state.description, source: state.source) }
                if coverage?.description.title == state.description.title {
                    calls.merge(called) { $0.union($1) }
                }
            }
        }
        let summary = ReplaySummary(files: reports, elapsed: ContinuousClock.now - started, stopped: stopReason())
        output.write(renderer.summary(summary))
        if options.coverage {
            if let coverage {
                let listing = Output.listing(SpecCommand.coverage(coverage, calls: calls))
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
        if !writeReport(summary) { return 2 }
        return summary.status
    }

    /// A file's report and the descriptions its session used (for coverage).
    typealias Finished = (report: FileReport, specs: [(spec: LoadedSpec, calls: [String: Set<Int>])])

    /// The description `--spec` gave, loaded once, with what its structure check found.
    typealias Given = (spec: LoadedSpec, findings: StructureFindings?)

    /// Runs the plans, ``Options/jobs`` at once, and returns their reports in file order.
    ///
    /// With one job each file prints as it runs. With more, each file writes to its own buffer,
    /// printed whole once it and every file before it are done: the output is the same as one
    /// job's, only sooner, and never interleaved.
    private func runPlans(
        _ plans: [Plan], given: Given?, asked: [(name: String, value: String)]
    ) async
        -> [Finished]
    {
        guard options.jobs > 1, plans.count > 1 else {
            var finished: [Finished] = []
            for plan in plans { finished.append(await runPlan(plan, given: given, asked: asked)) }
            return finished
        }
        return await withTaskGroup(of: (Int, Finished, BufferedConsole).self) { group in
            var next = 0
            func start() {
                guard next < plans.count else { return }
                let index = next
                next += 1
                let buffer = BufferedConsole()
                let runner = ReplayRunner(options: options, output: buffer, prompter: prompter)
                group.addTask {
                    (index, await runner.runPlan(plans[index], given: given, asked: asked), buffer)
                }
            }
            for _ in 0..<min(options.jobs, plans.count) { start() }
            var done: [Int: (Finished, BufferedConsole)] = [:]
            var finished: [Finished] = []
            for await (index, result, buffer) in group {
                done[index] = (result, buffer)
                while let (result, buffer) = done.removeValue(forKey: finished.count) {
                    buffer.replay(to: output)
                    finished.append(result)
                }
                start()
            }
            return finished
        }
    }

    /// Runs one file in a fresh session (or reports it skipped, when the run is stopping).
    private func runPlan(
        _ plan: Plan, given: Given?, asked: [(name: String, value: String)]
    ) async
        -> Finished
    {
        if let reason = stopReason() {
            let report = skipped(plan.file, reason: reason.skipped)
            if !options.quiet {
                if let started = renderer.fileStarted(plan.file.path) { output.write(started) }
                for request in report.requests {
                    output.write(renderer.request(request, file: plan.file.path, redactor: report.redactor))
                }
            }
            return (report, [])
        }
        let executor = Executor(options: plan.executor)
        if let given { await executor.adopt(given.spec, findings: given.findings) }
        let report = await run(plan, executor: executor, asked: asked)
        if options.failFast, !report.passed { options.stop.stop(.failFast(file: plan.file.path)) }
        return (report, await executor.specCoverage())
    }

    /// Why the run is to stop now, if it is: `--fail-fast`, `--max-time`, a signal — or a
    /// cancelled task, taken as Ctrl-C.
    func stopReason() -> ReplayStop.Reason? {
        if let reason = options.stop.reason { return reason }
        return Task.isCancelled ? .signal(SIGINT) : nil
    }

    /// Writes the JUnit report, if one is asked for; `false` when it cannot be written.
    @discardableResult
    private func writeReport(_ summary: ReplaySummary) -> Bool {
        guard let path = options.junitPath else { return true }
        do {
            try AtomicFile.write(Data(JUnitReport.xml(summary).utf8), to: path)
            return true
        } catch {
            complain(renderer.junitFailure(path, error))
            return false
        }
    }

    /// The JUnit report's folder, made if it is missing: a report that cannot be written is
    /// a problem found before anything is sent, not after a passing run.
    private func checkReportPath() -> [ReplayProblem] {
        guard let path = options.junitPath else { return [] }
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                return [
                    ReplayProblem(
                        file: "--junit \(path)", reason: "cannot make the folder \(folder): \(Self.reason(error))")
                ]
            }
        } else if !folder.isEmpty, !isDirectory.boolValue {
            return [ReplayProblem(file: "--junit \(path)", reason: "\(folder) is a file, not a folder")]
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return [
                ReplayProblem(
                    file: "--junit \(path)", reason: "is a folder", hint: "name a file: --junit \(path)/junit.xml")
            ]
        }
        return []
    }

    /// An error as a sentence: a POSIX error's own words, not its domain and code.
    static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)).lowercased() }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        return nsError.localizedDescription
    }

    /// What the run itself says went wrong: for a person on standard error; for a script, as
    /// every other object, on standard output.
    func complain(_ text: String) {
        if options.format == .json { output.write(text) } else { output.writeError(text) }
    }

    /// A file that did not run: each of its requests skipped, for `reason`.
    func skipped(_ file: SessionFile, reason: String) -> FileReport {
        var report = FileReport(path: file.path, redactor: Redactor())
        for entry in file.entries where entry.command.sendsRequest {
            var request = RequestReport(
                name: RequestReport.name(of: entry, redactor: report.redactor), line: entry.line)
            request.skipped = reason
            report.requests.append(request)
        }
        return report
    }
}

/// Ends a replay early, from outside it: a signal handler or the `--max-time` timer says why,
/// then cancels the task. The runner stops sending, marks what did not run as skipped, and
/// writes its report.
public final class ReplayStop: Sendable {
    public enum Reason: Sendable, Equatable {
        /// SIGINT (2) or SIGTERM (15): the status is 128 + the number.
        case signal(Int32)
        /// `--max-time`: the status is 3.
        case maxTime(Duration)
        /// `--fail-fast` after a file failed: the status is the failure's.
        case failFast(file: String)

        /// Why a request did not run, for its report.
        var skipped: String {
            switch self {
            case .signal(let number): "not run: the run was interrupted (\(number == SIGTERM ? "SIGTERM" : "SIGINT"))"
            case .maxTime(let limit): "not run: the run took longer than --max-time \(limit.shortDescription)"
            case .failFast(let file): "not run: --fail-fast stopped the run after \(file) failed"
            }
        }

        /// What stopped the request that was running.
        var interrupted: String {
            switch self {
            case .signal(let number): "interrupted (\(number == SIGTERM ? "SIGTERM" : "SIGINT"))"
            case .maxTime(let limit): "the run took longer than --max-time \(limit.shortDescription)"
            case .failFast(let file): "--fail-fast: the run stopped after \(file) failed"
            }
        }
    }

    private let state = Mutex<Reason?>(nil)

    public init() {}

    /// Stops the run for `reason`; the first reason given is the one reported.
    public func stop(_ reason: Reason) {
        state.withLock { if $0 == nil { $0 = reason } }
    }

    public var reason: Reason? { state.withLock { $0 } }
}
