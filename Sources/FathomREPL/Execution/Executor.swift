import FathomHTTP
import FathomJSON
import FathomOpenAPI
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
        /// The line ran and is kept, but what it checks does not hold (a failed `expect`): the
        /// session goes on, a script's exit status and a replay count it.
        case checkFailed
        /// The line could not be done; the session is as it was before it.
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
        /// The longest a request may take, whatever a `timeout` line says (`replay --timeout`).
        public var requestTimeout: Duration?
        /// The longest a connection may take to establish (`replay --connect-timeout`).
        public var connectTimeout: Duration?
        /// Requests whose method may change the server (all but GET, HEAD, OPTIONS and TRACE) are
        /// refused before they are prepared, whatever line asks (`fathom mcp` without
        /// `--allow-writes`): set from outside the session, so no line can lift it.
        public var readOnly = false
        /// Where the session's exchanges are kept for later sessions (``ResponseArchive``);
        /// `nil` keeps none (a replay, `fathom mcp`, `archive off`).
        public var archive: ResponseArchive?

        public init(
            environmentPaths: [String]? = nil,
            dotEnvPath: String? = FileManager.default.currentDirectoryPath + "/.env",
            history: HistoryStore = HistoryStore(path: nil),
            environment: [String: String] = ProcessEnvironment.current,
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
    static let userAgent = "fathom/" + FathomVersion.current

    nonisolated let options: Options
    /// What a line may change: put back whole when it fails.
    var session: Session
    /// What has happened: only added to.
    var record = SessionRecord()
    /// Knows every secret of the session; the renderers mask with it, and so does the client's wire log.
    nonisolated let redactor: Redactor
    /// What the loop hears outside a line's result: live and background outputs, notices, a
    /// batch's progress, the prompt's feeds.snapshot.
    nonisolated let feeds = Feeds()
    /// The clients requests go through, the wire under them, the cookie jar.
    var clients: Clients
    /// Variables given from outside (``define(_:_:)``): a `replay` at the prompt passes them on.
    var externalVariables: [(name: String, value: String)] = []
    /// Whether the wire log could be written.
    nonisolated let wireLogHealth: WireLogHealth
    /// Structure checks still running, by the load they check (``startStructureCheck(_:)``).
    var structureChecks: [UUID: Task<([DescriptionProblem], Set<String>), Never>] = [:]
    /// A line run inside another changed the draft: its typed secrets are registered when the
    /// outer line ends.
    var draftChanged = false
    /// The folder relative file names resolve against: the session file's whose lines run (a
    /// replayed or loaded file), else the current directory.
    var directory: String?

    public init(options: Options = Options()) {
        self.options = options
        let redactor = Redactor()
        let wireLogHealth = WireLogHealth()
        self.redactor = redactor
        self.wireLogHealth = wireLogHealth
        clients = Clients(
            Clients.Fixed(
                transport: options.transport, requestTimeout: options.requestTimeout,
                connectTimeout: options.connectTimeout, redactor: redactor, cookieJar: CookieJar(),
                wireLogHealth: wireLogHealth))
        self.session = Session(variables: Variables(environment: options.environment))
        if let path = options.dotEnvPath {
            let (values, problem) = DotEnv.load(path)
            session.dotEnv = values
            // Said before the first prompt (or at a script's end), and the session goes on.
            if let problem { feeds.notice(.failure(Failure(.other(problem)))) }
            session.variables.environment.merge(session.dotEnv) { process, _ in process }
        }
        feeds.snapshot.update(from: session, spec: nil, redactor: redactor)
    }

    /// Brings what the line editor reads up to date with the session.
    func refreshSnapshot() {
        let spec = specAPIIndex().flatMap { session.apis[$0].spec?.description } ?? session.givenSpec?.description
        feeds.snapshot.update(from: session, spec: spec, redactor: redactor)
    }

    /// Runs one entry (a line, or several gathered by ``LineAssembler``).
    func run(_ entry: String) async -> CommandResult {
        await run(Result { () throws(CommandError) in try CommandParser.parse(entry) }, text: entry)
    }

    /// Runs an entry already parsed from `text` (`nil`: a blank line or a comment), or says why it
    /// did not parse.
    func run(_ parsed: Result<(any Command)?, CommandError>, text: String) async -> CommandResult {
        switch parsed {
        case .failure(let error): return CommandResult(.failed, [.failure(Failure(.command(error)))])
        case .success(nil): return .done
        case .success(let command?): return await run(command, text: text, location: nil)
        }
    }

    /// Runs a command already parsed from `text`; `location` (`FILE:LINE`) is where a file has it.
    ///
    /// A failed line changes nothing: the session is kept as a copy before the command runs and
    /// put back whole when it throws or fails, whatever the command changed on the way (a curl
    /// line that set `insecure` before its proxy was refused). What truly happened stays, as it
    /// is in the ``SessionRecord``, not the session: the responses that arrived (with their
    /// coverage) — all but the lines the failed line logged, which `save` must not write. Secrets
    /// the line made known stay masked: masking is never undone. A copy rather than changes
    /// applied on success: commands change the session through many paths, and a copy restored
    /// in this one place keeps the promise for every command, present and future, at the cost of
    /// one copy-on-write value.
    ///
    /// The lines a line runs (an import's, a curl line's) are undone with it: their own copies
    /// would be redundant, and would make an import of n lines cost n².
    func run(_ command: any Command, text: String, location: String?) async -> CommandResult {
        let outermost = !Self.runningALine
        // A gRPC stream the server ended meanwhile is kept as its response before the line reads it.
        if outermost { settleConversation() }
        let before = outermost && !command.changesOnlyWhenItSucceeds ? session : nil
        let mark = record.beginLine()
        var result = await Self.$runningALine.withValue(true) { await self.execute(command) }
        if result.outcome == .failed {
            if let before { session = before }
            if outermost { record.abandonLine(mark) }
            // What the line declared stays masked though it failed: it is on the screen and
            // about to reach the history file.
            for secret in command.declaredSecrets { redactor.addSecret(secret) }
        }
        let line = text.trimmingBlanksAround
        result.outputs = result.outputs.map { output in
            switch output {
            case .failure(var failure):
                if failure.location == nil { failure.location = location }
                // Set on the command line, a timeout is allowed more there, not by a `timeout` line.
                if case .network(.timeout(let kind, let after)) = failure.reason {
                    let more = DurationText.word(ErrorRenderer.longer(than: after))
                    if kind == .connect, options.connectTimeout != nil {
                        failure.advice = "is the server up? allow more with `--connect-timeout \(more)`"
                    } else if kind != .connect, options.requestTimeout != nil {
                        failure.advice = "allow more with `--timeout \(more)`"
                    } else if kind != .connect, command.replacesDraft {
                        // The failed line changed nothing, the draft included: `send` would send
                        // the request before it, so the way back is this line again.
                        failure.advice = "allow more with `timeout \(more)`, then run this line again (↑ recalls it)"
                    }
                }
                return .failure(failure)
            case .expectation(var expectation) where expectation.line.isEmpty:
                expectation.line = line
                expectation.location = location
                return .expectation(expectation)
            default:
                return output
            }
        }
        if command.logKind == .draft, result.outcome != .failed { draftChanged = true }
        if outermost, draftChanged {
            // Before the line reaches the history file: a password typed into the draft is a
            // secret now. Once per line typed, not per line an import runs: linear in its size.
            registerTypedSecrets(in: session.draft)
            draftChanged = false
        }
        if let failure = wireLogHealth.take() {
            // The log could not be written: it is off now, and the session goes on.
            session.settings.logDetail = .off
            session.settings.logFile = nil
            result.outputs.append(.failure(Failure(.wireLogOff(reason: failure))))
        }
        if command.sendsRequest {
            // `expect` and `let` read the last response: after a request that got none, that
            // would be an older request's.
            record.lastRequestAnswered = result.answered
            record.lastRequestOpenedWebSocket = result.openedWebSocket
        }
        // A failed expectation is still part of the session: it says what should hold.
        if result.outcome != .failed, let kind = command.logKind {
            let response = result.response
            let summary = response.map { output in
                output.grpc.map { "call \($0.method) → \($0.status.codeName)" }
                    ?? "\(output.response.request.method) \(output.shownPath) → \(output.response.status)"
            }
            var recorded: Recorded?
            if session.recording {
                // A conversation goes on after its line: the recording reads it when it is written.
                recorded =
                    response.map { .response(RecordedResponse($0.response, target: $0.target)) }
                    ?? result.openedConversation.flatMap { record.responses.exchange($0) }.map { .exchange($0) }
            }
            record.log(command.logged(in: self), kind: kind, summary: summary, recorded: recorded)
        }
        if outermost { archiveNewExchanges() }
        return result
    }

    /// Whether the running task is inside a line already (an import running its lines).
    @TaskLocal static var runningALine = false

    /// A request a read-only session would refuse by its method goes: it only reads though it is
    /// a POST (a GraphQL query, introspection, gRPC reflection), or the person allowed this one
    /// (``AgentSession``'s elicitation).
    @TaskLocal static var writeAllowed = false
    /// Told what a read-only session refused (`POST /users`), for the line that asks the person.
    @TaskLocal static var writeRefused: WriteRefusal?

    private func execute(_ command: any Command) async -> CommandResult {
        do {
            return try await command.run(in: self)
        } catch {
            return CommandResult(.failed, [.failure(Failure(error: error))])
        }
    }

    /// Sets a variable from outside the session (`replay --var`, the demo's `demo`): usable in
    /// every line, but not part of what `save` writes. A `pinned` one keeps its value whatever
    /// a file's lines set (a replay's `--var` beats a file's defaults).
    public func define(_ name: String, _ value: String, pinned: Bool = false) {
        session.variables.set(name, value, pin: pinned)
        externalVariables.removeAll { $0.name == name }
        externalVariables.append((name, value))
    }

    /// Brings the prompt's snapshot up to date after a line, with the paths its responses named.
    /// Only the prompt needs it: scripts and replays skip the work.
    func updateSnapshot(after result: CommandResult) {
        refreshSnapshot()
        for case .response(let output) in result.outputs {
            let response = output.response
            // The entry as kept (its stream parsed already), or the output's response when the
            // history has let it go. Parsed once: `expect`, `let` and `inspect` reuse the tree.
            let entry =
                (try? record.responses.entry(output.number))
                ?? ResponseHistory.Entry(
                    number: output.number, response: response)
            let paths = PathHarvester.paths(in: response, base: baseURL()) {
                PathHarvester.harvests(response) ? try? self.json(of: entry) : nil
            }
            feeds.snapshot.remember(paths: [response.request.url.path] + paths, redactor: redactor)
        }
    }

    /// A file name as a line writes it, resolved: `~/` is the home folder, and a relative name is
    /// under the running file's folder (``directory``), so a file replayed from anywhere finds its
    /// fixtures.
    func resolvePath(_ written: String) -> String { builder.resolvePath(written) }

    /// Resolves relative file names under the folder of the session file at `path` (as the
    /// file system has it, already resolved) from now on, and returns the folder they resolved
    /// under before, to give back to ``resolveFiles(under:)`` when the file's lines are done.
    @discardableResult
    public func resolveFiles(besideFile path: String) -> String? {
        let before = directory
        let folder = (Self.expandTilde(path) as NSString).deletingLastPathComponent
        directory = folder.isEmpty ? nil : folder
        return before
    }

    /// Resolves relative file names under `folder` (`nil`: the current directory).
    public func resolveFiles(under folder: String?) {
        directory = folder
    }

    /// How long output is paged, as the session has it now.
    var pagerMode: PagerMode { session.settings.pager }

    /// Imports what was pasted after `import FORMAT -`: a line of its own, so a paste that
    /// fails part-way changes nothing.
    func importPaste(_ text: String, format: Importer.Format) async -> CommandResult {
        let command = ImportCommand(format: format, file: "-", pasted: text)
        return await run(command, text: command.line, location: nil)
    }
}

extension Executor {
    /// The JSONPaths `volatile` marked: left out when responses are compared.
    var volatileFields: [String] { session.volatile }
}
