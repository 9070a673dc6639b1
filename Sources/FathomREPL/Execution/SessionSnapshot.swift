import FathomGraphQL
import FathomHTTP
import FathomOpenAPI
import Synchronization

/// What the line editor's thread needs from the session — the prompt and completion words —
/// copied after each command so the editor never touches the executor. Everything in it is
/// masked: the prompt and completion listings are output too.
final class SessionSnapshot: Sendable {
    struct Values: Sendable {
        var method = "GET"
        /// `host:port/path` of the draft, as the prompt shows it.
        var location = ""
        /// What the draft carries beyond its method and path, for the badge the prompt shows: a
        /// draft that persists is never invisible.
        var carries = Carries()
        var variableNames: [String] = []
        /// Paths seen in requests and responses, most recent last.
        var paths: [String] = []
        var headerNames: [String] = []
        var environmentNames: [String] = []
        /// The loaded API description, for its paths, operationIds, parameters and fields.
        var spec: APIDescription?
        /// The base URL's path, which request paths carry before the description's own.
        var basePath: String?
        /// The open conversation (a WebSocket, a gRPC stream): the prompt is its sub-prompt.
        var conversation: ConversationPrompt?
        /// The current API's GraphQL schema, for the fields, arguments and values of an operation.
        var graphQL: SchemaIndex?
        /// The current API's gRPC methods by full name (`pkg.Users/GetUser`), for `call`.
        var grpcMethods: [String] = []
    }

    /// What the draft holds besides its method and path.
    struct Carries: Equatable, Sendable {
        var headers = 0
        var query = 0
        var body = false
        /// The draft's own credentials: `true` some, `false` none at all (`auth draft none`).
        var auth: Bool?
    }

    static let pathLimit = 500
    private let values = Mutex(Values())

    init() {}

    var current: Values { values.withLock { $0 } }

    func update(from session: Session, spec: APIDescription?, redactor: Redactor) {
        let draft = session.draft
        // Expanded (`base {{demo}}` shows the demo's address), masked below like the rest.
        let base = session.base.map { Draft.splitTarget((try? session.variables.expand($0)) ?? $0) }
        let (prefix, path) = Draft.splitTarget(draft.target)
        var location: String
        if !prefix.isEmpty {
            location = Self.hostPart(prefix) + path
        } else if let base {
            let basePath = base.path == "/" ? "" : base.path
            location = Self.hostPart(base.prefix) + basePath + (path == "/" && !basePath.isEmpty ? "" : path)
        } else {
            location = path
        }
        values.withLock { values in
            values.method = draft.method.rawValue
            values.location = redactor.redact(location)
            values.variableNames = session.variables.names
            let defaults = session.currentAPI?.defaultHeaders ?? []
            values.headerNames = Array(Set(draft.headers.map(\.name) + defaults.map(\.name))).sorted()
            values.environmentNames = session.environments.map(\.name)
            values.spec = spec
            values.carries = Carries(
                headers: draft.headers.count, query: draft.query.count, body: draft.body != .none,
                auth: draft.auth.map { $0 != .none })
            values.basePath = session.basePath
            values.graphQL = session.currentAPI?.graphQL?.schema?.description.index
            values.grpcMethods = session.currentAPI?.grpc?.methods.map(\.name) ?? []
        }
    }

    /// Sets the open conversation's sub-prompt, or `nil` when none is open: from the task that
    /// reads it, when the server ends it.
    func setConversation(_ prompt: ConversationPrompt?) {
        values.withLock { $0.conversation = prompt }
    }

    /// Remembers paths for completion (deduplicated, bounded).
    func remember(paths new: [String], redactor: Redactor) {
        guard !new.isEmpty else { return }
        let masked = new.map(redactor.redact)
        values.withLock { values in
            for path in masked {
                values.paths.removeAll { $0 == path }
                values.paths.append(path)
            }
            if values.paths.count > Self.pathLimit { values.paths.removeFirst(values.paths.count - Self.pathLimit) }
        }
    }

    static func hostPart(_ prefix: String) -> String {
        guard let range = prefix.range(of: "://") else { return prefix }
        return String(prefix[range.upperBound...])
    }
}
