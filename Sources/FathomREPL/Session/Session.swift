import FathomHTTP
import Foundation

/// Everything a session holds: the draft, what every request gets, variables, environments,
/// client settings and the responses so far. The executor reads and changes it; nothing else does.
struct Session: Sendable {
    /// The base URL template relative paths resolve against.
    var base: String?
    var draft = Draft()
    var defaultHeaders: [Draft.Header] = []
    var defaultQuery: [Draft.QueryPair] = []
    var auth: AuthSpec = .none
    var variables: Variables
    var environments: [Environment] = []
    var environmentFile: String?
    var currentEnvironment: String?
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
    /// The API description requests and responses are checked against (`spec`).
    var spec: LoadedSpec?
    /// How requests are checked before they go (`validate`).
    var validation = ValidationMode.warn

    init(variables: Variables = Variables()) {
        self.variables = variables
    }

    /// The base URL's path (`/v1`), expanded, which request paths carry before an API
    /// description's own; `nil` without a base URL.
    var basePath: String? {
        guard let base = base.map({ (try? variables.expand($0)) ?? $0 }) else { return nil }
        let (prefix, path) = Draft.splitTarget(base)
        return prefix.isEmpty ? nil : path
    }
}
