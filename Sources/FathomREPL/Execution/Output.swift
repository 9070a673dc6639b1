import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

/// One thing a command produced, as a value: the renderers in `Rendering/` turn it into text
/// (colored for a terminal, plain for a script, NDJSON for `--output json`), masking secrets there.
///
/// No command writes to the console: it returns these, and the loop that ran it prints them.
enum Output: Sendable {
    /// A response, just received or shown again (`show #N`).
    case response(ResponseOutput)
    /// The draft as it would be sent (`show request`).
    case request(RequestPreview)
    /// A list of named values: variables, headers, environments, cookies, responses…
    case listing(Listing)
    /// One setting or value asked for (`base`, `timeout`, `auth` without arguments).
    case value(name: String, value: String)
    /// What a JSONPath selected in a response (`inspect`).
    case inspection(Inspection)
    /// Two responses compared (`diff`).
    case diff(ResponseDiff)
    /// An `expect` line checked against the last response.
    case expectation(ExpectationOutput)
    /// A value captured into a variable (`let`).
    case capture(Capture)
    /// A sentence about what happened (`saved 3 requests to a.fathom`).
    case notice(Notice)
    /// A secret's value, printed because it was asked for by name (`reveal`): the one output
    /// that is not masked.
    case revealed(name: String, value: String)
    /// An operation of the loaded description (`describe`).
    case operation(OperationDetail)
    /// `help` or `help COMMAND`.
    case help(CommandSpec?)
    /// A line that failed, or a failure inside a command that went on (`load`).
    case failure(Failure)
}

/// A response and how it is to be shown.
struct ResponseOutput: Sendable {
    var number: Int
    var response: NetworkResponse<Data>
    /// Its URL as lists show it: the path on the base URL's origin, else the whole URL.
    var shownPath: String
    var decoder: DecoderMode
    var showHeaders: Bool
    /// The response checked against the loaded description, if one is.
    var schema: SchemaCheck?
}

/// The draft as a request, credentials added, before it is sent.
struct RequestPreview: Sendable {
    var request: PreparedRequest
    /// An OAuth2 token is fetched when the request is sent, so the preview cannot show it.
    var tokenFetchedOnSend: Bool
}

/// A list of named values. The renderer lays each kind out as its command always has.
struct Listing: Sendable {
    enum Kind: String, Sendable {
        case query, headers, defaults, variables, environments, history, cookies, mocks, volatile, responses, session
        /// `ls`: operations (method, operationId, summary), then child segments (`name/`, count).
        case paths
        /// `spec coverage`: operations, the statuses seen (marked when called), those declared.
        case coverage
    }

    struct Item: Sendable {
        var name: String
        var value: String?
        /// A second column: an environment's base URL, a cookie's domain, a response's status…
        var detail: String?
        /// A secret variable, or the current environment.
        var marked = false
        /// For `responses`: the response the row stands for.
        var response: ResponseHistory.Entry?
    }

    var kind: Kind
    var items: [Item]
    /// What is said when there are no items.
    var empty: String
    /// A dim line after the items (where environments were read from).
    var footer: String?
}

/// `inspect`: the nodes an expression selected in response #`number`.
struct Inspection: Sendable {
    var number: Int
    var expression: String
    var nodes: [JSONPath.Node]
    var showPaths: Bool
}

/// `diff`: two responses, the parts the scope asked for, and what was ignored.
struct ResponseDiff: Sendable {
    struct HeaderChange: Sendable {
        enum Kind: Sendable { case changed, removed, added }
        var kind: Kind
        var name: String
        var old: String?
        var new: String?
    }

    enum Body: Sendable {
        case json(JSONDiff)
        case text(TextDiff)
        case binary(oldSize: Int, newSize: Int)
    }

    var old: ResponseOutput
    var new: ResponseOutput
    var scope: DiffCommand.Scope
    var status: (old: HTTPStatus, new: HTTPStatus)?
    var headers: [HeaderChange]
    var body: Body?
    var ignored: [String]

    var isEmpty: Bool { status == nil && headers.isEmpty && body == nil }
}

/// One `expect` line and what it came to.
struct ExpectationOutput: Sendable {
    /// The line as written, trimmed.
    var line: String
    var result: ExpectationResult
    /// `FILE:LINE` when the line came from a file.
    var location: String?
}

/// `let NAME = …`: what was captured.
struct Capture: Sendable {
    var name: String
    var value: String
    var secret: Bool
}

/// A sentence about what a command did.
struct Notice: Sendable {
    enum Style: Sendable {
        /// Said plainly.
        case plain
        /// An aside, dimmed on a terminal.
        case aside
    }

    var text: String
    var style: Style = .plain
    /// An aside after the text, dimmed on a terminal.
    var aside: String?

    static func aside(_ text: String) -> Notice { Notice(text: text, style: .aside) }
}

/// Why a line failed, kept as a value until the error renderer makes one line of it.
struct Failure: Sendable {
    enum Reason: Sendable {
        /// The line is wrong or cannot be done, with a column and a hint where known.
        case command(CommandError)
        /// The request went out and something on the way failed.
        case network(NetworkError)
        /// Ctrl-C; `after` says how long the request had run.
        case cancelled(after: Duration?)
        /// A summary failure of a command that went on past failed parts (`load`).
        case summary(String)
        /// Anything else, described as it came.
        case other(String)
    }

    var reason: Reason
    /// `FILE:LINE` when the line came from a file.
    var location: String?

    init(_ reason: Reason, location: String? = nil) {
        self.reason = reason
        self.location = location
    }

    /// Whatever was thrown, as a failure.
    init(error: any Error, location: String? = nil) {
        switch error {
        case let error as CommandError: self.init(.command(error), location: location)
        case let error as NetworkError:
            if case .cancelled(let after) = error {
                self.init(.cancelled(after: after), location: location)
            } else {
                self.init(.network(error), location: location)
            }
        case let problem as SessionFile.Problem: self.init(.other(problem.description), location: location)
        case is CancellationError: self.init(.cancelled(after: nil), location: location)
        default: self.init(.other("\(error)"), location: location)
        }
    }
}
