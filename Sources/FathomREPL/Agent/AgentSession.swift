import FathomHTTP
@_spi(Fathom) import FathomJSON
import Foundation
import Synchronization

/// A session an agent drives through tools (`fathom mcp`): each call becomes the lines a person
/// would type (``AgentTool``), run by the same executor, so the prompt's guards hold — credentials
/// and defaults only to their API's origin, secrets masked in every answer, the description's
/// checks, and, unless writes were allowed, no request that may change the server
/// (``Executor/Options/readOnly``). Tool arguments are data: a `{{variable}}` in one is refused
/// (a secret is never spelled into a request by an agent), as is a line break (one argument, one
/// word). After each call the session is saved to the transcript, which `fathom replay` runs.
public final class AgentSession: Sendable {
    let executor: Executor
    /// Where the transcript goes.
    public let transcript: String
    let tools: [String: AgentTool]

    public init(executor: Executor, allowWrites: Bool, transcript: String) {
        self.executor = executor
        self.transcript = transcript
        tools = Dictionary(uniqueKeysWithValues: AgentTool.all(allowWrites: allowWrites).map { ($0.name, $0) })
    }

    /// The default transcript: `$XDG_STATE_HOME/fathom/mcp/YYYY-MM-DDTHH-MM-SS.fathom`.
    public static func defaultTranscript(environment: [String: String], now: Date = Date()) -> String {
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        let stamp = ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "-")
        return state + "/fathom/mcp/" + stamp + ".fathom"
    }

    /// Runs the start-up steps (the demo, a base, an environment, a description); the failures'
    /// texts, masked.
    public func start(with steps: [REPL.StartupStep]) async -> [String] {
        var failures: [String] = []
        for step in steps {
            do {
                for (command, _) in try await step.commands(defining: executor) {
                    let result = await executor.run(command, text: command.line, location: nil)
                    failures += result.outputs.compactMap { output in
                        guard case .failure = output else { return nil }
                        return text(output)
                    }
                }
            } catch {
                failures.append(text(.failure(Failure(.command(error)))))
            }
        }
        // Responses are recorded beside the transcript, so `fathom replay --compare` checks them.
        _ = await executor.run(RecordCommand(on: true), text: "record on", location: nil)
        return failures
    }

    /// Calls tool `name` with `arguments` (a JSON object's text). A request the read-only session
    /// refuses is put to the person through `confirm` when there is one (the client's
    /// elicitation): `true` sends that request, once; `false`, or no `confirm`, sends nothing.
    public func call(
        _ name: String, arguments: String, confirm: (@Sendable (_ question: String) async -> Bool)? = nil
    ) async -> AgentAnswer {
        let lines: [String]
        do {
            guard let tool = tools[name] else {
                throw CommandError(.parse, "no tool is named '\(name)'", hint: "tools/list lists them")
            }
            let parsed = try JSON(parsing: arguments.isEmpty ? "{}" : arguments)
            guard case .object(let members) = parsed else {
                throw CommandError(.parse, "a tool's arguments are a JSON object")
            }
            lines = try AgentLines.lines(for: tool.name, Dictionary(members.map { ($0.key, $0.value) }) { a, _ in a })
        } catch {
            return answer([.failure(Failure(error: error))], ok: false)
        }
        if name == "save" { return await save(shown: true) }
        var toRun = lines
        // The endpoint is set (and its schema loaded) once: not again while it is the current one.
        if name == "graphql", let first = toRun.first, first.hasPrefix("graphql "),
            let current = await executor.graphQLPath(), "graphql " + Quoting.word(current, literal: true) == first
        {
            toRun.removeFirst()
        }
        var outputs: [Output] = []
        var ok = true
        for line in toRun {
            let parsed = Result { () throws(CommandError) in try CommandParser.parse(line) }
            let refusal = WriteRefusal()
            var result = await Executor.$writeRefused.withValue(refusal) {
                await executor.run(parsed, text: line)
            }
            if let request = refusal.request, let confirm {
                let question = """
                    An agent asks to send \(request) (`\(executor.redactor.redact(line))`), which may change what \
                    the server holds. Send it?
                    """
                if await confirm(question) {
                    result = await Executor.$writeAllowed.withValue(true) { await executor.run(parsed, text: line) }
                }
            }
            outputs += result.outputs
            if result.outcome == .failed || result.outcome == .checkFailed {
                ok = false
                break
            }
        }
        _ = await save(shown: false)
        return answer(outputs, ok: ok)
    }

    /// Writes the transcript (its folder made first); the `save` line's answer.
    private func save(shown: Bool) async -> AgentAnswer {
        let folder = (transcript as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let command = SaveCommand(file: transcript, requestsOnly: false)
        let result = await executor.run(command, text: command.line, location: nil)
        return answer(result.outputs, ok: result.outcome != .failed)
    }

    /// A resource's text: `fathom://session` (what `show session` shows), `fathom://description`
    /// (the loaded description, as JSON), `fathom://transcript`; `nil` for another.
    public func resource(_ uri: String) async -> String? {
        switch uri {
        case "fathom://session":
            return await call("show-session", lines: ["show session"])
        case "fathom://transcript":
            _ = await save(shown: false)
            return (try? String(contentsOfFile: transcript, encoding: .utf8)).map(executor.redactor.redact)
        case "fathom://description":
            return await executor.loadedDescriptionText().map(executor.redactor.redact)
        default:
            return nil
        }
    }

    private func call(_ name: String, lines: [String]) async -> String {
        var outputs: [Output] = []
        for line in lines {
            let parsed = Result { () throws(CommandError) in try CommandParser.parse(line) }
            outputs += await executor.run(parsed, text: line).outputs
        }
        return outputs.map(text).joined()
    }

    private func text(_ output: Output) -> String {
        OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor).render(output).text
    }

    private func answer(_ outputs: [Output], ok: Bool) -> AgentAnswer {
        let renderer = JSONOutputRenderer(redactor: executor.redactor)
        let objects = outputs.compactMap { try? JSON(parsing: renderer.render($0)) }
        let structured = JSON.object([
            JSON.Member(key: "ok", value: .bool(ok)), JSON.Member(key: "outputs", value: .array(objects)),
        ])
        return AgentAnswer(
            text: outputs.map(text).joined(), structured: structured.formatted(.compactText), isError: !ok)
    }
}

