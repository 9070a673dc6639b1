import ArgumentParser
import FathomDemo
import FathomJSON
import FathomREPL
import Foundation

/// `fathom replay FILE…`: session files as checks, for a person or for CI.
struct Replay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run session files top to bottom, check their expectations, and report.",
        discussion: """
            Each file runs in a fresh session: one line per request (✓ or ✗, method, path, status, time), \
            every failed expectation with expected and actual and FILE:LINE, then a summary. Every file \
            is read and checked before any request is sent. Secrets come from FATHOM_SECRET_<NAME>, a \
            .env file, or a prompt on a terminal. Exit status: 0 when everything passed, 1 when an \
            expectation, a comparison or a request failed, 2 when a file cannot be read, has an invalid \
            line, lacks its recording (--compare), names an unknown --env, or needs a secret that has no value.
            """
    )

    @Argument(help: "Session files (*.fathom).", completion: .file(extensions: ["fathom"]))
    var files: [String]

    @Flag(help: "Diff each response against the file's recording (NAME.recording.json), ignoring volatile fields.")
    var compare = false

    @Option(
        name: .long,
        help: "With --compare, a JSONPath left out of every comparison, as `volatile` in a file; repeat for several.")
    var volatile: [String] = []

    @Option(
        name: .long, help: "Load this OpenAPI description in every session first: each response is checked against it.")
    var spec: String?

    @Flag(
        name: .long,
        help: "After the run, list the description's operations called and not, with statuses seen and declared.")
    var coverage = false

    @Option(name: .long, help: "Write JUnit XML to this file: a test case per request.")
    var junit: String?

    @Option(name: .long, help: "Switch every session to this environment (from fathom.env.json) first.")
    var env: String?

    @Option(name: .customLong("var"), help: "Set a variable before each file runs (NAME=VALUE); repeat for several.")
    var variables: [String] = []

    @Flag(name: .long, help: "Stop at the first failed request.")
    var failFast = false

    @Flag(name: .long, help: "Print only failures and the summary.")
    var quiet = false

    @Flag(name: .long, help: "Start the built-in demo API on 127.0.0.1; its URL is the variable {{demo}}.")
    var demo = false

    @Flag(
        name: .long,
        help:
            "Never ask for input: a secret with no value is a problem (status 2). Also when CI is set, or standard input or output is not a terminal."
    )
    var noInput = false

    @OptionGroup var output: OutputOptions
    @OptionGroup var session: SessionOutputOptions

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
    }

    func run() async throws {
        var options = ReplayRunner.Options()
        options.compare = compare
        options.volatile = volatile
        options.spec = spec
        options.coverage = coverage
        options.junitPath = junit
        options.environment = env
        options.failFast = failFast
        options.quiet = quiet
        options.colors = session.output == .text && output.color.isEnabled
        options.format = session.output
        options.variables = variables.map { variable in
            let equals = variable.firstIndex(of: "=")!
            return (String(variable[..<equals]), String(variable[variable.index(after: equals)...]))
        }
        var server: LoopbackServer?
        if demo {
            let started = try await DemoAPI.start()
            server = started
            options.variables.insert(("demo", started.baseURL), at: 0)
        }
        // Asks for a missing secret only where a person is: both ends a terminal (a CI's pseudo-
        // terminal aside), and not told otherwise.
        let environment = ProcessInfo.processInfo.environment
        let inCI = environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        let terminal = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && !inCI && !noInput
        let runner = ReplayRunner(
            options: options, output: StandardConsole(interactive: false),
            prompter: StandardConsole(interactive: terminal))
        let status = await runner.run(files: files)
        await server?.stop()
        if status != 0 { throw ExitCode(status) }
    }
}
