@_spi(Fathom) import FathomHTTP
import FathomJSON

/// A replay's report as text (a line per request, failures under it, a summary) or as NDJSON
/// objects (`request`, `summary`, `failure`), beside the outputs of the lines themselves.
struct ReplayRenderer: Sendable {
    let palette: Palette
    let format: OutputFormat

    /// Problems found before anything was sent: one line each, or a `failure` object each, and
    /// a summary (status 2).
    func problems(_ problems: [ReplayProblem]) -> String {
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

    func fileStarted(_ path: String) -> String? {
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
        case .nestedReplay(let location):
            return "\(location): a replay inside a replayed file is not run — name the files on the command line"
        case .failed(let location):
            return "\(location): failed"
        }
    }

    func request(_ request: RequestReport, file: String, redactor: Redactor) -> String {
        switch format {
        case .text:
            var line = request.passed ? palette.green("✓") : palette.red("✗")
            if request.isSetup {
                line += " setup (before the first request)"
            } else {
                line += " " + request.name
                if let status = request.status { line += "  " + palette.status(status) }
                if let time = request.time { line += "  " + palette.dim(time.shortDescription) }
                // Said, not failed: `expect schema` is what asserts it.
                if let schema = request.schema {
                    line +=
                        "  "
                        + (schema.passed
                            ? palette.green("schema ✓") : palette.red("schema ✗ \(schema.violations.count)"))
                }
            }
            line += palette.dim("  \(file):\(request.line)")
            var text = line + "\n"
            for failure in request.failures {
                let lines = Self.text(of: failure, redactor: redactor)
                text += "    " + palette.red(lines.replacingOccurrences(of: "\n", with: "\n    ")) + "\n"
            }
            return text
        case .json:
            var members: [JSON.Member] = [
                .init(key: "type", value: .string("replay_request")),
                .init(key: "setup", value: .bool(request.isSetup)),
                .init(key: "file", value: .string(file)), .init(key: "line", value: .number(String(request.line))),
                .init(key: "passed", value: .bool(request.passed)),
            ]
            if !request.isSetup { members.append(.init(key: "name", value: .string(request.name))) }
            if let status = request.status { members.append(.init(key: "status", value: .number(String(status.code)))) }
            members.append(.init(key: "expectations", value: .number(String(request.expectations))))
            members.append(.init(key: "failed_expectations", value: .number(String(request.failedExpectations))))
            if request.compared { members.append(.init(key: "compared", value: .bool(true))) }
            if let schema = request.schema {
                members.append(.init(key: "schema", value: JSONOutputRenderer.schema(schema)))
            }
            members.append(
                .init(
                    key: "failures",
                    value: .array(request.failures.map { .string(Self.text(of: $0, redactor: redactor)) })))
            return Self.line(.object(members))
        }
    }

    func summary(_ summary: ReplaySummary) -> String {
        let requests = summary.requests
        switch format {
        case .json:
            return Self.line(
                .object([
                    .init(key: "type", value: .string("replay_summary")),
                    .init(key: "passed", value: .bool(summary.passed)),
                    .init(key: "status", value: .number(summary.passed ? "0" : "1")),
                    .init(key: "files", value: .number(String(summary.files.count))),
                    .init(key: "requests", value: .number(String(requests.count))),
                    .init(key: "failed_requests", value: .number(String(summary.failedRequests))),
                    .init(key: "expectations", value: .number(String(summary.expectations))),
                    .init(key: "failed_expectations", value: .number(String(summary.failedExpectations))),
                    .init(key: "compared", value: .number(String(summary.compared))),
                    .init(key: "skipped_files", value: .number(String(summary.skipped))),
                ]))
        case .text:
            var parts = [
                "\(summary.files.count) file\(summary.files.count == 1 ? "" : "s")",
                "\(requests.count) request\(requests.count == 1 ? "" : "s"): \(requests.count - summary.failedRequests) passed"
                    + (summary.failedRequests > 0 ? ", \(summary.failedRequests) failed" : ""),
                "\(summary.expectations) expectation\(summary.expectations == 1 ? "" : "s")"
                    + (summary.failedExpectations > 0 ? " (\(summary.failedExpectations) failed)" : ""),
            ]
            if summary.compared > 0 { parts.append("\(summary.compared) compared with recordings") }
            if summary.setupFailures > 0 {
                parts.append("\(summary.setupFailures) setup failure\(summary.setupFailures == 1 ? "" : "s")")
            }
            if summary.skipped > 0 {
                parts.append("\(summary.skipped) file\(summary.skipped == 1 ? "" : "s") skipped (--fail-fast)")
            }
            parts.append(summary.elapsed.shortDescription)
            let mark = summary.passed ? palette.green("✓ passed") : palette.red("✗ failed")
            return "\(mark): " + parts.joined(separator: " · ") + "\n"
        }
    }

    /// `--coverage` with no description loaded anywhere.
    func noCoverage() -> String {
        let message = "--coverage: no description was loaded (give --spec FILE, or `spec FILE` in a file)"
        return format == .text
            ? message + "\n"
            : Self.line(
                .object([
                    .init(key: "type", value: .string("failure")), .init(key: "kind", value: .string("coverage")),
                    .init(key: "message", value: .string(message)), .init(key: "reason", value: .string(message)),
                ]))
    }

    func junitFailure(_ path: String, _ error: any Error) -> String {
        let message = "cannot write the JUnit report to \(path): \(error)"
        return format == .text
            ? palette.red(message) + "\n"
            : Self.line(
                .object([
                    .init(key: "type", value: .string("failure")), .init(key: "kind", value: .string("junit")),
                    .init(key: "message", value: .string(message)), .init(key: "reason", value: .string(message)),
                ]))
    }
}
