import FathomHTTP
import FathomJSON
import Foundation

/// Runs command lines against a session: parse → ``Command`` → execute → render.
///
/// Driven by text alone (no terminal), so tests feed it lines and read what it wrote. Every
/// failure is one error line and leaves the session as it was.
public actor Executor {
    /// What running a line came to.
    public enum Outcome: Equatable, Sendable {
        case succeeded
        case failed
        /// `exit` was entered.
        case exit
    }

    public struct Options: Sendable {
        public var colors: Bool
        /// Where `env` looks for environments, in order.
        public var environmentPaths: [String]
        /// A `.env` file whose values secrets may come from.
        public var dotEnvPath: String?
        public var history: HistoryStore
        /// The process environment (`{{$env.NAME}}`, `FATHOM_SECRET_<NAME>`).
        public var environment: [String: String]
        /// Whether a response is shown in full when it arrives (`replay` shows one line of its own).
        public var rendersResponses = true
        /// Whether a passing `expect` says so.
        public var reportsPassedExpectations = true

        public init(
            colors: Bool = false, environmentPaths: [String] = EnvironmentFile.defaultPaths(),
            dotEnvPath: String? = FileManager.default.currentDirectoryPath + "/.env",
            history: HistoryStore = HistoryStore(path: nil),
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) {
            self.colors = colors
            self.environmentPaths = environmentPaths
            self.dotEnvPath = dotEnvPath
            self.history = history
            self.environment = environment
        }
    }

    /// Sent unless the draft or a default sets its own.
    public static let userAgent = "fathom/0.2"

    let console: any Console
    let options: Options
    var palette: Palette
    var session: Session
    /// Masks every secret in everything the executor prints; shared with the client's wire log.
    public nonisolated let redactor = Redactor()
    let cookieJar = CookieJar()
    /// What the prompt and completion read, from the line editor's thread.
    public nonisolated let snapshot = SessionSnapshot()
    var clients = ClientCache()
    /// What happened since ``takeEvents()`` was last called: responses and expectations, for `replay`.
    var events: [Event] = []
    /// The request the line being run sent, for the session log.
    var lastSent: (summary: String, recorded: RecordedResponse?)?
    /// Where the line being run comes from (`FILE:LINE`) when it comes from a file.
    var location: String?
    /// The last response body parsed as JSON, by response number: several `expect`/`let` lines
    /// after one request parse it once.
    var parsedBody: (number: Int, json: JSON)?
    /// Whether the last line meant to send a request got no response: `expect` and `let` then
    /// refuse to read an older response as if it were that request's.
    var lastRequestFailed = false
    /// Variables given from outside (``define(_:_:)``): a `replay` at the prompt passes them on.
    var externalVariables: [(name: String, value: String)] = []
    /// How deep `load` is nested (a file that loads itself stops at a limit).
    var loadDepth = 0

    /// Something `replay` reports on.
    public enum Event: Sendable, Equatable {
        case response(number: Int, method: String, path: String, status: HTTPStatus, time: Duration)
        case expectation(line: String, result: ExpectationResult)
    }

    /// The events since the last call, oldest first.
    public func takeEvents() -> [Event] {
        defer { events = [] }
        return events
    }

    public init(console: any Console, options: Options = Options()) {
        self.console = console
        self.options = options
        self.palette = Palette(enabled: options.colors)
        self.session = Session(variables: Variables(environment: options.environment))
        if let path = options.dotEnvPath {
            session.dotEnv = DotEnv.load(path)
            session.variables.environment.merge(session.dotEnv) { process, _ in process }
        }
        snapshot.update(from: session, redactor: redactor)
    }

    /// Runs one entry (a line, or several gathered by ``LineAssembler``).
    public func run(_ entry: String) async -> Outcome {
        // Only the prompt and completion read the snapshot: scripts and replays skip the work.
        defer { if console.isInteractive { snapshot.update(from: session, redactor: redactor) } }
        do {
            let command = try CommandParser.parse(entry)
            lastSent = nil
            // Events are about the line being run (and the lines a `load` in it runs): nobody
            // reads them in a session at the prompt, so they must not pile up there.
            if loadDepth == 0 { events = [] }
            let sends = command.sendsRequest
            if sends { lastRequestFailed = true }
            let outcome = try await execute(command, line: entry)
            if sends, outcome == .succeeded { lastRequestFailed = false }
            // A failed expectation is still part of the session: it says what should hold.
            if outcome == .succeeded || (outcome == .failed && command.isExpectation) {
                log(command, entry: entry)
            }
            return outcome
        } catch let error as CommandError {
            fail(error.description)
        } catch let error as NetworkError {
            fail(Self.describe(error))
        } catch is CancellationError {
            fail("cancelled")
        } catch {
            fail("error: \(error)")
        }
        return .failed
    }

    /// Runs several entries in order, as `-c` does; a failure does not stop the rest.
    public func run(lines: [String]) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for line in lines {
            let outcome = await run(line)
            outcomes.append(outcome)
            if outcome == .exit { break }
        }
        return outcomes
    }

    func execute(_ command: Command, line: String) async throws -> Outcome {
        switch command {
        case .nothing: break
        case .exit: return .exit
        case .base(let url): try setBase(url)
        case .path(let target): session.draft.target = target
        case .cd(let argument): session.draft.cd(argument)
        case .method(let method): try setMethod(method)
        case .query(let edits): try editQuery(edits)
        case .header(let edits): editHeaders(edits)
        case .body(let spec): try setBody(spec)
        case .send: return try await send()
        case .show(let target): try show(target)
        case .reset: session.draft = Draft()
        case .oneLiner(let method, let target, let items): return try await oneLiner(method, target, items)
        case .defaults(let edit): editDefaults(edit)
        case .auth(let spec): try await setAuth(spec)
        case .set(let name, let value): try setVariable(name, value)
        case .unset(let name): try unsetVariable(name)
        case .vars: listVariables()
        case .secret(let name, let value): try await setSecret(name, value)
        case .reveal(let name): try reveal(name)
        case .env(let use): try useEnvironment(use)
        case .decoder(let mode): setDecoder(mode)
        case .log(let detail, let file): try setLog(detail, file: file)
        case .timeout(let setting): setTimeout(setting)
        case .redirects(let setting): setRedirects(setting)
        case .insecure(let on): setInsecure(on)
        case .proxy(let setting): try setProxy(setting)
        case .cookies(let action): cookies(action)
        case .mock(let action): try mock(action)
        case .pager(let mode): setPager(mode)
        case .responses: listResponses()
        case .inspect(let number, let expression, let paths): try inspect(number, expression, paths: paths)
        case .capture(let name, let source, let number): try capture(name, source, number)
        case .diff(let request): try diff(request)
        case .expect(let expectation): return try expect(expectation, line: line)
        case .volatile(let expression): volatile(expression)
        case .save(let file, let requestsOnly): try save(to: file, requestsOnly: requestsOnly)
        case .load(let file): return try await load(file)
        case .record(let on): record(on)
        case .replay(let files, let compare): return await replay(files, compare: compare)
        case .help(let topic): help(topic)
        case .history: listHistory()
        }
        return .succeeded
    }

    // MARK: - Output

    /// Prints `text` (a line or more) with every secret masked.
    func say(_ text: String) {
        console.write(redactor.redact(text.hasSuffix("\n") ? text : text + "\n"))
    }

    /// Prints one error line, masked.
    func fail(_ message: String) {
        console.writeError(redactor.redact(palette.red((location.map { "\($0): " } ?? "") + message)) + "\n")
    }

    /// A long text: through the pager when it is taller than the terminal, else printed.
    func show(long text: String) {
        let masked = redactor.redact(text)
        let pager = session.settings.pager
        if console.isInteractive, pager != .off {
            let lines = masked.reduce(into: 0) { count, character in if character == "\n" { count += 1 } }
            if pager == .on || (console.rows > 0 && lines > console.rows - 2), console.page(masked) { return }
        }
        console.write(masked.hasSuffix("\n") || masked.isEmpty ? masked : masked + "\n")
    }

    /// A network error as one line, with what to do where there is something to do.
    static func describe(_ error: NetworkError) -> String {
        let text = "error: \(error)"
        switch error {
        case .tls: return text + " — use `insecure on` to proceed"
        case .timeout(.total, _), .timeout(.read, _): return text + " — allow more with `timeout 30s`"
        case .tooManyRedirects: return text + " — change the limit with `redirects N`"
        case .noMock: return text + " — add one with `mock PATH @FILE`, or `mock off`"
        default: return text
        }
    }
}
