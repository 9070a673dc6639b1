import FathomHTTP
import Foundation
import Synchronization

/// `fathom replay FILE…`: runs session files top to bottom, each in a fresh session, and reports
/// one line per request, every failed expectation or comparison, and a summary.
///
/// Every file is read and checked before any request is sent: an unreadable file, a line that does
/// not parse, a missing recording (with `compare`) or a secret with no value and no terminal to
/// ask on ends the run with status 2. Otherwise the status is 0 when everything passed, else 1.
public struct ReplayRunner: Sendable {
    public struct Options: Sendable {
        public var compare = false
        public var junitPath: String?
        public var environment: String?
        public var variables: [(name: String, value: String)] = []
        public var failFast = false
        public var quiet = false
        public var colors = false
        /// Options every file's session starts from.
        public var executor = Executor.Options()

        public init() {}
    }

    let options: Options
    /// Where the report goes.
    let output: any Console
    /// Where each session's prompts for secrets go (a terminal, when there is one).
    let prompter: any Console

    public init(options: Options, output: any Console, prompter: any Console) {
        self.options = options
        self.output = output
        self.prompter = prompter
    }

    /// Runs every file; returns the exit status (0, 1 or 2).
    public func run(files: [String]) async -> Int32 {
        let palette = Palette(enabled: options.colors)
        // Read and check everything first: nothing is sent when any file is broken.
        var plans: [(file: SessionFile, recording: Recording?)] = []
        var problems: [String] = []
        for path in files {
            do {
                let file = try SessionFile.read(path)
                var recording: Recording?
                if options.compare {
                    recording = try Recording.load(Recording.path(forSession: path))
                }
                plans.append((file, recording))
            } catch let problem as SessionFile.Problem {
                problems.append(problem.description)
            } catch let error as CommandError {
                problems.append("\(path): \(error.message)" + (error.hint.map { " — \($0)" } ?? ""))
            } catch {
                problems.append("\(path): \(error)")
            }
        }
        if problems.isEmpty {
            // One session that sends nothing answers for all files: the environment can be used,
            // and every `secret NAME` has a value (environment, .env, --var) or a terminal to ask on.
            let capture = CapturingConsole(prompter: prompter)
            let probe = Executor(console: capture, options: options.executor)
            if let environment = options.environment, await probe.run("env use \"\(environment)\"") == .failed {
                problems.append("--env \(environment): " + capture.takeErrors().joined(separator: " "))
            }
            for plan in plans {
                let secretNames = plan.file.secretNames.filter { name in
                    !options.variables.contains { $0.name == name }
                }
                for name in await probe.missingSecrets(secretNames) {
                    let line = plan.file.entries.first { entry in
                        if case .secret(name, nil) = entry.command { return true }
                        return false
                    }?.line
                    problems.append(
                        "\(plan.file.path)\(line.map { ":\($0)" } ?? ""): secret '\(name)' has no value — set \(DotEnv.secretKey(for: name)) or add it to .env"
                    )
                }
            }
        }
        guard problems.isEmpty else {
            for problem in problems { output.writeError(palette.red(problem) + "\n") }
            output.writeError(
                "nothing was sent: \(problems.count) problem\(problems.count == 1 ? "" : "s") in the files\n")
            return 2
        }

        let started = ContinuousClock.now
        var reports: [FileReport] = []
        var stop = false
        for plan in plans where !stop {
            let report = await run(plan.file, recording: plan.recording, palette: palette, stop: &stop)
            reports.append(report)
        }
        let elapsed = ContinuousClock.now - started
        output.write(Self.summary(reports, elapsed: elapsed, skipped: plans.count - reports.count, palette: palette))
        if let path = options.junitPath {
            do {
                try AtomicFile.write(Data(JUnitReport.xml(reports, elapsed: elapsed).utf8), to: path)
            } catch {
                output.writeError(palette.red("cannot write the JUnit report to \(path): \(error)") + "\n")
                return 2
            }
        }
        return reports.allSatisfy(\.passed) ? 0 : 1
    }

