import FathomHTTP
import FathomOpenAPI

/// What one request of a replayed file came to (or the setup lines before the first request).
struct RequestReport: Sendable {
    var name: String
    var line: Int
    var isSetup: Bool
    /// The request's position among the file's requests, from 1.
    var ordinal = 0
    var status: HTTPStatus?
    var time: Duration?
    /// Until the request's block is finished (compared with its recording), then dropped.
    var response: ResponseOutput?
    /// The response checked against the loaded description, when one is (kept: it is small).
    var schema: SchemaCheck?
    var expectations = 0
    var failedExpectations = 0
    var compared = false
    var failures: [ReplayFailure] = []

    var passed: Bool { failures.isEmpty }
}

/// One file's requests.
struct FileReport: Sendable {
    var path: String
    /// Knows the file's secrets: its failures are masked with it when they are rendered.
    var redactor: Redactor
    var requests: [RequestReport] = []
    var passed: Bool { requests.allSatisfy(\.passed) }
}

/// A whole replay: the files, how long it took, how many were skipped by `--fail-fast`.
struct ReplaySummary: Sendable {
    var files: [FileReport]
    var elapsed: Duration
    var skipped: Int

    var requests: [RequestReport] { files.flatMap(\.requests).filter { !$0.isSetup } }
    var failedRequests: Int { requests.filter { !$0.passed }.count }
    var setupFailures: Int { files.flatMap(\.requests).filter { $0.isSetup && !$0.passed }.count }
    var expectations: Int { requests.reduce(0) { $0 + $1.expectations } }
    var failedExpectations: Int { requests.reduce(0) { $0 + $1.failedExpectations } }
    var compared: Int { requests.filter(\.compared).count }
    var passed: Bool { files.allSatisfy(\.passed) }
}

/// Why a request of a replayed file failed, as a value: the report renders it.
enum ReplayFailure: Sendable {
    /// A line that failed, or an expectation that does not hold: the output it gave.
    case output(Output)
    /// The response differs from its recording: the differences, one per line.
    case recording([String])
    /// `replay` inside a replayed file, at `FILE:LINE`.
    case nestedReplay(location: String)
    /// A line that failed without saying why, at `FILE:LINE`.
    case failed(location: String)
}

/// A reason a replay sends nothing: a file that cannot be read or has a line that does not
/// parse, a missing recording, an environment or description that cannot be used, a secret with
/// no value and nobody to ask.
struct ReplayProblem: Sendable, Equatable {
    /// The file, or the option (`--env staging`, `--spec api.yaml`) the problem is in.
    var file: String
    var line: Int?
    var column: Int?
    var reason: String
    var hint: String?
}
