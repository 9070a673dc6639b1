import FathomGraphQL
import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

/// One thing a command produced, as a value with fields: the renderers in `Rendering/` turn it
/// into text (colored for a terminal, plain for a script) or an NDJSON object for `--output json`,
/// masking secrets there. No command words a sentence: every sentence is made in `Rendering/`.
///
/// No command writes to the console: it returns these, and the loop that ran it prints them.
enum Output: Sendable {
    /// A response, just received or shown again (`show #N`).
    case response(ResponseOutput)
    /// A batch, just sent or shown again (`show #N`).
    case batch(BatchSummary)
    /// A streamed response's head, as soon as it arrives.
    case streamHead(StreamHead)
    /// One event of a stream, as it arrives.
    case streamEvent(StreamEventOutput)
    /// A WebSocket opened, a message each way, a ping, the end.
    case webSocket(WebSocketOutput)
    /// A gRPC stream written at the prompt opened, a message each way, its end by the server.
    case grpcStream(GRPCStreamOutput)
    /// The draft as it would be sent (`show request`).
    case request(RequestPreview)
    /// A list of named values: variables, headers, environments, cookies, responses…
    case listing(Listing)
    /// One setting asked for (`base`, `timeout`, `auth` without arguments).
    case setting(SettingShown)
    /// Requests written as another tool's commands (`export curl`).
    case export(ExportText)
    /// The session as a whole: its APIs and what each applies, variables, settings (`show session`).
    case session(SessionOverview)
    /// What a JSONPath selected in a response (`inspect`).
    case inspection(Inspection)
    /// Two responses compared (`diff`).
    case diff(ResponseDiff)
    /// An `expect` line checked against the last response.
    case expectation(ExpectationOutput)
    /// A value captured into a variable (`let`).
    case capture(Capture)
    /// Something a command did or noticed (`saved 3 requests to a.fathom`).
    case event(Event)
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

/// A setting and its value, as a command without arguments shows it.
struct SettingShown: Sendable {
    /// The command that sets it (`timeout`).
    var name: String
    var value: SettingValue
}

/// The value of a setting, typed: the renderer words the defaults and the unset cases.
enum SettingValue: Sendable, Equatable {
    /// A word or line as the language writes it (`GET`, `json`, `bearer ••••`).
    case text(String)
    case toggle(Bool)
    /// Not set: the renderer says what applies instead (no base URL; the environment's proxy).
    case unset
    /// A duration; `nil` is the default.
    case duration(Duration?)
    /// A count; `nil` is off.
    case count(Int?)
    /// A level with the file it goes to (`log headers → wire.log`).
    case log(level: String, file: String?)
}

/// Requests written for another tool, in that tool's syntax.
struct ExportText: Sendable {
    /// `curl`, `httpie`, `swift`.
    var format: String
    var text: String
}

/// What `show session` lists.
struct SessionOverview: Sendable {
    struct APIState: Sendable {
        var base: String
        /// The expanded base's origin, when it expands.
        var origin: String?
        var current: Bool
        /// The `auth` line's arguments, credentials masked (`bearer ••••`), or `nil` for none.
        var auth: String?
        var defaultHeaders: [(name: String, value: String)]
        var defaultQuery: [(name: String, value: String?)]
        var spec: String?
        /// Its GraphQL endpoint: the path, and where its schema came from (`none` before one loads).
        var graphQL: String?
        /// Its gRPC services: how many, and where their descriptors came from.
        var grpc: String?
        var validation: String
        var shared: [String]
        /// The base came from the description's servers: the next `base` moves the API.
        var baseFromDescription: Bool
    }

    struct Variable: Sendable {
        var name: String
        var value: String
        var secret: Bool
    }

