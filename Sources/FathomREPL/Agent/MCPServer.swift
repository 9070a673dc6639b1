import FathomJSON
import Foundation
import Synchronization

/// The Model Context Protocol's server side (`fathom mcp`): JSON-RPC 2.0 messages, one per line,
/// on standard input and output — the lifecycle (`initialize`, `ping`), tools, resources and
/// prompts, and the one question a server asks its client (`elicitation/create`, when a write
/// needs the person's yes). What the tools do, and every guard, is ``AgentSession``'s.
///
/// Fathom's own rather than an SDK's: the protocol's stdio side is a few methods over JSON
/// Fathom already reads and writes, and the SDK brought an HTTP transport that linked libcurl
/// into every start of the binary. Requests run at once, each answered when it is done, so a
/// call waiting for the person's answer does not stop the answer being read.
public final class MCPServer: Sendable {
    /// The protocol versions this server speaks, newest first: a client asking for one of them
    /// gets it, any other the newest.
    public static let versions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// The longest line read: a message past it is answered with a parse error and dropped.
    public static let lineLimit = 16 << 20

    /// How long a person has to answer whether a write may go: past it, the answer is no.
    public static let answerWait = Duration.seconds(300)

    /// A line of input: a message, or one too long to read.
    public enum Line: Sendable {
        case message([UInt8])
        case overlong
    }

    private struct State {
        var nextID = 1
        /// Our questions to the client, by their ID, waiting for its answer.
        var waiting: [Int: CheckedContinuation<JSON?, Never>] = [:]
        /// Whether the client said at `initialize` that it can ask its person.
        var canAsk = false
        /// The input ended: no answer will come.
        var closed = false
    }

    let session: AgentSession
    let allowWrites: Bool
    let version: String
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// - Parameter write: Writes one message (a line, without its newline).
    public init(
        session: AgentSession, allowWrites: Bool, version: String, write: @escaping @Sendable (String) -> Void
    ) {
        self.session = session
        self.allowWrites = allowWrites
        self.version = version
        self.write = write
    }

    /// Serves the messages of `lines` until they end, and the requests under way with them.
    public func serve(_ lines: AsyncStream<Line>) async {
        await withTaskGroup(of: Void.self) { group in
            for await line in lines {
                guard case .message(let bytes) = line else {
                    reply(.null, error: (-32700, "a message longer than \(Self.lineLimit >> 20) MiB"))
                    continue
                }
                guard bytes.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { continue }
                guard let message = try? JSON(parsing: bytes), case .object = message else {
                    reply(.null, error: (-32700, "not a JSON-RPC message: a line of JSON is one message"))
                    continue
                }
                let id = message["id"]
                if case .string(let method)? = message["method"] {
                    // A notification (`notifications/initialized`, `…/cancelled`) wants no answer.
                    guard let id, id != .null else { continue }
                    let parameters = message["params"] ?? .object([])
                    group.addTask { await self.answer(id, method: method, parameters: parameters) }
                } else if case .number(let text)? = id, let number = Int(text) {
                    // The client's answer to a question of ours.
                    let waiting = state.withLock { $0.waiting.removeValue(forKey: number) }
                    waiting?.resume(returning: message["result"])
                }
            }
            // No answer will come to a question still open, nor to any asked from now on.
            let waiting = state.withLock { state in
                state.closed = true
                defer { state.waiting = [:] }
                return Array(state.waiting.values)
            }
            for continuation in waiting { continuation.resume(returning: nil) }
        }
    }

    // MARK: - Requests

    private func answer(_ id: JSON, method: String, parameters: JSON) async {
        do {
            reply(id, result: try await result(method, parameters))
        } catch let error as Refusal {
            reply(id, error: (error.code, error.message))
        } catch {
            reply(id, error: (-32603, "\(error)"))
        }
    }

    /// A request refused with a JSON-RPC error.
    private struct Refusal: Error {
        var code: Int
        var message: String

        static func params(_ message: String) -> Refusal { Refusal(code: -32602, message: message) }
    }

