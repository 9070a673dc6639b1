import FathomHTTP
import Foundation

/// Everything a session holds: the draft, what every request gets, variables, environments,
/// client settings and the responses so far. The executor reads and changes it; nothing else does.
public struct Session: Sendable {
    /// The base URL template relative paths resolve against.
    public var base: String?
    public var draft = Draft()
    public var defaultHeaders: [Draft.Header] = []
    public var defaultQuery: [Draft.QueryPair] = []
    public var auth: AuthSpec = .none
    public var variables: Variables
    public var environments: [Environment] = []
    public var environmentFile: String?
    public var currentEnvironment: String?
    /// Values from a `.env` file: secrets are looked up here after the process environment.
    public var dotEnv: [String: String] = [:]
    public var settings = ClientSettings()
    public var responses = ResponseHistory()
    /// JSONPaths left out when responses are compared (`volatile`).
    public var volatile: [String] = []
    /// Whether responses are kept for `save` to write as a recording (`record on`).
    public var recording = false
    /// The lines that built the session, for `save`.
    public var log = SessionLog()
    /// Whether the last line that meant to send a request got a response: `expect` and `let`
    /// refuse to read an older response as if it were that request's.
    public var lastRequestAnswered = true

    public init(variables: Variables = Variables()) {
        self.variables = variables
    }
}
