import ArgumentParser
import FathomDemo
@_spi(Fathom) import FathomREPL
import Foundation
import MCP
import Synchronization

/// `fathom mcp`: one Fathom session as a Model Context Protocol server on standard input and
/// output, for agents. What the tools do, and every guard, is FathomREPL's ``AgentSession``; this
/// is the protocol's side (the MCP Swift SDK: JSON-RPC, the lifecycle, tools and resources).
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
        let environment = ProcessInfo.processInfo.environment
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

        let server = Server(
            name: "fathom", version: FathomVersion.current,
            instructions: """
                Fathom explores HTTP APIs. `send` a request (a path under the base or a URL), `inspect` a response \
                with JSONPath, `expect` what should hold; with a description loaded, `ls`, `describe` and `op`. \
                Credentials are the session's: never put a secret in an argument. Every call is kept in a \
                transcript a person can replay (`save` says where).
                """,
            capabilities: .init(
                prompts: .init(listChanged: false), resources: .init(subscribe: false, listChanged: false),
                tools: .init(listChanged: false))
        )
        let tools = AgentTool.all(allowWrites: allowWrites).map { tool in
            Tool(
                name: tool.name, title: tool.title, description: tool.description,
                inputSchema: Self.value(tool.inputSchema),
                annotations: .init(
                    title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: tool.destructive,
                    idempotentHint: tool.idempotent, openWorldHint: tool.openWorld),
                outputSchema: Self.value(AgentTool.outputSchema))
        }
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: tools) }
        await server.withMethodHandler(CallTool.self) { parameters in
            let arguments = String(decoding: try JSONEncoder().encode(parameters.arguments ?? [:]), as: UTF8.self)
            // A write the read-only session refused is put to the person, when the client can ask.
            let answer = await session.call(parameters.name, arguments: arguments) { [weak server] question in
                guard let server else { return false }
                // Bounded: a person who never answers sends nothing (the wait ends as a decline;
                // the question left unanswered is the client's to drop).
                let decision = Decision()
                return await withCheckedContinuation { continuation in
                    decision.wait(continuation)
                    Task {
                        let answer = try? await server.requestElicitation(
                            message: question, requestedSchema: Elicitation.RequestSchema(properties: [:]))
                        decision.decide(answer?.action == .accept)
                    }
                    Task {
                        try? await Task.sleep(for: Self.answerWait)
                        decision.decide(false)
                    }
                }
            }
            return .init(
                content: [.text(text: answer.text, annotations: nil, _meta: nil)],
                structuredContent: Self.value(answer.structured) as Value?, isError: answer.isError)
        }
        let resources = [
            Resource(
                name: "session", uri: "fathom://session",
                description: "The session: its APIs and what each applies, variables (secrets masked), settings.",
                mimeType: "text/plain"),
            Resource(
                name: "description", uri: "fathom://description",
                description: "The current API's OpenAPI description, as JSON.", mimeType: "application/json"),
            Resource(
                name: "transcript", uri: "fathom://transcript",
                description: "The session so far as a Fathom file `fathom replay` runs.", mimeType: "text/plain"),
        ]
        await server.withMethodHandler(ListResources.self) { _ in .init(resources: resources, nextCursor: nil) }
        await server.withMethodHandler(ReadResource.self) { parameters in
            guard let text = await session.resource(parameters.uri) else {
                throw MCPError.invalidParams("no resource \(parameters.uri) (a description is loaded with --spec)")
            }
            let type = resources.first { $0.uri == parameters.uri }?.mimeType
            return .init(contents: [.text(text, uri: parameters.uri, mimeType: type)])
        }
        let prompts = AgentPrompt.all.map { prompt in
            MCP.Prompt(
                name: prompt.name, title: prompt.title, description: prompt.description,
                arguments: prompt.argument.map {
                    [MCP.Prompt.Argument(name: $0.name, description: $0.description, required: false)]
                })
        }
        await server.withMethodHandler(ListPrompts.self) { _ in .init(prompts: prompts, nextCursor: nil) }
        await server.withMethodHandler(GetPrompt.self) { parameters in
            guard let prompt = AgentPrompt.all.first(where: { $0.name == parameters.name }) else {
                throw MCPError.invalidParams("no prompt \(parameters.name): explore, regression")
            }
            let value = prompt.argument.flatMap { parameters.arguments?[$0.name] }
            return .init(
                description: prompt.description, messages: [.user(.text(text: prompt.text(value)))])
        }
        try await server.start(transport: StdioTransport())
        await server.waitUntilCompleted()
        await demoServer?.stop()
    }

    /// How long a person has to answer whether a write may go.
    static let answerWait = Duration.seconds(300)

    /// JSON text as the SDK's value (a number integral when it is whole).
    static func value(_ text: String) -> Value {
        (try? JSONDecoder().decode(Value.self, from: Data(text.utf8))) ?? .null
    }
}

/// The first answer to a question, whoever gives it (the person, or the clock).
private final class Decision: Sendable {
    private let waiting = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    func wait(_ continuation: CheckedContinuation<Bool, Never>) { waiting.withLock { $0 = continuation } }

    func decide(_ yes: Bool) { waiting.withLock { $0.take() }?.resume(returning: yes) }
}
