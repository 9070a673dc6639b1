import ArgumentParser
import FathomDemo
import FathomHTTP
@_spi(Fathom) import FathomREPL
import Foundation
import Synchronization

/// `fathom mcp`: one Fathom session as a Model Context Protocol server on standard input and
/// output, for agents. What the tools do, and every guard, is FathomREPL's ``AgentSession``; this
/// is the command line's side; FathomREPL's ``MCPServer`` speaks the protocol.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: "Serve a session to AI agents over the Model Context Protocol (stdio).",
        discussion: """
            Tools: send, op, ls, describe, inspect, expect, responses, save. Read-only unless --allow-writes: a \
            request whose method may change the server is refused before anything is sent. Credentials and \
            defaults go only to their API's origin; secrets are masked in every message. Every call is saved \
            to the transcript, which `fathom replay FILE` runs.
            """)

    @Argument(help: "The base URL.")
    var url: String?

    @Flag(name: .long, help: "Start the built-in demo API on 127.0.0.1 and point the session at it.")
    var demo = false

    @Option(name: .long, help: "Load this OpenAPI description (a file or URL).")
    var spec: String?

    @Option(name: .long, help: "Switch to this environment (from fathom.env.json) at start.")
    var env: String?

    @Option(
        name: .long,
        help: "Run this file's lines first (`auth bearer {{token}}`, `default header …`): the session the agent gets.")
    var setup: String?

    @Flag(name: .long, help: "Allow requests whose method may change the server (POST, PUT, PATCH, DELETE).")
    var allowWrites = false

    @Option(name: .long, help: "Where the session file goes (default: $XDG_STATE_HOME/fathom/mcp/TIME.fathom).")
    var transcript: String?

    func run() async throws {
        let environment = ProcessEnvironment.current
        var options = Executor.Options()
        options.readOnly = !allowWrites
        let executor = Executor(options: options)
        let path = transcript ?? AgentSession.defaultTranscript(environment: environment)
        let session = AgentSession(executor: executor, allowWrites: allowWrites, transcript: path)

        var (steps, demoServer) = try await REPL.StartupStep.fromCommandLine(
            config: UserConfig.resolved(color: nil, output: nil), demo: demo, url: url, env: env, spec: spec)
        if let setup {
            // One line each, as a person would type them; comments and blank lines skipped.
            let text = try String(contentsOfFile: setup, encoding: .utf8)
            for line in text.split(whereSeparator: \.isNewline) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty, !trimmed.hasPrefix("#") { steps.append(.setting(trimmed)) }
            }
        }
        // Standard output is the protocol's: what goes wrong at the start goes to standard error.
        for failure in await session.start(with: steps) {
            StandardStreams.diagnose("fathom mcp: " + failure.trimmingCharacters(in: .newlines))
        }

        // Standard output is the protocol's: one message per line, each written whole.
        let output = Mutex(())
        let server = MCPServer(session: session, allowWrites: allowWrites, version: FathomVersion.current) { line in
            output.withLock { _ in
                if let failed = StandardStreams.write(line + "\n", to: STDOUT_FILENO) {
                    StandardStreams.outputFailed(failed)
                }
            }
        }
        await server.serve(MCPServer.lines(from: STDIN_FILENO))
        await demoServer?.stop()
    }
}
