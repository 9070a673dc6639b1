import ArgumentParser
import FathomDemo
import FathomHTTP
@_spi(Fathom) import FathomREPL
import Foundation

@main
struct Fathom: AsyncParsableCommand {
    static func main() async {
        // Writing to a closed pipe is an error Fathom handles, not a signal that kills it.
        StandardStreams.prepare()
        if ["-h", "--help", "help"].contains(CommandLine.arguments.dropFirst().first), CommandLine.arguments.count == 2
        {
            // The prompt is the default command: its options are Fathom's, shown with the subcommands.
            print(Self.helpWithThePrompt())
            return
        }
        // The two commonest starts skip the root's parse, which builds and reflects on every
        // subcommand's options (a third of start-up, measured by `make bench-repl`).
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            print(configuration.version)
            return
        }
        do {
            if let start = Prompt.Start(simple: arguments) {
                try await Prompt.open(start)
                return
            }
            var command = try parseAsRoot(Replay.normalize(subcommandFirst(arguments)))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // A usage error is exit status 2, as the README's table, `--help` and the manual say
            // (and as curl, jq and diff have it), not ArgumentParser's 64.
            if exitCode(for: error) == ExitCode(64) {
                StandardStreams.diagnose(fullMessage(for: error))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    /// The arguments with a subcommand named after options (`fathom --color never config`) moved
    /// first, where the parser looks for it: otherwise the prompt, the default command, would take
    /// its name for a URL. A word that is an option's value (`-c config`) is not moved.
    static func subcommandFirst(_ arguments: [String]) -> [String] {
        let names = Set(configuration.subcommands.map { $0.configuration.commandName ?? "" })
        let takingValues: Set<String> = ["-c", "--color", "--output", "--env", "--spec"]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" || !argument.hasPrefix("-") {
                guard names.contains(argument), index > 0 else { return arguments }
                var moved = arguments
                moved.remove(at: index)
                return [argument] + moved
            }
            index += takingValues.contains(argument) ? 2 : 1
        }
        return arguments
    }

    /// `fathom --help`: the prompt's usage, arguments and options (it is what `fathom` runs), then
    /// the subcommands, from the same definitions `fathom prompt --help` and each subcommand read.
    static func helpWithThePrompt() -> String {
        let root = helpMessage()
        let prompt = Fathom.helpMessage(for: Prompt.self)
        func section(_ text: String, from start: String, to end: String?) -> Substring {
            guard let from = text.range(of: start) else { return "" }
            let until = end.flatMap { text.range(of: $0, range: from.upperBound..<text.endIndex)?.lowerBound }
            return text[from.lowerBound..<(until ?? text.endIndex)]
        }
        let overview = section(root, from: "OVERVIEW:", to: "USAGE:")
        let usage = section(prompt, from: "USAGE:", to: "ARGUMENTS:").replacingOccurrences(
            of: "fathom prompt", with: "fathom")
        let options = section(prompt, from: "ARGUMENTS:", to: nil)
        let subcommands = section(root, from: "SUBCOMMANDS:", to: nil)
        return overview + usage.trimmingCharacters(in: .newlines) + "\n       fathom <subcommand>\n\n"
            + options.trimmingCharacters(in: .newlines) + "\n\n" + subcommands
    }

    /// Fathom's version, as CHANGELOG.md records it.
    static let version = FathomVersion.current

    static let configuration = CommandConfiguration(
        commandName: "fathom",
        abstract: "Explore HTTP APIs from the terminal.",
        version: "\(version) (commit \(buildCommit))",
        subcommands: [
            Prompt.self, Replay.self, Import.self, Format.self, Query.self, Diff.self, Patch.self, Serve.self,
            TourCommand.self, ConfigCommand.self, MCPCommand.self,
        ],
        defaultSubcommand: Prompt.self
    )
}