    private func result(_ method: String, _ parameters: JSON) async throws -> JSON {
        switch method {
        case "initialize":
            let asked = Self.string(parameters["protocolVersion"])
            let version = asked.flatMap { Self.versions.contains($0) ? $0 : nil } ?? Self.versions[0]
            if case .object? = parameters["capabilities"]?["elicitation"] { state.withLock { $0.canAsk = true } }
            return .object([
                .init(key: "protocolVersion", value: .string(version)),
                .init(
                    key: "capabilities",
                    value: .object([
                        .init(key: "prompts", value: .object([.init(key: "listChanged", value: .bool(false))])),
                        .init(
                            key: "resources",
                            value: .object([
                                .init(key: "subscribe", value: .bool(false)),
                                .init(key: "listChanged", value: .bool(false)),
                            ])),
                        .init(key: "tools", value: .object([.init(key: "listChanged", value: .bool(false))])),
                    ])),
                .init(
                    key: "serverInfo",
                    value: .object([
                        .init(key: "name", value: .string("fathom")),
                        .init(key: "version", value: .string(self.version)),
                    ])),
                .init(key: "instructions", value: .string(Self.instructions)),
            ])
        case "ping":
            return .object([])
        case "tools/list":
            return .object([.init(key: "tools", value: .array(AgentTool.all(allowWrites: allowWrites).map(Self.tool)))])
        case "tools/call":
            guard let name = Self.string(parameters["name"]) else { throw Refusal.params("tools/call names a tool") }
            let arguments = parameters["arguments"].map { String($0.formatted(.compactText).dropLast()) } ?? "{}"
            let answer = await session.call(name, arguments: arguments) { question in await self.ask(question) }
            var members: [JSON.Member] = [
                .init(
                    key: "content",
                    value: .array([
                        .object([
                            .init(key: "type", value: .string("text")), .init(key: "text", value: .string(answer.text)),
                        ])
                    ]))
            ]
            if let structured = try? JSON(parsing: answer.structured) {
                members.append(.init(key: "structuredContent", value: structured))
            }
            members.append(.init(key: "isError", value: .bool(answer.isError)))
            return .object(members)
        case "resources/list":
            return .object([.init(key: "resources", value: .array(Self.resources.map(Self.resource)))])
        case "resources/read":
            guard let uri = Self.string(parameters["uri"]) else { throw Refusal.params("resources/read names a uri") }
            guard let text = await session.resource(uri) else {
                throw Refusal.params("no resource \(uri) (a description is loaded with --spec)")
            }
            let type = Self.resources.first { $0.uri == uri }?.mimeType ?? "text/plain"
            return .object([
                .init(
                    key: "contents",
                    value: .array([
                        .object([
                            .init(key: "uri", value: .string(uri)), .init(key: "mimeType", value: .string(type)),
                            .init(key: "text", value: .string(text)),
                        ])
                    ]))
            ])
        case "prompts/list":
            return .object([.init(key: "prompts", value: .array(AgentPrompt.all.map(Self.prompt)))])
        case "prompts/get":
            let name = Self.string(parameters["name"]) ?? ""
            guard let prompt = AgentPrompt.all.first(where: { $0.name == name }) else {
                let names = AgentPrompt.all.map(\.name).joined(separator: ", ")
                throw Refusal.params("no prompt \(name): \(names)")
            }
            let value = prompt.argument.flatMap { Self.string(parameters["arguments"]?[$0.name]) }
            let content = JSON.object([
                .init(key: "type", value: .string("text")), .init(key: "text", value: .string(prompt.text(value))),
            ])
            return .object([
                .init(key: "description", value: .string(prompt.description)),
                .init(
                    key: "messages",
                    value: .array([
                        .object([.init(key: "role", value: .string("user")), .init(key: "content", value: content)])
                    ])),
            ])
        default:
            throw Refusal(code: -32601, message: "no method \(method) here")
        }
    }

    // MARK: - The question to the person