    /// One file in a fresh session.
    private func run(
        _ file: SessionFile, recording: Recording?, palette: Palette, stop: inout Bool
    ) async
        -> FileReport
    {
        let capture = CapturingConsole(prompter: prompter)
        var executorOptions = options.executor
        executorOptions.colors = options.colors
        executorOptions.rendersResponses = false
        executorOptions.reportsPassedExpectations = false
        let executor = Executor(console: capture, options: executorOptions)
        for (name, value) in options.variables { await executor.define(name, value) }
        var report = FileReport(path: file.path)
        if !options.quiet { output.write(palette.bold(file.path) + "\n") }

        var setup = RequestReport(name: "setup", line: file.entries.first?.line ?? 1, isSetup: true)
        if let environment = options.environment {
            if await executor.run("env use \"\(environment)\"") == .failed {
                setup.failures.append(capture.takeErrors().joined(separator: " "))
            }
        }
        var current = setup
        var requestCount = 0

        func finish(_ block: RequestReport) async -> RequestReport {
            var block = block
            if !block.isSetup, let number = block.responseNumber, let recording,
                let recorded = recording.entry(forRequest: block.ordinal)
            {
                do {
                    let differences = try await executor.compare(response: number, with: recorded)
                    if !differences.isEmpty {
                        block.failures.append(
                            "differs from its recording:\n" + differences.map { "    " + $0 }.joined(separator: "\n"))
                    }
                    block.compared = true
                } catch {
                    block.failures.append("cannot compare: \(error)")
                }
            }
            return block
        }

        for entry in file.entries {
            if entry.command.sendsRequest {
                let finished = await finish(current)
                report.add(finished, output: output, quiet: options.quiet, palette: palette)
                if options.failFast, !finished.passed {
                    stop = true
                    return report
                }
                requestCount += 1
                current = RequestReport(name: "", line: entry.line, isSetup: false)
                current.ordinal = requestCount
            }
            let (outcome, events) = await executor.run(entry.text, location: "\(file.path):\(entry.line)")
            let errors = capture.takeErrors()
            for event in events {
                switch event {
                case .response(let number, let method, let path, let status, let time):
                    current.name = "\(method) \(path)"
                    current.status = status
                    current.time = time
                    current.responseNumber = number
                case .expectation(_, let result):
                    current.expectations += 1
                    if !result.passed { current.failedExpectations += 1 }
                }
            }
            if outcome == .failed {
                if current.name.isEmpty, !current.isSetup {
                    // The line as written names the request; masked, as everything printed.
                    let firstLine = entry.text.split(separator: "\n").first.map(String.init) ?? entry.text
                    current.name = executor.redactor.redact(firstLine)
                }
                current.failures.append(contentsOf: errors.isEmpty ? ["\(file.path):\(entry.line): failed"] : errors)
            }
            if outcome == .exit { break }
        }
        let finished = await finish(current)
        report.add(finished, output: output, quiet: options.quiet, palette: palette)
        if options.failFast, !finished.passed { stop = true }
        return report
    }

    static func summary(_ reports: [FileReport], elapsed: Duration, skipped: Int, palette: Palette) -> String {
        let requests = reports.flatMap(\.requests).filter { !$0.isSetup }
        let failedRequests = requests.filter { !$0.passed }.count
        let setupFailures = reports.flatMap(\.requests).filter { $0.isSetup && !$0.passed }.count
        let expectations = requests.reduce(0) { $0 + $1.expectations }
        let failedExpectations = requests.reduce(0) { $0 + $1.failedExpectations }
        let compared = requests.filter(\.compared).count
        var parts = [
            "\(reports.count) file\(reports.count == 1 ? "" : "s")",
            "\(requests.count) request\(requests.count == 1 ? "" : "s"): \(requests.count - failedRequests) passed"
                + (failedRequests > 0 ? ", \(failedRequests) failed" : ""),
            "\(expectations) expectation\(expectations == 1 ? "" : "s")"
                + (failedExpectations > 0 ? " (\(failedExpectations) failed)" : ""),
        ]
        if compared > 0 { parts.append("\(compared) compared with recordings") }
        if setupFailures > 0 { parts.append("\(setupFailures) setup failure\(setupFailures == 1 ? "" : "s")") }
        if skipped > 0 { parts.append("\(skipped) file\(skipped == 1 ? "" : "s") skipped (--fail-fast)") }
        parts.append(elapsed.shortDescription)
        let passed = reports.allSatisfy(\.passed)
        let mark = passed ? palette.green("✓ passed") : palette.red("✗ failed")
        return "\(mark): " + parts.joined(separator: " · ") + "\n"
    }
}

/// What one request of a replayed file came to (or the setup lines before the first request).
struct RequestReport: Sendable {
    var name: String
    var line: Int
    var isSetup: Bool
    /// The request's position among the file's requests, from 1.
    var ordinal = 0
    var status: HTTPStatus?
    var time: Duration?
    var responseNumber: Int?
    var expectations = 0
    var failedExpectations = 0
    var compared = false
    /// Messages, each one or more lines, masked.
    var failures: [String] = []

    var passed: Bool { failures.isEmpty }
}

struct FileReport: Sendable {
    var path: String
    var requests: [RequestReport] = []
    var passed: Bool { requests.allSatisfy(\.passed) }

    /// Adds a finished request and prints its line (and its failures).
    mutating func add(_ request: RequestReport, output: any Console, quiet: Bool, palette: Palette) {
        // Setup without failures is not worth a line or a test case.
        if request.isSetup, request.passed { return }
        requests.append(request)
        guard !quiet || !request.passed else { return }
        var line = request.passed ? palette.green("✓") : palette.red("✗")
        if request.isSetup {
            line += " setup (before the first request)"
        } else {
            line += " " + request.name
            if let status = request.status { line += "  " + palette.status(status) }
            if let time = request.time { line += "  " + palette.dim(time.shortDescription) }
        }
        line += palette.dim("  \(path):\(request.line)")
        var text = line + "\n"
        for failure in request.failures {
            text += "    " + palette.red(failure.replacingOccurrences(of: "\n", with: "\n    ")) + "\n"
        }
        output.write(text)
    }
}

/// The executor's console during a replay: output is dropped (the replay reports for itself),
/// errors are kept for the report, secrets are asked for on the terminal when there is one.
final class CapturingConsole: Console {
    private let errors = Mutex<[String]>([])
    let prompter: any Console

    init(prompter: any Console) {
        self.prompter = prompter
    }

    func write(_ text: String) {}

    func writeError(_ text: String) {
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        errors.withLock { $0.append(line) }
    }

    func takeErrors() -> [String] {
        errors.withLock { errors in
            defer { errors = [] }
            return errors
        }
    }

    var isInteractive: Bool { false }
    var canAskForSecrets: Bool { prompter.canAskForSecrets }

    func readSecret(prompt: String) async -> String? {
        await prompter.readSecret(prompt: prompt)
    }
}
