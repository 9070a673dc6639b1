/// `stream [on|off] | stream limit N|off`: how streamed responses are read. Server-sent events,
/// NDJSON and JSON sequences always show as they arrive; `on` shows any chunked response so.
/// `limit N` ends a stream after N events (scripts and replays of endless streams need one).
struct StreamCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "stream", synopsis: "stream [on|off] | stream limit N|off",
        summary: "show any chunked response as it arrives (`on`); end streams after N events (`limit`)",
        details: """
            Server-sent events (text/event-stream), NDJSON (application/x-ndjson, application/jsonl) and \
            JSON sequences (application/json-seq) always show as they arrive: the head at once, then each \
            event with its time since the first byte. `stream on` shows any chunked response that way, \
            chunk by chunk. Ctrl-C, the `timeout` and `stream limit N` end a stream and keep what arrived; \
            the response reads as the JSON array of its events (`inspect $[*].data`, `expect events >= 3`).
            """,
        completion: .words(["on", "off", "limit"]), group: .client)

    enum Action: Equatable, Sendable {
        case show
        case all(Bool)
        case limit(Int?)
    }

    var action: Action

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        if arguments.isEmpty { return StreamCommand(action: .show) }
        let word = try arguments.word("on, off or limit")
        switch word.text.lowercased() {
        case "on":
            try arguments.end()
            return StreamCommand(action: .all(true))
        case "off":
            try arguments.end()
            return StreamCommand(action: .all(false))
        case "limit":
            let value = try arguments.single("a number of events, or off")
            if value.text.lowercased() == "off" { return StreamCommand(action: .limit(nil)) }
            guard let count = Int(value.text), count > 0 else {
                throw CommandError(
                    .parse, "stream limit takes a number of events above 0, or off, not '\(value.text)'",
                    column: value.column)
            }
            return StreamCommand(action: .limit(count))
        default:
            throw arguments.badChoice(word, ["on", "off", "limit"])
        }
    }

    var logKind: SessionLog.Kind? { action == .show ? nil : .setting }

    var line: String {
        switch action {
        case .show: "stream"
        case .all(let on): on ? "stream on" : "stream off"
        case .limit(let count): "stream limit " + (count.map(String.init) ?? "off")
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch action {
        case .show:
            let settings = executor.session.settings
            let text =
                (settings.streamAll ? "on: any chunked response" : "off: server-sent events, NDJSON, JSON sequences")
                + " · limit " + (settings.streamLimit.map { "\($0) events" } ?? "off")
            return .shows(.setting(SettingShown(name: "stream", value: .text(text))))
        case .all(let on):
            executor.session.settings.streamAll = on
        case .limit(let count):
            executor.session.settings.streamLimit = count
        }
        return .done
    }
}
