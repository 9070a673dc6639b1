import FathomJSON
import FathomOpenAPI
import Foundation

/// What has happened in a session: the exchanges, the lines that built it, what descriptions
/// learnt (coverage, structure findings), what was said once. Only ever added to: a failed line
/// puts the ``Session`` back as it was, and leaves this as it is — a response that arrived
/// arrived, whatever the line did after.
///
/// The one thing a failed line takes back here is the lines it logged (a curl line's, a loaded
/// file's): they are provisional until the line that ran them succeeds (``beginLine()``,
/// ``abandonLine(_:)``), as `save` writes only lines that ran.
struct SessionRecord: Sendable {
    /// The exchanges so far, numbered.
    var responses = ResponseHistory()
    /// The last conversation a line opened (`ws`, a streaming `call`): at most one is open, and
    /// `send`, `expect message` and `close` talk on it.
    var conversation: (any OpenConversation)?
    /// The lines that built the session, for `save`.
    private(set) var log = SessionLog()
    /// Per description loaded (``LoadedSpec/id``), per operation (`GET /pets`), the statuses its
    /// responses came back with.
    var coverage: [UUID: [String: Set<Int>]] = [:]
    /// Per description loaded, what OpenAPIKit's structure check found; absent while it runs.
    var findings: [UUID: StructureFindings] = [:]
    /// Origins no API claims that the session has sent to and said so about, once each.
    var originsNoticed: Set<Origin> = []
    /// Whether the last line that meant to send a request got a response: `expect` and `let`
    /// refuse to read an older response as if it were that request's.
    var lastRequestAnswered = true
    /// Whether that line opened a WebSocket: `expect message` reads it, `expect status` cannot.
    var lastRequestOpenedWebSocket = false
    /// The last response body parsed as JSON, by response number: several `expect`/`let` lines
    /// after one request parse it once (numbers never repeat, so it never goes stale).
    var parsedBody: (number: Int, json: JSON)?
    /// How far the history has reached the response archive.
    var archiving = ArchiveProgress()

    /// Adds a line that ran to the log.
    mutating func log(_ command: any Command, kind: SessionLog.Kind, summary: String?, recorded: Recorded?) {
        log.append(command, kind: kind, summary: summary, recorded: recorded)
    }

    /// Where a line begins in the log: what ``abandonLine(_:)`` takes back to.
    func beginLine() -> Int { log.lines.count }

    /// Takes back the lines logged since `mark`: the line that ran them failed.
    mutating func abandonLine(_ mark: Int) { log.keepFirst(mark) }
}

/// What a description's structure check found: the problems, and the operations they touch
/// (`validate strict` refuses those).
struct StructureFindings: Equatable, Sendable {
    var problems: [DescriptionProblem]
    var touched: Set<String>

    init(_ problems: [DescriptionProblem], in description: APIDescription) {
        self.problems = problems
        touched = description.operations(touchedBy: problems)
    }

    init(problems: [DescriptionProblem], touched: Set<String>) {
        self.problems = problems
        self.touched = touched
    }
}
