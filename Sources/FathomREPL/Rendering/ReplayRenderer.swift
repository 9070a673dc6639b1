@_spi(Fathom) import FathomHTTP
import FathomJSON

/// A replay's report as text (a line per request, failures under it, a summary) or as NDJSON
/// objects (`request`, `summary`, `failure`), beside the outputs of the lines themselves.
struct ReplayRenderer: Sendable {
    let palette: Palette
    let format: OutputFormat

    /// Text for the terminal passes ``TerminalText/finish(_:)``: the report quotes lines,
    /// failures and names from outside. NDJSON is JSON-escaped already.
    private func finished(_ text: String) -> String { format == .text ? TerminalText.finish(text) : text }

    func problems(_ problems: [ReplayProblem]) -> String { finished(unfinishedProblems(problems)) }
    func fileStarted(_ path: String) -> String? { unfinishedFileStarted(path).map(finished) }
    func request(_ request: RequestReport, file: String, redactor: Redactor) -> String {
        finished(unfinishedRequest(request, file: file, redactor: redactor))
    }
    func note(_ message: String, file: String) -> String { finished(unfinishedNote(message, file: file)) }
    func summary(_ summary: ReplaySummary) -> String { finished(unfinishedSummary(summary)) }
    func noCoverage() -> String { finished(unfinishedNoCoverage()) }
    func junitFailure(_ path: String, _ error: any Error) -> String { finished(unfinishedJunitFailure(path, error)) }

    /// Problems found before anything was sent: one line each, or a `failure` object each, and
    /// a summary (status 2).
    private func unfinishedProblems(_ problems: [ReplayProblem]) -> String {
        let summary = "nothing was sent: \(problems.count) problem\(problems.count == 1 ? "" : "s") in the files"
        switch format {
        case .text:
            return problems.map { palette.red(Self.text(of: $0)) + "\n" }.joined() + summary + "\n"
        case .json:
            return problems.map { problem in
                var members: [JSON.Member] = [
                    .init(key: "type", value: .string("failure")), .init(key: "kind", value: .string("replay_problem")),
                    .init(key: "message", value: .string(Self.text(of: problem))),
                    .init(key: "file", value: .string(problem.file)),
                ]
                if let line = problem.line { members.append(.init(key: "line", value: .number(String(line)))) }
                if let column = problem.column { members.append(.init(key: "column", value: .number(String(column)))) }
                members.append(.init(key: "reason", value: .string(problem.reason)))
                if let hint = problem.hint { members.append(.init(key: "hint", value: .string(hint))) }
                return Self.line(.object(members))
            }.joined()
                + Self.line(
                    .object([
                        .init(key: "type", value: .string("replay_summary")), .init(key: "passed", value: .bool(false)),
                        .init(key: "status", value: .number("2")), .init(key: "message", value: .string(summary)),
                    ]))
        }
    }

    /// `FILE:LINE:COLUMN: reason — hint`.
    static func text(of problem: ReplayProblem) -> String {
        var location = problem.file
        if let line = problem.line { location += ":\(line)" }
        if let column = problem.column { location += ":\(column)" }
        return "\(location): \(problem.reason)" + (problem.hint.map { " — \($0)" } ?? "")
    }

    /// One NDJSON line, with the format's version.
    static func line(_ json: JSON) -> String { JSONOutputRenderer.line(JSONOutputRenderer.versioned(json)) }

    private func unfinishedFileStarted(_ path: String) -> String? {
        format == .text ? palette.bold(path) + "\n" : nil
    }

    /// A failure as plain, masked text (one or more lines): the report's lines and JUnit read it.
    static func text(of failure: ReplayFailure, redactor: Redactor) -> String {
        switch failure {
        case .output(let output):
            var text = OutputRenderer(palette: Palette(enabled: false), redactor: redactor).render(output).text
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        case .recording(let differences):
            return "differs from its recording:\n" + differences.map { "    " + $0 }.joined(separator: "\n")
        case .schema(let check):
            let count = check.violations.count
            return
                "the response breaks the schema of \(check.operation ?? "its operation") (\(count) violation\(count == 1 ? "" : "s")):\n"
                + check.violations.map { "    " + redactor.redact($0.description) }.joined(separator: "\n")
        case .nestedReplay(let location):
            return "\(location): a replay inside a replayed file is not run — name the files on the command line"
        case .failed(let location):
            return "\(location): failed"
        case .interrupted(let reason):
            return reason.interrupted
        }
    }

