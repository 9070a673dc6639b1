import FathomHTTP
import Foundation

/// What a line may change: the draft, the APIs the session talks to (each with what its
/// requests get), variables, environments and client settings. The executor reads and changes
/// it; nothing else does. What has happened — exchanges, the log, coverage — is the
/// ``SessionRecord``, apart.
///
/// A value: the executor keeps a copy before each line and puts it back whole when the line
/// fails, so a failed line changes nothing (``Executor/run(_:text:location:)``).
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
    /// JSONPaths left out when responses are compared (`volatile`).
    var volatile: [String] = []
    /// Whether responses are kept for `save` to write as a recording (`record on`).
    var recording = false
    /// A description given from outside the session's lines (`fathom replay --spec`): it belongs
    /// to the first API a `base` line names.
    var givenSpec: LoadedSpec?

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