/// A tool's arguments as the lines a person would type.
enum AgentLines {
    static func lines(for tool: String, _ arguments: [String: JSON]) throws(CommandError) -> [String] {
        // A GraphQL document is written over lines; every other argument is one.
        for (name, value) in arguments { try literal(value, name, lines: tool == "graphql" && name == "document") }
        func string(_ name: String) throws(CommandError) -> String? {
            guard let value = arguments[name] else { return nil }
            guard case .string(let text) = value else { throw CommandError(.parse, "'\(name)' is a string") }
            return text
        }
        func required(_ name: String) throws(CommandError) -> String {
            guard let text = try string(name), !text.isEmpty else {
                throw CommandError(.parse, "'\(name)' is required")
            }
            return text
        }
        switch tool {
        case "send":
            let method = (try string("method") ?? "GET").lowercased()
            guard OneLinerCommand.methods.contains(method) else {
                throw CommandError(
                    .parse, "'\(method.uppercased())' is not a method send takes",
                    hint: OneLinerCommand.methods.map { $0.uppercased() }.joined(separator: ", "))
            }
            var words = [method, Quoting.word(try required("url"), literal: true)]
            for (name, value) in try object("headers", arguments) {
                guard case .string(let text) = value else { throw CommandError(.parse, "header '\(name)' is a string") }
                words.append(Quoting.word("\(name):\(text)", literal: true))
            }
            for (name, value) in try object("query", arguments) {
                words.append(Quoting.word("\(name)==\(scalar(value))", literal: true))
            }
            let body = try object("body", arguments)
            if !body.isEmpty, method == "get" || method == "head" {
                throw CommandError(.parse, "a \(method.uppercased()) request takes no body here")
            }
            for (name, value) in body { words.append(Quoting.word(field(name, value), literal: true)) }
            return [words.joined(separator: " ")]
        case "op":
            var words = ["op", Quoting.word(try required("operationId"), literal: true)]
            for (name, value) in try object("parameters", arguments) {
                words.append(Quoting.word(field(name, value), literal: true))
            }
            return [words.joined(separator: " ")]
        case "graphql":
            var entry = try required("document").trimmingBlanksAround
            if let name = try string("operationName") { entry += " " + Quoting.word(name, literal: true) }
            for (name, value) in try object("variables", arguments) {
                entry += " " + Quoting.word(field(name, value), literal: true)
            }
            var lines = [entry]
            if let endpoint = try string("endpoint") {
                lines.insert("graphql " + Quoting.word(endpoint, literal: true), at: 0)
            }
            return lines
        case "call":
            var line = "call " + Quoting.word(try required("method"), literal: true)
            switch arguments["request"] {
            // No messages: one empty message for a method that takes one, none for a client
            // stream — never a stream left open that no tool writes to.
            case nil: line += " []"
            case .object?, .array?:
                line += " " + (arguments["request"]?.formatted(.compactText).trimmingCharacters(in: .newlines) ?? "")
            default: throw CommandError(.parse, "'request' is an object or an array")
            }
            return [line]
        case "ls":
            return ["ls" + (try string("path").map { " " + Quoting.word($0, literal: true) } ?? "")]
        case "describe":
            let words = try required("operation").split(separator: " ").map { Quoting.word(String($0), literal: true) }
            return (["describe"] + words).joined(separator: " ").split(separator: "\n").map(String.init)
        case "inspect":
            var line = "inspect"
            if let number = arguments["response"] {
                guard case .number(let text) = number, let value = Int(text), value > 0 else {
                    throw CommandError(.parse, "'response' is a response's number: 1 or more")
                }
                line += " #\(value)"
            }
            return [line + " " + Quoting.word(try required("expression"), literal: true)]
        case "expect":
            return ["expect " + (try required("check"))]
        case "responses": return ["responses"]
        case "save": return []
        default: throw CommandError(.parse, "no tool is named '\(tool)'")
        }
    }