    /// The outcome as a word: what JUnit and NDJSON call it.
    static func outcome(_ request: RequestReport) -> String {
        if request.skipped != nil { return "skipped" }
        if request.errored { return "error" }
        return request.failures.isEmpty ? "passed" : "failed"
    }

    private func unfinishedRequest(_ request: RequestReport, file: String, redactor: Redactor) -> String {
        let location = "\(request.loadedFrom ?? file):\(request.line)"
        switch format {
        case .text:
            // No ✓ beside a schema that does not hold: `--schema warn` marks it with `!`.
            let schemaBroken = request.schema.map { $0.operation != nil && !$0.violations.isEmpty } ?? false
            var line: String
            if let reason = request.skipped {
                return palette.dim("- \(request.name)  \(reason)") + "\n"
            } else if !request.passed {
                line = palette.red("✗")
            } else {
                line = schemaBroken ? palette.yellow("!") : palette.green("✓")
            }
            line += " " + (request.sent ?? request.name)
            if let grpc = request.grpcStatus {
                line += "  " + (grpc.isOK ? palette.green(grpc.codeName) : palette.red(grpc.codeName))
            } else if let status = request.status {
                line += "  " + palette.status(status)
            }
            if let time = request.time { line += "  " + palette.dim(time.shortDescription) }
            if let schema = request.schema, schema.operation != nil {
                line +=
                    "  "
                    + (schema.passed ? palette.green("schema ✓") : palette.red("schema ✗ \(schema.violations.count)"))
            }
            if request.retries > 0 { line += "  " + palette.yellow("retried \(request.retries)×") }
            line += palette.dim("  \(location)")
            var text = line + "\n"
            for failure in request.failures {
                let lines = Self.text(of: failure, redactor: redactor)
                text += "    " + palette.red(lines.replacingOccurrences(of: "\n", with: "\n    ")) + "\n"
            }
            if schemaBroken, request.passed, let schema = request.schema {
                // Said, not failed (`--schema warn`): every violation still shows.
                let lines = Self.text(of: .schema(schema), redactor: redactor)
                text += "    " + palette.yellow(lines.replacingOccurrences(of: "\n", with: "\n    ")) + "\n"
            }
            for note in request.notes { text += "    " + palette.dim(note) + "\n" }
            return text
        case .json:
            var members: [JSON.Member] = [
                .init(key: "type", value: .string("replay_request")),
                .init(key: "file", value: .string(request.loadedFrom ?? file)),
                .init(key: "line", value: .number(String(request.line))),
                .init(key: "name", value: .string(request.name)),
                .init(key: "outcome", value: .string(Self.outcome(request))),
                .init(key: "passed", value: .bool(request.passed)),
            ]
            if let sent = request.sent { members.append(.init(key: "sent", value: .string(sent))) }
            if let status = request.status { members.append(.init(key: "status", value: .number(String(status.code)))) }
            if let time = request.time {
                members.append(.init(key: "time_ms", value: .number(String(format: "%.1f", time.milliseconds))))
            }
            members.append(.init(key: "expectations", value: .number(String(request.expectations))))
            members.append(.init(key: "failed_expectations", value: .number(String(request.failedExpectations))))
            if request.compared { members.append(.init(key: "compared", value: .bool(true))) }
            if request.retries > 0 { members.append(.init(key: "retries", value: .number(String(request.retries)))) }
            if let schema = request.schema {
                members.append(.init(key: "schema", value: JSONOutputRenderer.schema(schema)))
            }
            if let reason = request.skipped { members.append(.init(key: "skipped", value: .string(reason))) }
            if !request.notes.isEmpty {
                members.append(.init(key: "notes", value: .array(request.notes.map { .string(redactor.redact($0)) })))
            }
            members.append(
                .init(
                    key: "failures",
                    value: .array(request.failures.map { .string(Self.text(of: $0, redactor: redactor)) })))
            return Self.line(.object(members))
        }
    }

