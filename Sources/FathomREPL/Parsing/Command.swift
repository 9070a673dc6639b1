import FathomHTTP

/// One parsed line of the command language, before variables are expanded.
///
/// Arguments keep their `{{variable}}` references: the draft stores them as written, so that a
/// request is built (and later saved) from templates, and secrets are expanded only at send time.
public enum Command: Equatable, Sendable {
    // MARK: The draft
    case base(String?)
    case path(String)
    case cd(String)
    case method(String?)
    case query([QueryEdit])
    case header([HeaderEdit])
    case body(BodySpec?)
    case send
    case show(ShowTarget)
    case reset
    case oneLiner(method: HTTPMethod, target: String?, items: [RequestItem])

    // MARK: The session
    case defaults(DefaultEdit?)
    case auth(AuthSpec?)
    case set(name: String, value: String)
    case unset(String)
    case vars
    case secret(name: String, value: String?)
    case reveal(String)
    case env(use: String?)

    // MARK: The client
    case decoder(DecoderMode?)
    case log(LogDetail?, file: String?)
    case timeout(Setting<Duration>)
    case redirects(Setting<Int>)
    case insecure(Bool?)
    case proxy(Setting<String>)
    case cookies(CookiesAction)
    case mock(MockAction)
    case pager(PagerMode?)

    // MARK: Responses
    case responses
    case inspect(response: Int?, expression: String, paths: Bool)
    /// `let NAME = …`: a value from a response into a variable.
    case capture(name: String, source: CaptureSource, response: Int?)
    case diff(DiffRequest)
    case expect(Expectation)
    /// `volatile EXPR`, or a listing when `nil`.
    case volatile(String?)

    // MARK: Session files
    case save(file: String, requestsOnly: Bool)
    case load(String)
    case record(Bool?)
    /// Runs files in fresh sessions, as `fathom replay` does.
    case replay(files: [String], compare: Bool)

    // MARK: Help and leaving
    case help(String?)
    case history
    case exit
    /// A blank line or a comment.
    case nothing
}

/// A change to the draft's query.
public enum QueryEdit: Equatable, Sendable {
    case add(name: String, value: String?)
    case remove(String)
}

/// A change to the draft's headers.
public enum HeaderEdit: Equatable, Sendable {
    case set(name: String, value: String)
    case remove(String)
}

/// What a `body` line asks for.
public enum BodySpec: Equatable, Sendable {
    case none
    /// Text as written; JSON when it starts with `{` or `[`.
    case text(String)
    /// A file read when the request is sent.
    case file(String)
    case form([Field])
    case json([RequestItem])
    case multipart([RequestItem])

    /// A `name=value` pair.
    public struct Field: Equatable, Sendable {
        public var name: String
        public var value: String
    }
}

/// An HTTPie-style request item: `Name:Value`, `name==value`, `name=value`, `name:=json`, `name@file`.
public enum RequestItem: Equatable, Sendable {
    case header(name: String, value: String)
    case removeHeader(String)
    case query(name: String, value: String)
    case field(name: String, value: String)
    case rawJSON(name: String, json: String)
    case file(name: String, path: String)
}

public enum ShowTarget: Equatable, Sendable {
    case request
    case response(Int?)
    case session
    case headers(Bool)
}

/// `default header …`, `default query …`, or a listing when `nil`.
public enum DefaultEdit: Equatable, Sendable {
    case header(HeaderEdit)
    case query(QueryEdit)
}

/// An `auth` line.
public enum AuthSpec: Equatable, Sendable {
    case none
    case bearer(String)
    case basic(user: String, password: String?)
    case apiKey(ApiKeyPlacement, name: String, value: String)
    case oauth2ClientCredentials(tokenURL: String, clientID: String, clientSecret: String, scope: String?)

    public enum ApiKeyPlacement: String, Equatable, Sendable {
        case header, query
    }
}

/// A setting that is shown, set, or turned off.
public enum Setting<Value: Equatable & Sendable>: Equatable, Sendable {
    case show
    case set(Value)
    case off
}

public enum DecoderMode: String, CaseIterable, Equatable, Sendable {
    case auto, json, text, hex, raw
}

public enum PagerMode: String, CaseIterable, Equatable, Sendable {
    case auto, on, off
}

public enum CookiesAction: Equatable, Sendable {
    case list, clear, on, off
}

public enum MockAction: Equatable, Sendable {
    case list
    case off
    case file(path: String, file: String)
    case status(path: String, code: Int)
}

/// Where `let` takes its value from.
public enum CaptureSource: Equatable, Sendable {
    /// A JSONPath (or `.a.b` shorthand) over the body.
    case value(String)
    case header(String)
    case status
}

/// What `diff` compares and how.
public struct DiffRequest: Equatable, Sendable {
    public enum Scope: String, Equatable, Sendable {
        /// Status and headers.
        case headers
        case body
        case all
    }

    /// The older response; `nil` for the one before ``new``.
    public var old: Int?
    /// The newer response; `nil` for the last.
    public var new: Int?
    public var scope: Scope = .all
    /// JSONPaths left out of the body comparison.
    public var ignore: [String] = []
}

/// One `expect` line: a subject, a comparison, and what it is compared with.
public struct Expectation: Equatable, Sendable {
    public enum Subject: Equatable, Sendable {
        case status
        /// A JSONPath over the body.
        case value(String)
        case header(String)
        case time
        case body
    }

    public enum Operator: String, CaseIterable, Equatable, Sendable {
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case less = "<"
        case greaterOrEqual = ">="
        case greater = ">"
        case matches = "~"
        case notMatches = "!~"
        case exists
        case absent
    }

    public var subject: Subject
    public var op: Operator
    /// As written (variables not yet expanded); `nil` for `exists` and `absent`.
    public var operand: String?
}