/// `fathom [URL]`: the interactive prompt, or the lines of `-c` and standard input.
///
/// The default subcommand, so that a base URL as the first argument never shadows `fmt`, `serve`….
struct Prompt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt",
        abstract: "Open the prompt (the default): build requests step by step, send them, read the responses.",
        discussion: """
            Without a command, Fathom opens an interactive prompt: build a request step by step \
            (path, query, header, body), send it, read the colored response. `help` at the prompt lists \
            the commands. With -c or a script on standard input, the lines run in order and the exit \
            status is 0 when every one succeeded, 1 otherwise.
            """
    )

    @Argument(help: "The base URL relative paths resolve against.")
    var url: String?

    @Flag(name: .long, help: "Start the built-in demo API on 127.0.0.1 and point the session at it.")
    var demo = false

    @Option(name: .long, help: "Switch to this environment (from fathom.env.json) at start.")
    var env: String?

    @Option(
        name: .long,
        help: "Load this OpenAPI description (file or URL): ls, describe, op, completion and schema checks.")
    var spec: String?

    @Option(name: .customShort("c"), help: "Run this command line and exit; repeat for several.")
    var commands: [String] = []

    @OptionGroup var output: OutputOptions
    @OptionGroup var session: SessionOutputOptions

    /// Prints the prompt's commands as a man page section (mdoc), from the command registry:
    /// `make install` splices it into the manual argument-parser generates from the definitions
    /// `--help` reads, so the page, `--help` and `help` at the prompt cannot drift. Private: no
    /// help, completion or manual lists it.
    @Flag(name: .customLong("manual-section"), help: .private)
    var manualSection = false

    /// What the prompt starts with, as the command line gave it: plain values, so that `fathom`
    /// alone opens the prompt without the parser's reflection over every option.
    struct Start {
        var url: String?
        var demo = false
        var env: String?
        var spec: String?
        var commands: [String] = []
        var color: ColorMode?
        var output: OutputFormat?
    }

    func run() async throws {
        if manualSection {
            print(CommandReference.manualSection(), terminator: "")
            return
        }
        try await Self.open(
            Start(
                url: url, demo: demo, env: env, spec: spec, commands: commands, color: output.color,
                output: session.output))
    }

    static func open(_ start: Start) async throws {
        let (url, demo, env, spec, commands) = (start.url, start.demo, start.env, start.spec, start.commands)
        let interactive = commands.isEmpty && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        // The person's settings: flags over the environment over the config file over Fathom's own.
        let config = UserConfig.resolved(color: start.color, output: start.output)
        for problem in config.problems {
            StandardStreams.diagnose("fathom: " + problem)
        }
        let format = OutputFormat(rawValue: config[.output]) ?? .text
        let colors =
            switch ColorMode(rawValue: config[.color]) ?? .auto {
            case _ where format == .json: false
            case .always: true
            case .never: false
            case .auto: interactive && ProcessEnvironment.current["NO_COLOR"] == nil
            }
        let history = HistoryStore(
            path: interactive ? HistoryStore.defaultPath() : nil,
            limit: Int(config[.history]) ?? HistoryStore.defaultLimit)
        let console = StandardConsole(interactive: interactive)
        var options = Executor.Options(history: history, prompter: console)
        // A person's prompt, one-liner or script keeps its exchanges for later sessions.
        options.archive = config.responseArchive()
        let executor = Executor(options: options)

        let (startup, server) = try await REPL.StartupStep.fromCommandLine(
            config: config, demo: demo, url: url, env: env, spec: spec)

        let input: REPL.Input = !commands.isEmpty ? .arguments(commands) : interactive ? .terminal : .standardInput
        let repl = REPL(
            executor: executor, input: input, console: console, history: history, colors: colors,
            interactive: interactive, format: format)
        let startedWell = await repl.start(with: startup)
        if let server, format == .text {
            console.write(
                TerminalText.finish(DemoTour.text(baseURL: server.baseURL, palette: Palette(enabled: colors))))
        }
        let status = await repl.run()
        await server?.stop()
        if status != 0 || !startedWell { throw ExitCode(1) }
    }
}

extension REPL.StartupStep {
    /// What a session starts with from the command line — the config's settings, the demo
    /// (started here when asked), a base, an environment, a description — for the prompt and
    /// `fathom mcp` alike; the demo's server, to stop when the session ends.
    static func fromCommandLine(
        config: UserConfig, demo: Bool, url: String?, env: String?, spec: String?
    ) async throws -> (steps: [REPL.StartupStep], demo: LoopbackServer?) {
        var server: LoopbackServer?
        var steps = config.commandLines.map(REPL.StartupStep.setting)
        if demo {
            let started = try await DemoAPI.start()
            server = started
            // The demo describes itself: `ls`, `describe` and schema checks work from the start.
            steps.append(.demo(url: started.baseURL, describes: spec == nil, grpc: started.grpc?.target))
        }
        if let url { steps.append(.base(url)) }
        if let env { steps.append(.environment(env)) }
        if let spec { steps.append(.spec(spec)) }
        return (steps, server)
    }
}

extension Prompt.Start {
    /// The prompt's own arguments when they are plainly written — a URL, `--demo`, and
    /// `--env`, `--spec`, `-c`, `--color`, `--output` each followed by its value — so that
    /// the usual starts skip the parser; `nil` for anything else (a subcommand, help, a
    /// mistake), which the parser reads and explains.
    init?(simple arguments: [String]) {
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--demo": demo = true
            case "--env":
                guard let given = value() else { return nil }
                env = given
            case "--spec":
                guard let given = value() else { return nil }
                spec = given
            case "-c":
                guard let given = value() else { return nil }
                commands.append(given)
            case "--color":
                guard let given = value().flatMap(ColorMode.init(rawValue:)) else { return nil }
                color = given
            case "--output":
                guard let given = value().flatMap(OutputFormat.init(rawValue:)) else { return nil }
                output = given
            default:
                // A URL, once, first or anywhere, that no subcommand or option could be.
                let names = Fathom.configuration.subcommands.map { $0.configuration.commandName }
                guard url == nil, !argument.hasPrefix("-"), !names.contains(argument), argument != "help"
                else { return nil }
                url = argument
            }
            index += 1
        }
    }
}