    /// Something a file's run says that is not a failure: compared with no recording, recorded.
    private func unfinishedNote(_ message: String, file: String) -> String {
        switch format {
        case .text: return "  " + palette.dim(message) + "\n"
        case .json:
            return Self.line(
                .object([
                    .init(key: "type", value: .string("replay_note")), .init(key: "file", value: .string(file)),
                    .init(key: "message", value: .string(message)),
                ]))
        }
    }

    private func unfinishedSummary(_ summary: ReplaySummary) -> String {
        let requests = summary.requests
        let failing = summary.files.filter { !$0.failedLines.isEmpty }
        switch format {
        case .json:
            var members: [JSON.Member] = [
                .init(key: "type", value: .string("replay_summary")),
                .init(key: "passed", value: .bool(summary.passed)),
                .init(key: "status", value: .number(String(summary.status))),
                .init(key: "files", value: .number(String(summary.files.count))),
                .init(key: "requests", value: .number(String(requests.count))),
                .init(key: "failed_requests", value: .number(String(summary.failedRequests))),
                .init(key: "errored_requests", value: .number(String(summary.erroredRequests))),
                .init(key: "skipped_requests", value: .number(String(summary.skippedRequests))),
                .init(key: "expectations", value: .number(String(summary.expectations))),
                .init(key: "failed_expectations", value: .number(String(summary.failedExpectations))),
                .init(key: "compared", value: .number(String(summary.compared))),
                .init(
                    key: "failing",
                    value: .array(
                        failing.map { file in
                            .object([
                                .init(key: "file", value: .string(file.path)),
                                .init(key: "lines", value: .array(file.failedLines.map { .number(String($0)) })),
                            ])
                        })),
                .init(key: "time_ms", value: .number(String(format: "%.1f", summary.elapsed.milliseconds))),
            ]
            if let stopped = summary.stopped {
                members.append(.init(key: "stopped", value: .string(stopped.interrupted)))
            }
            return Self.line(.object(members))
        case .text:
            let ran = requests.count - summary.skippedRequests
            var counts =
                "\(requests.count) request\(requests.count == 1 ? "" : "s"): \(ran - summary.failedRequests) passed"
            let failed = summary.failedRequests - summary.erroredRequests
            if failed > 0 { counts += ", \(failed) failed" }
            if summary.erroredRequests > 0 {
                counts += ", \(summary.erroredRequests) error\(summary.erroredRequests == 1 ? "" : "s")"
            }
            if summary.skippedRequests > 0 { counts += ", \(summary.skippedRequests) skipped" }
            var parts = [
                "\(summary.files.count) file\(summary.files.count == 1 ? "" : "s")", counts,
                "\(summary.expectations) expectation\(summary.expectations == 1 ? "" : "s")"
                    + (summary.failedExpectations > 0 ? " (\(summary.failedExpectations) failed)" : ""),
            ]
            if summary.compared > 0 { parts.append("\(summary.compared) compared with recordings") }
            parts.append(summary.elapsed.shortDescription)
            let mark = summary.passed ? palette.green("✓ passed") : palette.red("✗ failed")
            var text = "\(mark): " + parts.joined(separator: " · ") + "\n"
            if let stopped = summary.stopped { text += palette.red("stopped: \(stopped.interrupted)") + "\n" }
            if !failing.isEmpty {
                text += "failing:\n"
                for file in failing {
                    text += "  \(file.path):" + file.failedLines.map(String.init).joined(separator: ", ") + "\n"
                }
            }
            return text
        }
    }

    /// `--coverage` with no description loaded anywhere.
    private func unfinishedNoCoverage() -> String {
        let message = "--coverage: no description was loaded (give --spec FILE, or `spec FILE` in a file)"
        return format == .text
            ? message + "\n"
            : Self.line(
                .object([
                    .init(key: "type", value: .string("failure")), .init(key: "kind", value: .string("coverage")),
                    .init(key: "message", value: .string(message)), .init(key: "reason", value: .string(message)),
                ]))
    }

    private func unfinishedJunitFailure(_ path: String, _ error: any Error) -> String {
        let message = "cannot write the JUnit report to \(path): \(ReplayRunner.reason(error))"
        return format == .text
            ? palette.red(message) + "\n"
            : Self.line(
                .object([
                    .init(key: "type", value: .string("failure")), .init(key: "kind", value: .string("junit")),
                    .init(key: "message", value: .string(message)), .init(key: "reason", value: .string(message)),
                ]))
    }
}
