import FathomGRPC
import FathomHTTP
import FathomOpenAPI

/// What one request of a replayed file came to: a test case of the report.
///
/// Its ``name`` comes from the file as written — a `# name:` comment above the request, else the
/// line's first two words — with the line, so that it is the same on a green run and a red one.
struct RequestReport: Sendable {
    /// `post /login (line 3)`: stable across runs (JUnit's test name).
    var name: String
    /// What was sent, when something was (`POST /login`): the text report's line shows it.
    var sent: String?
    var line: Int
    /// The file the request's line is in, when a file loaded by the replayed one has it.
    var loadedFrom: String?
    /// The request's position among the file's requests, from 1.
    var ordinal = 0
    var status: HTTPStatus?
    /// A gRPC call's status (`call`): the line shows it instead of HTTP's.
    var grpcStatus: GRPCStatus?
    var time: Duration?
    /// Until the request's block is finished (compared with its recording), then dropped.
    var response: ResponseOutput?
    /// The response checked against the loaded description, when one is (kept: it is small).
    var schema: SchemaCheck?
    /// A GraphQL response's errors that no `expect errors` line of its block has looked at yet:
    /// with the schema's checks failing (the default), they fail the request when the block ends.
    var unexpectedGraphQLErrors: SchemaCheck?
    var expectations = 0
    var failedExpectations = 0
    var compared = false
    /// How many times it was sent again after a runtime error (`--retry`).
    var retries = 0
    /// What is worth saying and is not a failure: compared with no recording, recorded.
    var notes: [String] = []
    var failures: [ReplayFailure] = []
    /// Why it was not run, when it was not.
    var skipped: String?

    init(name: String, line: Int, loadedFrom: String? = nil) {
        self.name = name
        self.line = line
        self.loadedFrom = loadedFrom
    }

    var passed: Bool { failures.isEmpty && skipped == nil }
    /// A runtime error (no answer, a missing secret, interrupted): JUnit's `<error>`, exit 3.
    var errored: Bool { failures.contains(where: \.isRuntime) }
    /// Ran and failed without a runtime error: JUnit's `<failure>`, exit 1.
    var failed: Bool { !failures.isEmpty && !errored }

    /// A stable test name for the request an entry of a file writes: its `# name:`, else its
    /// first two words, with `(line N)`.
    static func name(of entry: SessionFile.Entry, in loadedFile: String? = nil, redactor: Redactor) -> String {
        let where_ = loadedFile.map { "\($0) line \(entry.line)" } ?? "line \(entry.line)"
        if let name = entry.name { return "\(redactor.redact(name)) (\(where_))" }
        return "\(redactor.redact(entry.command.reportTitle ?? firstWords(entry.text))) (\(where_))"
    }

    /// The first two words of the first line, one blank between them.
    static func firstWords(_ text: String) -> String {
        var words: [Substring] = []
        var start: String.Index?
        var index = text.startIndex
        while index < text.endIndex, words.count < 2 {
            let character = text[index]
            if character == "\n" { break }
            if character == " " || character == "\t" {
                if let begun = start { words.append(text[begun..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
            index = text.index(after: index)
        }
        if words.count < 2, let begun = start { words.append(text[begun..<index]) }
        return words.joined(separator: " ")
    }
}

/// One file's requests.
struct FileReport: Sendable {
    var path: String
    /// Knows the file's secrets: its failures are masked with it when they are rendered.
    var redactor: Redactor
    var requests: [RequestReport] = []
    /// Said once for the file: compared with no recording, recorded to a file.
    var notes: [String] = []
    /// The file could not be run at all (exit 2): the reason, as JUnit's one `<error>` for it.
    var problem: String?
    var passed: Bool { problem == nil && requests.allSatisfy { $0.passed || $0.skipped != nil } }
    var failedLines: [Int] { requests.filter { !$0.failures.isEmpty }.map(\.line) }
}

/// A whole replay: the files, how long it took, and why it stopped early, if it did.
struct ReplaySummary: Sendable {
    var files: [FileReport]
    var elapsed: Duration
    /// Why the run ended before every file ran (`--fail-fast`, `--max-time`, a signal).
    var stopped: ReplayStop.Reason?

    var requests: [RequestReport] { files.flatMap(\.requests) }
    var ran: [RequestReport] { requests.filter { $0.skipped == nil } }
    var failedRequests: Int { requests.filter { !$0.failures.isEmpty }.count }
    var erroredRequests: Int { requests.filter(\.errored).count }
    var skippedRequests: Int { requests.filter { $0.skipped != nil }.count }
    var expectations: Int { requests.reduce(0) { $0 + $1.expectations } }
    var failedExpectations: Int { requests.reduce(0) { $0 + $1.failedExpectations } }
    var compared: Int { requests.filter(\.compared).count }
    var passed: Bool { stopped == nil && files.allSatisfy(\.passed) }

    /// The exit status: 0 passed; 1 a check failed; 2 a file or usage problem; 3 a runtime
    /// error (it beats a failed check: an outage explains the checks it broke); 130 and 143
    /// for SIGINT and SIGTERM.
    var status: Int32 {
        switch stopped {
        case .signal(let number)?: return 128 + number
        case .maxTime?: return 3
        default: break
        }
        if files.contains(where: { $0.problem != nil }) { return 2 }
        if requests.contains(where: \.errored) { return 3 }
        if requests.contains(where: \.failed) { return 1 }
        return 0
    }
}

/// Why a request of a replayed file failed, as a value: the report renders it.
enum ReplayFailure: Sendable {
    /// A line that failed, or an expectation that does not hold: the output it gave.
    case output(Output)
    /// The response differs from its recording: the differences, one per line.
    case recording([String])
    /// The response breaks its operation's schema in the description.
    case schema(SchemaCheck)
    /// `replay` inside a replayed file, at `FILE:LINE`.
    case nestedReplay(location: String)
    /// A line that failed without saying why, at `FILE:LINE`.
    case failed(location: String)
    /// The run was stopped while this request ran.
    case interrupted(ReplayStop.Reason)

    /// The world's fault, not the check's: JUnit's `<error>`, exit 3.
    var isRuntime: Bool {
        switch self {
        case .output(.failure(let failure)): failure.isRuntime
        case .interrupted: true
        default: false
        }
    }
}

/// A reason a replay sends nothing: a file that cannot be read or has a line that does not
/// parse, a file it reads that is missing, an environment or description that cannot be used, a
/// secret with no value and nobody to ask.
struct ReplayProblem: Sendable, Equatable {
    /// The file, or the option (`--env staging`, `--spec api.yaml`) the problem is in.
    var file: String
    var line: Int?
    var column: Int?
    var reason: String
    var hint: String?
}