/// The three lines `fathom --demo` prints before the prompt.
enum DemoTour {
    static func text(baseURL: String, palette: Palette) -> String {
        """
        \(palette.bold("Fathom demo API at \(baseURL)")) — users, todos, auth, errors, slow and large responses.
        Try: get /users · get /users/1 · post /users name=Grace email=grace@example.com · get /users/9999
        Auth: post /login username=ada password=difference-engine, then auth bearer TOKEN · help lists every command
        The demo's OpenAPI description is loaded: ls · describe getUser · op getUser id=2 · spec coverage
        Streams: get /events · get /stream count==0 (Ctrl-C ends it) · ws /ws?ticks=3 (Ctrl-D closes)
        A race: post /accounts/1/withdraw amount:=60 --repeat 2 -c 2
        GraphQL: graphql /graphql · { users(role: ADMIN) { name todos { title } } } · subscription { ticks }
        gRPC: grpc {{grpc}} --plaintext · ls · call GetUser id:=2 · call ListTodos userId:=1 · base {{demo}} returns

        """
    }
}

/// `fathom serve`: the demo API in the foreground.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the demo API on 127.0.0.1 until interrupted.")

    @Option(name: .long, help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Flag(name: .long, help: "Print a line for each request received: method, URI and a short body.")
    var accessLog = false

    func run() async throws {
        var log: (@Sendable (String) -> Void)?
        if accessLog {
            log = { line in
                StandardStreams.write(line + "\n", to: STDOUT_FILENO)
            }
        }
        let server = try await DemoAPI.start(port: port, accessLog: log)
        print(server.baseURL)
        if let grpc = server.grpc { print("gRPC \(grpc.target)") }
        fflush(nil)
        try await server.wait()
    }
}

/// Options every command shares. Declared as one group in the root and in each subcommand, so
/// `--color` reaches whichever command runs (a plain option in both would be taken by the root).
struct OutputOptions: ParsableArguments {
    @Option(help: "Color output: auto (a terminal, and NO_COLOR unset; the default), always or never.")
    var color: ColorMode?

    /// The mode asked for, `auto` when none was.
    var colorMode: ColorMode { color ?? .auto }
}

/// How a session's outputs are written, for the prompt's scripts and for replay.
struct SessionOutputOptions: ParsableArguments {
    @Option(
        help: """
            text: what a person reads. json: one JSON object per output on its own line (NDJSON): \
            responses, expectations, captures, events and failures, secrets masked — for scripts. \
            The objects are described in docs/output.schema.json. text by default.
            """)
    var output: OutputFormat?

    /// The format asked for, `text` when none was.
    var format: OutputFormat { output ?? .text }
}

extension UserConfig {
    /// The config file and environment, with the flags given on top.
    static func resolved(output: OutputOptions, session: SessionOutputOptions) -> UserConfig {
        resolved(color: output.color, output: session.output)
    }

    /// The config file and environment, with `--color` and `--output` on top when given.
    static func resolved(color: ColorMode?, output: OutputFormat?) -> UserConfig {
        var config = UserConfig()
        if let color { config.setFlag(.color, color.rawValue, name: "--color") }
        if let output { config.setFlag(.output, output.rawValue, name: "--output") }
        return config
    }
}

/// `fathom config`: each setting the prompt starts with, and where it comes from.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings the prompt starts with, and where each comes from.",
        discussion: """
            The config file ($XDG_CONFIG_HOME/fathom/config, ~/.config/fathom/config, or $FATHOM_CONFIG) is \
            written in the session-file language: a setting per line as the prompt takes it (timeout 10s, \
            validate strict, pager off, redirects 3), # comments, and color, output, history and the \
            response archive's (archive on|off, archive-size 100MB, archive-age 30d), which exist only at start. The environment (FATHOM_TIMEOUT, FATHOM_COLOR…, NO_COLOR) wins over the \
            file, and a flag over both. fathom replay reads none of it.
            """)

    @OptionGroup var output: OutputOptions
    @OptionGroup var session: SessionOutputOptions

    func run() throws {
        let config = UserConfig.resolved(output: output, session: session)
        let exists = FileManager.default.fileExists(atPath: config.path)
        print("config file: \(TerminalText.visible(config.path))\(exists ? "" : " (none)")")
        let width = UserConfig.Key.allCases.map(\.rawValue.count).max() ?? 0
        let values = config.settings.map { TerminalText.visible($0.value) }
        let valueWidth = values.map(\.count).max() ?? 0
        for (setting, value) in zip(config.settings, values) {
            let key = setting.key.rawValue
            print(
                key + String(repeating: " ", count: width - key.count + 2) + value
                    + String(repeating: " ", count: valueWidth - value.count + 2)
                    + TerminalText.visible(setting.source.description))
        }
        for problem in config.problems {
            StandardStreams.diagnose("fathom: " + problem)
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}

enum ColorMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    var isEnabled: Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: isatty(STDOUT_FILENO) == 1 && ProcessEnvironment.current["NO_COLOR"] == nil
        }
    }
}