    /// Refuses what would make an argument more than data: a `{{variable}}` (an agent never
    /// spells a session's value, a secret above all, into a request) and a line break.
    private static func literal(_ value: JSON, _ name: String, lines: Bool = false) throws(CommandError) {
        switch value {
        case .string(let text):
            if text.contains("{{") {
                throw CommandError(
                    .parse, "'\(name)' holds '{{': tool arguments are not expanded",
                    hint: "give the value itself; the API's credentials are added by Fathom")
            }
            if !lines, text.contains(where: \.isNewline) {
                throw CommandError(.parse, "'\(name)' holds a line break: an argument is one line")
            }
        case .array(let items): for item in items { try literal(item, name) }
        case .object(let members):
            for member in members {
                try literal(.string(member.key), name)
                try literal(member.value, name)
            }
        default: break
        }
    }

    private static func object(_ name: String, _ arguments: [String: JSON]) throws(CommandError) -> [(String, JSON)] {
        guard let value = arguments[name] else { return [] }
        guard case .object(let members) = value else { throw CommandError(.parse, "'\(name)' is an object") }
        return members.map { ($0.key, $0.value) }
    }

    private static func scalar(_ value: JSON) -> String {
        if case .string(let text) = value { return text }
        return value.formatted(.compactText).trimmingCharacters(in: .newlines)
    }

    /// `name=text` for a string, `name:=json` for anything else.
    private static func field(_ name: String, _ value: JSON) -> String {
        if case .string(let text) = value { return "\(name)=\(text)" }
        return "\(name):=" + value.formatted(.compactText).trimmingCharacters(in: .newlines)
    }
}

extension Executor {
    /// The current API's GraphQL endpoint's path, when it has one.
    func graphQLPath() -> String? { session.currentAPI?.graphQL?.path }

    /// The current API's description as JSON text (as loaded: a YAML one as its JSON), or `nil`
    /// when none is loaded.
    func loadedDescriptionText() -> String? {
        guard let loaded = try? requireSpec() else { return nil }
        return loaded.description.document.formatted(.compactText)
    }
}

/// What a read-only session refused while a call ran: the method and target (masked).
final class WriteRefusal: Sendable {
    private let state = Mutex<String?>(nil)

    func refused(_ request: String) { state.withLock { $0 = $0 ?? request } }

    var request: String? { state.withLock { $0 } }
}