    var apis: [APIState]
    var environment: String?
    var variables: [Variable]
    var decoder: String
    var log: SettingValue
    var timeout: Duration?
    var redirects: Int?
    var insecure: Bool
    var proxy: String?
    var cookies: Int?
    var pager: String
    var responsesKept: Int
    var lastResponse: Int
}

/// A response and how it is to be shown.
struct ResponseOutput: Sendable {
    var number: Int
    /// The archive's ID when the response was read from there (`show @12`).
    var archived: Int? = nil
    var response: NetworkResponse<Data>
    /// Its URL as lists show it: the path on the base URL's origin, else the whole URL.
    var shownPath: String
    var decoder: DecoderMode
    var showHeaders: Bool
    /// The response checked against the loaded description, if one is.
    var schema: SchemaCheck?
    /// The target of the request as written (``Outgoing/target``), when it was just sent: a
    /// recording matches responses to requests by it.
    var target: String?
    /// For a streamed response: how many events, how it ended, whether they were shown live.
    var stream: StreamSummary?
    /// A stream's events as the history parsed them, for showing it whole (`show #N`).
    var parsedStream: ParsedStream? = nil
    /// A GraphQL response's `errors` (empty when it has none); `nil` for any other response.
    var graphQLErrors: [GraphQLResponseError]? = nil
    /// A gRPC call's status, trailers and details; `nil` for any other response.
    var grpc: GRPCCallRecord? = nil

    /// `#3`, or `@12`.
    var label: String { archived.map { "@\($0)" } ?? "#\(number)" }
}

/// The draft as a request, credentials added, before it is sent.
struct RequestPreview: Sendable {
    /// Where a header comes from.
    enum Source: String, Sendable {
        /// The draft (a one-liner's items, `header`).
        case draft
        /// The API's defaults (`default header`).
        case defaults
        /// The API's credentials (`auth`).
        case auth
        /// The draft's own credentials (`auth draft`).
        case draftAuth = "draft auth"
        /// The cookie jar.
        case cookies = "cookie jar"
        /// Fathom itself (`User-Agent`, a body's `Content-Type`).
        case fathom
    }

    var request: PreparedRequest
    /// An OAuth2 token is fetched when the request is sent, so the preview cannot show it.
    var tokenFetchedOnSend: Bool
    /// One per header of ``request``, in the same order.
    var sources: [Source] = []
    /// The origin of the API whose state the request gets; `nil` when no API claims it.
    var api: String?
    /// The request's origin.
    var origin: String?
}

/// A request on its way: prepared, with the API whose credentials go with it.
struct Outgoing: Sendable {
    var request: PreparedRequest
    /// Which API the request belongs to and all that follows from it, decided once.
    var scope: Scope
    /// The draft's target as written, variables unexpanded (`{{api}}/users/{{id}}`).
    var target: String
    /// The GraphQL operation the request carries, when it is one: checked by its API's schema,
    /// not by an OpenAPI description.
    var graphQL: GraphQLOperation? = nil
}

/// A list of named values. The renderer lays each kind out as its command always has, and says
/// what an empty one means.
struct Listing: Sendable {
    enum Kind: String, Sendable {
        case query, headers, defaults, variables, environments, history, cookies, mocks, volatile, responses
        /// `ls`: operations (method, operationId, summary), then child segments (`name/`, count).
        case paths
        /// `spec problems`: each structure problem's place and what is wrong there.
        case problems
        /// `spec coverage`: operations, the statuses seen (marked when called), those declared.
        case coverage
        /// `api`: the session's APIs (base, origin as detail, the current one marked).
        case apis
        /// `ls` and `describe` over a GraphQL schema: a field (with its arguments) and its type,
        /// an argument, an enum value; its description as detail.
        case schema
        /// `ls` and `describe` over gRPC descriptors: a method (its kind, its types), a field
        /// (its type), an enum value; comments as detail.
        case services
        /// `responses --all` and `responses search`: the response archive's exchanges (`@12`), when
        /// each was kept and, marked, this session's number for it.
        case archive
    }

    struct Item: Sendable {
        var name: String
        var value: String?
        /// A second column: an environment's base URL, a cookie's domain, a response's status…
        var detail: String?
        /// A secret variable, the current environment or API, a called operation.
        var marked = false
        /// For `responses`: the response the row stands for.
        var response: ResponseHistory.Entry?
        /// For `paths`: how many operations a segment has under it.
        var count: Int?
    }

