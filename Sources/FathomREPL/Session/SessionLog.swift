import FathomHTTP
import Foundation

/// The lines that built a session, in order, as `save` writes them back.
///
/// Only lines that change what a replay does are kept: settings, draft edits, requests and the
/// `expect`/`let` lines after them. Listings, `show`, `inspect`, `diff` and failed lines are not.
/// Lines are kept as command values (with `{{templates}}` as written), each as it says it is to
/// be saved (``Command/logged(in:)``); a secret typed into one is replaced by a reference when the
/// file is written (``SessionWriter``), never stored on disk.
struct SessionLog: Equatable, Sendable {
    enum Kind: Sendable, Equatable {
        /// Base, defaults, auth, variables, secrets, environments, client settings, volatile marks.
        case setting
        /// A change to the draft (path, query, header, body…), kept with the next request.
        case draft
        /// `send` or a one-liner.
        case request
        /// `expect` or `let`: kept with the request before it.
        case followUp
    }

    struct Line: Equatable, Sendable {
        var command: any Command
        var kind: Kind
        /// For a request: what it recorded, when it was sent while `record on`.
        var recorded: Recorded?
        /// For a request: what it was, for the comment above it in a saved file.
        var summary: String?

        /// The command's line, as the language writes it.
        var text: String { command.line }

        static func == (a: Line, b: Line) -> Bool {
            a.command.isEqual(to: b.command) && a.kind == b.kind && a.recorded == b.recorded && a.summary == b.summary
        }
    }

    private(set) var lines: [Line] = []

    init() {}

    /// Drops the lines after the first `count`: what a failed line had added.
    mutating func keepFirst(_ count: Int) {
        if lines.count > count { lines.removeSubrange(count...) }
    }

    mutating func append(
        _ command: any Command, kind: Kind, summary: String? = nil, recorded: Recorded? = nil
    ) {
        // The same setting twice in a row changes nothing the second time.
        if kind == .setting, let last = lines.last, last.kind == .setting, last.command.isEqual(to: command) { return }
        lines.append(Line(command: command, kind: kind, recorded: recorded, summary: summary))
    }
}

/// What a request line recorded: its response, or an exchange that goes on after its line (a
/// WebSocket conversation), read when the file is written.
enum Recorded: Sendable, Equatable {
    case response(RecordedResponse)
    case exchange(ResponseHistory.ExchangeEntry)

    /// What the recording keeps: the response, or the exchange as it is now.
    var response: RecordedResponse? {
        switch self {
        case .response(let response): response
        case .exchange(let entry): entry.exchange.recorded()
        }
    }

    static func == (a: Recorded, b: Recorded) -> Bool {
        switch (a, b) {
        case (.response(let a), .response(let b)): a == b
        case (.exchange(let a), .exchange(let b)): a.number == b.number
        default: false
        }
    }
}

/// A response as a recording keeps it: what `replay --compare` checks.
struct RecordedResponse: Sendable, Equatable {
    var method: String
    /// The request's target as written (``Outgoing/target``): with the method, its identity.
    var target: String
    var path: String
    var status: Int
    var contentType: String?
    var body: Data

    init(method: String, target: String, path: String, status: Int, contentType: String?, body: Data) {
        self.method = method
        self.target = target
        self.path = path
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    init(_ response: NetworkResponse<Data>, target: String?) {
        self.init(
            method: response.request.method.rawValue, target: target ?? response.url.path, path: response.url.path,
            status: response.status.code, contentType: response.contentType, body: response.body)
    }
}
