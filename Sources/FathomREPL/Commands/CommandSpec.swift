/// What `help` shows of a command, what completion offers after it, and whether its line may go
/// on over several lines. The completer and the line assembler read these; neither knows a
/// command's name.
struct CommandSpec: Sendable {
    /// What completion offers for an argument.
    indirect enum Completion: Sendable {
        case none
        /// Fixed words (subcommands or values).
        case words([String])
        /// Header names, then media types after `Content-Type:`/`Accept:`.
        case headers
        /// Paths seen in this session's requests and responses, and the description's.
        case paths
        /// Variable names.
        case variables
        /// Files.
        case files
        /// Command names.
        case commands
        /// The environments' names.
        case environments
        /// Fixed words or a file: `spec coverage`, `spec api.yaml`.
        case wordsOrFiles([String])
        /// A subcommand, then what that subcommand takes: `default header …`, `env use NAME`.
        case subcommands([Subcommand])
        /// One completion per argument, the last repeating: `import FORMAT FILE`.
        case sequence([Completion])
        /// A path, then the items a request to it takes — the parameters and body fields the
        /// description's operation for `method` declares, and header names (a one-liner).
        case request(method: String)
        /// The description's operationIds, then the chosen operation's parameters and fields.
        case operation
        /// The description's operationIds.
        case operationIDs
        /// The current API's gRPC methods (`call`).
        case grpcMethods
    }

    /// A subcommand word and what follows it.
    struct Subcommand: Sendable {
        var word: String
        var then: Completion

        init(_ word: String, then: Completion = .none) {
            self.word = word
            self.then = then
        }
    }

    /// How an entry that starts with the command goes on past its first line.
    enum Continuation: Sendable {
        /// One line.
        case none
        /// A body: inline JSON until its brackets balance, or a heredoc (`<<EOF` … `EOF`).
        case body
        /// A pasted shell command: lines ending in `\` (bash) or `^` (Windows cmd), or a quote
        /// still open.
        case shellWords
        /// A GraphQL operation: until its braces close (``GraphQLText``).
        case graphQL
        /// A word, then inline JSON until its brackets balance (`call METHOD {…}`).
        case jsonAfterWord
    }

    enum Group: String, CaseIterable, Sendable {
        case draft = "Build and send a request"
        case session = "Session: what requests to this API get"
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
    var continuation: Continuation = .none
    var group: Group
}