    var kind: Kind
    var items: [Item]
    /// Where the items came from: the environments file, the path `ls` listed, the file
    /// environments are looked for in when there is none.
    var source: String?
    /// The list is off rather than empty (`cookies off`).
    var off = false
}

/// `inspect`: the nodes an expression selected in response #`number`.
struct Inspection: Sendable {
    var number: Int
    /// The archive's ID when the entry was read from there (`inspect @12 …`).
    var archived: Int? = nil
    var expression: String
    var nodes: [JSONPath.Node]
    var showPaths: Bool

    /// `#3`, or `@12`.
    var label: String { archived.map { "@\($0)" } ?? "#\(number)" }
}

/// `diff`: two entries of the history (responses, or any exchange), the parts the scope asked
/// for, and what was ignored.
struct ResponseDiff: Sendable {
    /// One side: its number and what it was (`GET /users/1`, `WS ws://…/ws`).
    struct Side: Sendable {
        var number: Int
        var title: String
        /// The archive's ID when the entry was read from there (`diff @12 #3`).
        var archived: Int? = nil

        /// `#3`, or `@12`.
        var label: String { archived.map { "@\($0)" } ?? "#\(number)" }
    }

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

    var old: Side
    var new: Side
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

/// What a command did or noticed, as a value; ``OutputRenderer`` words it.
enum Event: Sendable {
    /// `auth oauth2 authorization-code`: open this URL; the line waits for the browser.
    case oauth2Browser(OAuth2BrowserPrompt)
    /// `auth oauth2 device`: enter this code there; the line polls.
    case oauth2DeviceCode(OAuth2DevicePrompt)
    /// An `auth oauth2` line got its tokens.
    case oauth2Authorized(OAuth2Authorized)
    /// A request has a problem by the description (`validate warn` sends it anyway).
    case requestWarning(String)
    /// `spec`: what is loaded, or `nil` when nothing is.
    case specShown(SpecSummary?)
    /// `spec FILE`: loaded; the base URL came from its servers when the session had none.
    case specLoaded(SpecSummary, baseFromServers: String?)
    /// `graphql`: the current API's GraphQL endpoint and schema, or that it has none.
    case graphQLShown(GraphQLSummary?)
    /// `graphql PATH`: the endpoint set and its schema loaded.
    case graphQLLoaded(GraphQLSummary)
    /// `grpc` alone: the API's gRPC server and its descriptors (`nil`: none loaded).
    case grpcShown(GRPCSummary?)
    /// `grpc TARGET`: the server's descriptors, loaded.
    case grpcLoaded(GRPCSummary)
    /// The structure check of a description just loaded found these (a notice after the line).
    case structureProblems(title: String, count: Int, first: DescriptionProblem)
    /// `show #N > FILE`.
    /// `archived`: the archive's ID, when the response was read from there (`show @12 > FILE`).
    case wroteBody(response: Int, archived: Int?, path: String, bytes: Int)
    /// `export har FILE`.
    case wroteHAR(path: String, entries: Int)
    /// `record on`.
    case recordingOn
    /// `import FORMAT -`: the paste is read next.
    case pasteExpected(Importer.Format)
    /// `import curl FILE|-`: the draft is the command's request; `nil` source is a paste.
    case importedIntoDraft(source: String?)
    /// A part of an import that could not come in.
    case notImported(Importer.Note)
    /// A paste at the prompt was cancelled.
    case importCancelled
    /// A curl line with several URLs: each is sent in turn (`import` keeps the first).
    case curlURLs(count: Int, sentInTurn: Bool)
    /// Session settings a curl line asked for (`-k`, `-L`, `--max-time`, `-x`), as the lines that set them.
    case curlSettings([String])
    /// curl flags that only shape curl's own output or transfer.
    case curlIgnored([String])
    /// `$NAME`s in a curl line, sent as written.
    case curlShellVariables([String])
    /// `export` of the draft with OAuth2: the token is fetched when Fathom sends.
    case exportTokenOnSend
    /// `save FILE`.
    case saved(SaveSummary)
    /// `load FILE` ran every line.
    case loaded(path: String, lines: Int)
    /// A request went to an origin no API claims, while an API had state that stayed behind.
    case otherOrigin(OtherOrigin)
    /// `base URL` left an API with state for another origin, or took one along.
    case baseChanged(BaseChange)
    /// `env use NAME`: what the switch changed.
    case environmentSwitched(EnvironmentSwitch)
}

/// What a `base` line did to the state of the API that was current before it.
struct BaseChange: Sendable {
    enum Kind: String, Sendable {
        /// The API's state stayed with its origin; the base names another API now.
        case stayed
        /// The API went along to the new origin (`base --move`, or a base that came from a
        /// description's servers and waited for the person's own).
        case moved
    }

