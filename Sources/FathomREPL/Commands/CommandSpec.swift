/// What `help` shows of a command and what completion offers after it.
struct CommandSpec: Sendable {
    /// What completion offers after the command name.
    enum Completion: Sendable {
        case none
        /// Fixed words (subcommands or values).
        case words([String])
        /// Header names, then media types after `Content-Type:`/`Accept:`.
        case headers
        /// Paths seen in this session's requests and responses.
        case paths
        /// Variable names.
        case variables
        /// Files.
        case files
        /// A word (a format), then a file: `import har FILE`, `export har FILE`.
        case wordThenFile([String])
        /// Command names.
        case commands
        /// Fixed words or a file: `spec coverage`, `spec api.yaml`.
        case wordsOrFiles([String])
        /// The loaded description's operationIds, then the operation's parameters and body fields.
        case operations
    }

    enum Group: String, CaseIterable, Sendable {
        case draft = "Build and send a request"
        case session = "Session: every request gets these"
        case client = "Client settings"
        case responses = "Responses: inspect, capture, compare, check"
        case api = "Work from an API description"
        case files = "Session files"
        case other = "Other"
    }

    var name: String
    var aliases: [String] = []
    var synopsis: String
    var summary: String
    var details: String = ""
    /// Stated by every command, even when it is ``Completion/none``.
    var completion: Completion
    var group: Group
}
