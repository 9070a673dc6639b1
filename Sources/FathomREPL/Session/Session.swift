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

    public init(variables: Variables = Variables()) {
        self.variables = variables
    }
}

/// How requests are sent and responses shown.
public struct ClientSettings: Equatable, Sendable {
    public var decoder: DecoderMode = .auto
    public var logDetail: LogDetail = .off
    public var logFile: String?
    public var timeout: Duration?
    /// The most redirects followed; `nil` returns 3xx responses as they are.
    public var redirectLimit: Int? = 5
    public var insecure = false
    /// `nil` uses the environment's proxy settings.
    public var proxy: String?
    public var cookies = true
    public var mocks: [MockRoute] = []
    public var pager: PagerMode = .auto
    public var showHeaders = true

    public init() {}

    /// A mocked path and what answers it.
    public struct MockRoute: Equatable, Sendable {
        public var path: String
        public var status: Int
        /// A file whose contents answer, or `nil` for an empty body.
        public var file: String?
    }
}