    var kind: Kind
    /// The origin the API was on.
    var from: String
    /// The origin the base names now.
    var to: String
    /// The API's state: the kind of its auth (`bearer`), how many defaults, its description's title.
    var auth: String?
    var defaults: Int
    var description: String?
    /// The base the API had, as written (to go back to it).
    var base: String
}

/// What `env use NAME` changed.
struct EnvironmentSwitch: Sendable {
    var name: String
    /// The environment before, if one was in use.
    var previous: String?
    /// The base URL it moved the current API to, as written.
    var base: String?
    /// The variables it set, and the secrets among them (names only).
    var variables: [String]
    var secrets: [String]
    /// The previous environment's variables it does not have: no longer set.
    var removed: [String]
}

/// A loaded description, as `spec` says it.
struct SpecSummary: Sendable {
    var title: String
    var version: String
    var openAPIVersion: String
    var source: String
    /// Other documents a split description read.
    var documents: Int
    var operations: Int
    var paths: Int
}

/// What `save` wrote.
struct SaveSummary: Sendable {
    var path: String
    var requests: Int
    /// Where the recording went and how many responses it holds.
    var recording: (path: String, responses: Int)?
    /// `record on` was set, but no response was recorded.
    var recordedNothing: Bool
    /// Credentials typed into lines, now asked for by these names.
    var namedSecrets: [String]
}

/// The first request of a session to an origin no API claims.
struct OtherOrigin: Sendable {
    /// The request's origin.
    var origin: String
    /// The origin of the API whose state stayed behind.
    var api: String
    /// What stayed behind: the kind of its auth (`bearer`), how many defaults, a description.
    var auth: String?
    var defaults: Int
    var description: Bool
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
        /// `load FILE` ran every line, and some failed.
        case loadFailed(path: String, failed: Int, lines: Int)
        /// The wire log could not be written, and is off.
        case wireLogOff(reason: String)
        /// A session file that cannot be run.
        case sessionFile(SessionFile.Problem)
        /// Anything else, described as it came.
        case other(String)
    }

    var reason: Reason
    /// `FILE:LINE` when the line came from a file.
    var location: String?
    /// The line of a script (standard input) its entry began on, when it came from one.
    var line: Int?
    /// What to do, where the place it happened knows better than the error's own advice (a
    /// replay's `--timeout` is what allows more, not a file's `timeout` line).
    var advice: String?

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
        case let problem as SessionFile.Problem: self.init(.sessionFile(problem), location: location)
        case is CancellationError: self.init(.cancelled(after: nil), location: location)
        default: self.init(.other("\(error)"), location: location)
        }
    }

    /// Whether the failure is the world's, not the line's: no answer (refused, timed out, TLS),
    /// cancelled, or a secret with no value. A replay exits 3 for these, 1 for a check that
    /// does not hold, so CI can tell an outage from a regression.
    var isRuntime: Bool {
        switch reason {
        case .network, .cancelled: true
        case .command(let error): error.missingSecret != nil
        default: false
        }
    }
}
