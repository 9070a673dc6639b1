import ArgumentParser
import FathomDemo
import FathomHTTP
import FathomJSON
import FathomREPL
import Foundation

/// `fathom replay FILE…`: session files as checks, for a person or for CI.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run session files top to bottom, check their expectations, and report.",
        discussion: """
            Each file runs in a fresh session: one line per request (✓ or ✗, method, path, status, time), \
            every failed check with expected and actual and FILE:LINE, then a summary naming the failing \
            files and lines. Every file is read and checked before any request is sent: its lines, the \
            files it reads, its secrets, --env and --spec. A file stops at its first failed request; the \
            rest are reported as skipped.

            FILES may be folders (every .fathom file under them) and quoted globs ('tests/**/*.fathom'), \
            run in sorted order. Relative names in a file (body @, load, spec, mock) are read from the \
            file's folder; fathom.env.json and .env are the nearest ones from the file's folder up to the \
            repository root, unless --env-file and --dotenv name them.

            Variables: --var NAME=VALUE and FATHOM_VAR_NAME win over --env's variables, which win over \
            a file's own set lines. Secrets come from FATHOM_SECRET_NAME, .env, or a prompt when both \
            standard input and output are a terminal and CI is unset.

            Exit status:
              0    every request passed
              1    a check failed: an expectation, a recording, the schema
              2    a file or usage problem, or a secret the files name with no value: nothing was sent
              3    a runtime error: no answer, a secret asked for mid-run with no value, --max-time
              130  SIGINT, 143 SIGTERM: the report holds the results so far
            """
    )

    @Argument(
        help: "Session files (*.fathom), folders, globs, or HAR files.", completion: .file(extensions: ["fathom"]))
    var files: [String]

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Diff each response against the file's recording (NAME.recording.json): exact, or additive to accept added fields.",
            valueName: "mode"))
    var compare: CompareMode?

    @Flag(help: "Write each file's responses as its recording (NAME.recording.json); the files are not changed.")
    var record = false

    @Option(
        name: .long,
        help: "With --compare, a JSONPath left out of every comparison, as `volatile` in a file; repeat for several.")
    var volatile: [String] = []

    @Option(
        name: .long, help: "Load this OpenAPI description in every session first: each response is checked against it.")
    var spec: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "fail: a response that breaks its schema fails its request. warn: it is only said.", valueName: "mode"))
    var schema: SchemaMode = .fail

    @Flag(
        name: .long,
        help: "After the run, list the description's operations called and not, with statuses seen and declared.")
    var coverage = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write JUnit XML to this file (its folder is made): a test case per request.", valueName: "file"))
    var junit: String?

    @Option(name: .long, help: ArgumentHelp("Switch every session to this environment first.", valueName: "name"))
    var env: String?

    @Option(name: .customLong("env-file"), help: ArgumentHelp("Read environments from this file.", valueName: "file"))
    var envFile: String?

    @Option(
        name: .customLong("dotenv"),
        help: ArgumentHelp("Read secrets and $env values from this .env file.", valueName: "file"))
    var dotEnv: String?

    @Option(name: .customLong("var"), help: "Set a variable in every file (NAME=VALUE); repeat for several.")
    var variables: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The longest one request may take (e.g. 30s), whatever a file's `timeout` says.", valueName: "duration"))
    var timeout: String?

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp("The longest a connection may take to establish.", valueName: "duration"))
    var connectTimeout: String?

    @Option(
        name: .customLong("max-time"),
        help: ArgumentHelp("The longest the whole run may take; then it stops (status 3).", valueName: "duration"))
    var maxTime: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Send a request again up to N times when nothing answered (never for a failed check).", valueName: "n"))
    var retry = 0

    @Option(
        name: .customLong("retry-interval"), help: ArgumentHelp("The wait before each retry.", valueName: "duration"))
    var retryInterval = "1s"

    @Flag(name: .customLong("continue-on-error"), help: "Go on with a file's requests after one fails.")
    var continueOnError = false

    @Flag(name: .long, help: "Stop the run after the first file that fails.")
    var failFast = false

    @Flag(name: .long, help: "Print only failures and the summary.")
    var quiet = false

    @Option(
        name: [.customShort("j"), .long],
        help: ArgumentHelp(
            "Run up to N files at once; each file's report is printed whole, in file order.", valueName: "n"))
    var jobs = 1

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run the I-th of N slices of the files (1/4 … 4/4): every file is in exactly one slice, the same one on every machine, for a CI matrix.",
            valueName: "i/n"))
    var shard: String?

    @Flag(
        name: .long,
        help: "Start the built-in demo API on 127.0.0.1; its URL is the variable {{demo}}, its gRPC service {{grpc}}.")
    var demo = false

    @Flag(
        name: .long,
        help:
            "Never ask for input: a secret with no value is a problem (status 2). Also when CI is set, or standard input or output is not a terminal."
    )
    var noInput = false

    @OptionGroup var output: OutputOptions
    @OptionGroup var session: SessionOutputOptions

    enum CompareMode: String, ExpressibleByArgument, CaseIterable {
        case exact, additive
    }

    enum SchemaMode: String, ExpressibleByArgument, CaseIterable {
        case fail, warn
    }

    /// `--compare` alone means `--compare exact`, and `--compare additive` is read as one option:
    /// the words are joined before the parser sees them.
    static func normalize(_ arguments: [String]) -> [String] {
        guard arguments.first == "replay" else { return arguments }
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            if argument == "--compare" {
                let next = index + 1 < arguments.count ? arguments[index + 1] : nil
                if let next, CompareMode(rawValue: next) != nil {
                    result.append("--compare=\(next)")
                    index += 2
                    continue
                }
                result.append("--compare=exact")
            } else {
                result.append(argument)
            }
            index += 1
        }
        return result
    }

    func validate() throws {
        for expression in volatile {
            do {
                _ = try JSONPath(expression)
            } catch {
                throw ValidationError("--volatile '\(expression)': \(error)")
            }
        }
        for variable in variables {
            guard let equals = variable.firstIndex(of: "="), equals != variable.startIndex else {
                throw ValidationError("--var takes NAME=VALUE, not '\(variable)'")
            }
        }
        for (option, value) in [
            ("--timeout", timeout), ("--connect-timeout", connectTimeout), ("--max-time", maxTime),
            ("--retry-interval", retryInterval),
        ] {
            if let value, ReplayRunner.duration(value) == nil {
                throw ValidationError("\(option) takes a duration such as 30s, 500ms or 2m, not '\(value)'")
            }
        }
        guard retry >= 0 else { throw ValidationError("--retry takes a count, 0 or more") }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs takes a count from 1 to 256") }
        if let shard, ReplayRunner.shard(shard) == nil {
            throw ValidationError("--shard takes I/N with 1 ≤ I ≤ N, such as 2/4, not '\(shard)'")
        }
        if record, compare != nil { throw ValidationError("--record writes recordings; --compare reads them: use one") }
    }

    func run() async throws {
        var options = ReplayRunner.Options()
        options.compare = compare != nil
        options.additive = compare == .additive
        options.record = record
        options.volatile = volatile
        options.spec = spec
        options.schemaFails = schema == .fail
        options.coverage = coverage
        options.junitPath = junit
        options.environment = env
        options.environmentFile = envFile
        options.dotEnvFile = dotEnv
        options.failFast = failFast
        options.jobs = jobs
        options.shard = shard.flatMap(ReplayRunner.shard)
        options.continueOnError = continueOnError
        options.retries = retry
        options.retryInterval = ReplayRunner.duration(retryInterval) ?? .seconds(1)
        options.executor.requestTimeout = timeout.flatMap(ReplayRunner.duration)
        options.executor.connectTimeout = connectTimeout.flatMap(ReplayRunner.duration)
        options.quiet = quiet
        options.colors = session.format == .text && output.colorMode.isEnabled
        options.format = session.format
        let environment = ProcessEnvironment.current
        // FATHOM_VAR_NAME first, so that --var NAME=… given as well wins.
        options.variables =
            environment.keys.filter { $0.hasPrefix("FATHOM_VAR_") && $0.count > "FATHOM_VAR_".count }.sorted()
            .map { (String($0.dropFirst("FATHOM_VAR_".count)), environment[$0] ?? "") }
        options.variables += variables.map { variable in
            let equals = variable.firstIndex(of: "=")!
            return (String(variable[..<equals]), String(variable[variable.index(after: equals)...]))
        }
        var server: LoopbackServer?
        if demo {
            let started = try await DemoAPI.start()
            server = started
            options.variables.insert(("demo", started.baseURL), at: 0)
            if let grpc = started.grpc { options.variables.insert(("grpc", grpc.target), at: 1) }
        }
        // Asks for a missing secret only where a person is: both ends a terminal (a CI's pseudo-
        // terminal aside), and not told otherwise.
        let inCI = ContinuousIntegration.detected(in: environment)
        let terminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && !inCI && !noInput
        let runner = ReplayRunner(
            options: options, output: StandardConsole(interactive: false),
            prompter: StandardConsole(interactive: terminal))
        let files = self.files
        let task = Task { await runner.run(files: files) }
        // SIGINT and SIGTERM end the run with its report written; a second one ends it at once.
        let stop = options.stop
        let signals = [SIGINT, SIGTERM].map { (number: Int32) -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.reason != nil { Foundation.exit(128 + number) }
                stop.stop(.signal(number))
                task.cancel()
            }
            source.resume()
            return source
        }
        let limit = maxTime.flatMap(ReplayRunner.duration)
        let timer = Task {
            guard let limit else { return }
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled else { return }
            stop.stop(.maxTime(limit))
            task.cancel()
        }
        let status = await task.value
        timer.cancel()
        for source in signals { source.cancel() }
        await server?.stop()
        if status != 0 { throw ExitCode(status) }
    }
}
