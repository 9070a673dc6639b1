import FathomHTTP
import Foundation

/// Everything a session holds: the draft, the APIs it talks to (each with what its requests
/// get), variables, environments, client settings and the responses so far. The executor reads
/// and changes it; nothing else does.
///
/// A value: the executor keeps a copy before each line and puts it back when the line fails, so
/// a failed line changes nothing (``Executor/run(_:text:location:)``).
struct Session: Equatable, Sendable {
    var draft = Draft()
    /// The APIs, in the order the session met them (see ``API``).
    var apis: [API] = []
    /// The index in ``apis`` of the API `base` names: relative paths resolve against its base.
    var current: Int?
    var variables: Variables
    var environments: [Environment] = []
    var environmentFile: String?
    var currentEnvironment: String?
    /// The variables (and secrets) the current environment set: a switch to another one removes
    /// those it does not set itself, so nothing of one environment reaches the next one's server.
    var environmentVariables: [String] = []
    /// Values from a `.env` file: secrets are looked up here after the process environment.
    var dotEnv: [String: String] = [:]
    var settings = ClientSettings()
    var responses = ResponseHistory()
    /// JSONPaths left out when responses are compared (`volatile`).
    var volatile: [String] = []
    /// Whether responses are kept for `save` to write as a recording (`record on`).
    var recording = false
    /// The lines that built the session, for `save`.
    var log = SessionLog()
    /// Whether the last line that meant to send a request got a response: `expect` and `let`
    /// refuse to read an older response as if it were that request's.
    var lastRequestAnswered = true
    /// Whether that line opened a WebSocket: `expect message` reads it, `expect status` cannot.
    var lastRequestOpenedWebSocket = false
    /// A description given from outside the session's lines (`fathom replay --spec`): it belongs
    /// to the first API a `base` line names.
    var givenSpec: LoadedSpec?
    /// Origins no API claims that the session has sent to and said so about, once each.
    var originsNoticed: Set<Origin> = []

    init(variables: Variables = Variables()) {
        self.variables = variables
    }

    /// The base URL template of the current API.
    var base: String? { current.map { apis[$0].base } }

    /// The current API, read and written in place.
    var currentAPI: API? {
        get { current.map { apis[$0] } }
        set {
            guard let current, let newValue else { return }
            apis[current] = newValue
        }
    }

    /// The base URL's path (`/v1`), expanded, which request paths carry before an API
    /// description's own; `nil` without a base URL.
    var basePath: String? { currentAPI.flatMap(scopeRules.basePath(of:)) }

    /// The rules that decide each request's scope, over the APIs as they are now.
    var scopeRules: ScopeRules { ScopeRules(apis: apis, current: current, variables: variables) }

    /// The loaded descriptions, one per API that has one.
    var specs: [LoadedSpec] { apis.compactMap(\.spec) }
}
