import FathomHTTP
import FathomJSON
import Foundation

/// Runs commands against one session: line → ``Command`` → run → ``CommandResult``.
///
/// It prints nothing: every command returns its outputs as values, and the loop that drives the
/// executor (the prompt, a script, a replay, a test) renders them. Every failure leaves the
/// session as it was.
public actor Executor {
    /// What running a line came to.
    public enum Outcome: Equatable, Sendable {
        case succeeded
        case failed
        /// `exit` was entered.
        case exit
    }

    public struct Options: Sendable {
        /// Where `env` looks for environments, in order (`./fathom.env.json`, then
        /// `$XDG_CONFIG_HOME/fathom/environments.json`, unless given).
        public var environmentPaths: [String]
        /// A `.env` file whose values secrets may come from.
        public var dotEnvPath: String?
        public var history: HistoryStore
        /// The process environment (`{{$env.NAME}}`, `FATHOM_SECRET_<NAME>`).
        public var environment: [String: String]
        /// Asks for a secret or a password without echo, when someone is there to type it.
        public var prompter: any SecretPrompter
        /// Where requests go. `nil` (the default) builds an ``AsyncHTTPClientTransport`` from the
        /// session's settings (TLS, redirects, timeout, proxy, cookies); a given transport (a
        /// ``MockTransport`` in tests) is used as it is, and those settings do not apply to it.
        public var transport: (any Transport)?

        public init(
            environmentPaths: [String]? = nil,
            dotEnvPath: String? = FileManager.default.currentDirectoryPath + "/.env",
            history: HistoryStore = HistoryStore(path: nil),
            environment: [String: String] = ProcessInfo.processInfo.environment,
            prompter: any SecretPrompter = NoPrompter(),
            transport: (any Transport)? = nil
        ) {
            self.environmentPaths = environmentPaths ?? EnvironmentFile.defaultPaths()
            self.dotEnvPath = dotEnvPath
            self.history = history
            self.environment = environment
            self.prompter = prompter
            self.transport = transport
        }
    }

    /// Sent unless the draft or a default sets its own.
    static let userAgent = "fathom/0.2"

    nonisolated let options: Options
    var session: Session
    /// Knows every secret of the session; the renderers mask with it, and so does the client's wire log.
    nonisolated let redactor = Redactor()
    let cookieJar = CookieJar()
    /// What the prompt and completion read, from the line editor's thread.
    nonisolated let snapshot = SessionSnapshot()
    var clients = ClientCache()
    /// The last response body parsed as JSON, by response number: several `expect`/`let` lines
    /// after one request parse it once.
    var parsedBody: (number: Int, json: JSON)?
    /// Variables given from outside (``define(_:_:)``): a `replay` at the prompt passes them on.
    var externalVariables: [(name: String, value: String)] = []
    /// Whether the wire log could be written.
    let wireLogHealth = WireLogHealth()

    public init(options: Options = Options()) {
        self.options = options
        self.session = Session(variables: Variables(environment: options.environment))
        if let path = options.dotEnvPath {
            session.dotEnv = DotEnv.load(path)
            session.variables.environment.merge(session.dotEnv) { process, _ in process }
        }
        snapshot.update(from: session, redactor: redactor)
    }

    /// Runs one entry (a line, or several gathered by ``LineAssembler``).
    func run(_ entry: String) async -> CommandResult {
        let command: (any Command)?
        do {
            command = try CommandParser.parse(entry)
        } catch {
            return CommandResult(.failed, [.failure(Failure(.command(error)))])
        }
        guard let command else { return .done }
        return await run(command, text: entry, location: nil)
    }

    /// Runs a command already parsed from `text`; `location` (`FILE:LINE`) is where a file has it.
    func run(_ command: any Command, text: String, location: String?) async -> CommandResult {
        var result: CommandResult
        do {
            result = try await command.run(in: self)
        } catch {
            result = CommandResult(.failed, [.failure(Failure(error: error))])
        }
        let line = text.trimmingBlanksAround
        result.outputs = result.outputs.map { output in
            switch output {
            case .failure(var failure) where failure.location == nil:
                failure.location = location
                return .failure(failure)
            case .expectation(var expectation) where expectation.line.isEmpty:
                expectation.line = line
                expectation.location = location
                return .expectation(expectation)
            default:
                return output
            }
        }
        if command.logKind == .draft {
            // Before the line reaches the history file: a password typed into the draft is a secret now.
            registerTypedSecrets(in: session.draft)
        }
        if let failure = wireLogHealth.take() {
            // The log could not be written: it is off now, and the session goes on.
            session.settings.logDetail = .off
            session.settings.logFile = nil
            result.outputs.append(.failure(Failure(.summary("warning: \(failure) — the wire log is off"))))
        }
        if command.sendsRequest {
            // `expect` and `let` read the last response: after a request that got none, that
            // would be an older request's.
            session.lastRequestAnswered = result.response != nil
        }
        // A failed expectation is still part of the session: it says what should hold.
        if result.outcome == .succeeded || (result.outcome == .failed && command is ExpectCommand) {
            log(command, text: text, response: result.response)
        }
        return result
    }

    /// Keeps a line that ran for `save`, as it will be written back.
    private func log(_ command: any Command, text: String, response: ResponseOutput?) {
        guard let kind = command.logKind else { return }
        var text = text.trimmingTrailingBlanks
        if let secret = command as? SecretCommand, secret.value != nil {
            // The value stays in memory; the file asks for it.
            text = "secret \(secret.name)"
        } else if let auth = command as? AuthCommand, case .basic(let user, nil)? = auth.auth,
            case .basic(_, let password?) = session.auth
        {
            // A password typed at the prompt: written as a reference to a secret by the writer.
            text = "auth basic \(user):\(password)"
        }
        let summary = response.map { "\($0.response.request.method) \($0.shownPath) → \($0.response.status)" }
        let recorded = session.recording ? response.map { RecordedResponse($0.response) } : nil
        session.log.append(text, kind: kind, summary: summary, recorded: recorded)
    }

    /// Sets a variable from outside the session (`replay --var`, the demo's `demo`): usable in
    /// every line, but not part of what `save` writes.
    public func define(_ name: String, _ value: String) {
        session.variables.set(name, value)
        externalVariables.removeAll { $0.name == name }
        externalVariables.append((name, value))
    }

    /// Brings the prompt's snapshot up to date after a line, with the paths its responses named.
    /// Only the prompt needs it: scripts and replays skip the work.
    func updateSnapshot(after result: CommandResult) {
        snapshot.update(from: session, redactor: redactor)
        for case .response(let output) in result.outputs {
            let response = output.response
            let entry = ResponseHistory.Entry(number: output.number, response: response)
            // Parsed once: `expect`, `let` and `inspect` on this response reuse the same tree.
            let paths = PathHarvester.paths(in: response, base: baseURL()) {
                PathHarvester.harvests(response) ? try? self.json(of: entry) : nil
            }
            snapshot.remember(paths: [response.request.url.path] + paths, redactor: redactor)
        }
    }

    /// How long output is paged, as the session has it now.
    var pagerMode: PagerMode { session.settings.pager }

    /// Imports what was pasted after `import FORMAT -`.
    func importPaste(_ text: String, format: Importer.Format) async -> CommandResult {
        await ImportCommand.pasted(text, format: format, self)
    }
}

extension Executor {
    /// The JSONPaths `volatile` marked: left out when responses are compared.
    var volatileFields: [String] { session.volatile }
}