    /// Asks the client's person `question` (`elicitation/create`): `true` only for an accept,
    /// within ``answerWait``; a client that cannot ask is a no at once.
    private func ask(_ question: String) async -> Bool {
        let id: Int? = state.withLock { state in
            guard state.canAsk, !state.closed else { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return false }
        let schema = JSON.object([
            .init(key: "type", value: .string("object")), .init(key: "properties", value: .object([])),
        ])
        let request = JSON.object([
            .init(key: "jsonrpc", value: .string("2.0")), .init(key: "id", value: .number(String(id))),
            .init(key: "method", value: .string("elicitation/create")),
            .init(
                key: "params",
                value: .object([
                    .init(key: "message", value: .string(question)), .init(key: "requestedSchema", value: schema),
                ])),
        ])
        let timeout = Task {
            try? await Task.sleep(for: Self.answerWait)
            // Unanswered in time: a decline (the question is the client's to drop).
            let waiting = state.withLock { $0.waiting.removeValue(forKey: id) }
            waiting?.resume(returning: nil)
        }
        defer { timeout.cancel() }
        let answer: JSON? = await withCheckedContinuation { continuation in
            let closed = state.withLock { state in
                if state.closed { return true }
                state.waiting[id] = continuation
                return false
            }
            if closed {
                continuation.resume(returning: nil)
            } else {
                write(String(request.formatted(.compactText).dropLast()))
            }
        }
        return Self.string(answer?["action"]) == "accept"
    }

    // MARK: - Writing

    private func reply(_ id: JSON, result: JSON) {
        let message = JSON.object([
            .init(key: "jsonrpc", value: .string("2.0")), .init(key: "id", value: id),
            .init(key: "result", value: result),
        ])
        write(String(message.formatted(.compactText).dropLast()))
    }

    private func reply(_ id: JSON, error: (code: Int, message: String)) {
        let message = JSON.object([
            .init(key: "jsonrpc", value: .string("2.0")), .init(key: "id", value: id),
            .init(
                key: "error",
                value: .object([
                    .init(key: "code", value: .number(String(error.code))),
                    .init(key: "message", value: .string(error.message)),
                ])),
        ])
        write(String(message.formatted(.compactText).dropLast()))
    }

    // MARK: - What the server offers

    static let instructions = """
        Fathom explores HTTP APIs. `send` a request (a path under the base or a URL), `inspect` a response \
        with JSONPath, `expect` what should hold; with a description loaded, `ls`, `describe` and `op`. \
        Credentials are the session's: never put a secret in an argument. Every call is kept in a \
        transcript a person can replay (`save` says where).
        """

    struct Resource {
        var name: String
        var uri: String
        var description: String
        var mimeType: String
    }

    static let resources = [
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

    private static func resource(_ resource: Resource) -> JSON {
        .object([
            .init(key: "name", value: .string(resource.name)), .init(key: "uri", value: .string(resource.uri)),
            .init(key: "description", value: .string(resource.description)),
            .init(key: "mimeType", value: .string(resource.mimeType)),
        ])
    }

    private static func tool(_ tool: AgentTool) -> JSON {
        let annotations = JSON.object([
            .init(key: "title", value: .string(tool.title)), .init(key: "readOnlyHint", value: .bool(tool.readOnly)),
            .init(key: "destructiveHint", value: .bool(tool.destructive)),
            .init(key: "idempotentHint", value: .bool(tool.idempotent)),
            .init(key: "openWorldHint", value: .bool(tool.openWorld)),
        ])
        return .object([
            .init(key: "name", value: .string(tool.name)), .init(key: "title", value: .string(tool.title)),
            .init(key: "description", value: .string(tool.description)),
            .init(key: "inputSchema", value: (try? JSON(parsing: tool.inputSchema)) ?? .object([])),
            .init(key: "outputSchema", value: (try? JSON(parsing: AgentTool.outputSchema)) ?? .object([])),
            .init(key: "annotations", value: annotations),
        ])
    }

    private static func prompt(_ prompt: AgentPrompt) -> JSON {
        var members: [JSON.Member] = [
            .init(key: "name", value: .string(prompt.name)), .init(key: "title", value: .string(prompt.title)),
            .init(key: "description", value: .string(prompt.description)),
        ]
        if let argument = prompt.argument {
            members.append(
                .init(
                    key: "arguments",
                    value: .array([
                        .object([
                            .init(key: "name", value: .string(argument.name)),
                            .init(key: "description", value: .string(argument.description)),
                            .init(key: "required", value: .bool(false)),
                        ])
                    ])))
        }
        return .object(members)
    }

    private static func string(_ json: JSON?) -> String? {
        if case .string(let text)? = json { return text }
        return nil
    }

    // MARK: - Standard input

    /// The lines of the file open at `descriptor` (standard input), read on a thread of their
    /// own so that a blocking read holds up no task; a line past ``lineLimit`` is `.overlong`.
    public static func lines(from descriptor: Int32) -> AsyncStream<Line> {
        AsyncStream { continuation in
            let thread = Thread {
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                var line: [UInt8] = []
                var overlong = false
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    var rest = buffer[..<count]
                    while !rest.isEmpty {
                        let end = rest.firstIndex(of: 10)
                        let piece = rest[..<(end ?? rest.endIndex)]
                        if !overlong {
                            if line.count + piece.count > lineLimit {
                                overlong = true
                                line = []
                            } else {
                                line += piece
                            }
                        }
                        guard let end else { break }
                        continuation.yield(overlong ? .overlong : .message(line))
                        line = []
                        overlong = false
                        rest = rest[(end + 1)...]
                    }
                }
                if overlong {
                    continuation.yield(.overlong)
                } else if !line.isEmpty {
                    continuation.yield(.message(line))
                }
                continuation.finish()
            }
            thread.start()
        }
    }
}
