/// `send [--repeat N] [--concurrency C] [--duration 30s] [--rate 50/s] [--data rows.csv]`: sends
/// the draft, once or as a batch. `send TEXT|JSON|@FILE`: sends a message on the open
/// conversation (a WebSocket, a gRPC stream).
struct SendCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "send",
        synopsis: "send [--repeat N] [-c C] [--duration 30s] [--rate 50/s] [--data rows.csv] | send TEXT|JSON|@FILE",
        summary:
            "send the draft and show the response; with flags, send it as a batch; on a WebSocket or gRPC stream, a message",
        details: """
            A batch sends the draft N times (`--repeat`), for a while (`--duration`), or once per row \
            of a CSV file (`--data`, its columns as `{{name}}`s), C at once (`--concurrency`/`-c`), \
            at most R a second (`--rate 50/s`). It shows a summary: statuses, errors by kind, latency \
            percentiles, and the responses grouped by body, each group against the largest. \
            `{{$i}}` is a request's index, `{{$uuid}}` a new UUID, `{{$random.int 1 100}}` a number. \
            Ctrl-C ends a batch and keeps what arrived; `expect batch p99 < 200ms` checks it. With a \
            WebSocket open (`ws`), `send TEXT` sends the rest of the line as a text message ({{variables}} \
            expanded), `send @FILE` a file's content (text when it is UTF-8, else binary). On a gRPC client or \
            bidirectional stream (`call METHOD` with no messages), `send JSON` or `send name=value name:=json` \
            sends one message (an array, one per element), checked against the method's request type.
            """,
        completion: .words(BatchOptions.flags), group: .draft)

    var batch: BatchOptions?
    /// A message on the open conversation, instead of the draft.
    var message: MessageSpec?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        if let message = try message(&arguments) { return SendCommand(message: message) }
        var words = try arguments.words()
        let batch = try BatchOptions.take(from: &words)
        if let extra = words.first {
            throw CommandError(
                .parse, "send takes no '\(extra.text)'", column: extra.column,
                hint: "send sends the draft; flags: \(BatchOptions.flags.joined(separator: " "))")
        }
        return SendCommand(batch: batch)
    }

    /// A message: the line's rest unless it starts with a flag; `@FILE` a file; one quoted
    /// word its text.
    private static func message(_ arguments: inout Arguments) throws(CommandError) -> MessageSpec? {
        let raw = arguments.raw.trimmingBlanks
        guard let first = raw.first, first != "-", first != "#" else { return nil }
        if first == "@", !raw.contains(" ") {
            return .file(String(arguments.rest().dropFirst()))
        }
        if first == "\"" || first == "'" || raw.hasPrefix("$'") {
            var copy = arguments
            if let words = try? copy.words(), words.count == 1, words[0].quoted {
                arguments = copy
                return .text(words[0].text)
            }
        }
        return .text(arguments.rest())
    }

    var logKind: SessionLog.Kind? { message == nil ? .request : .followUp }

    var filesRead: [String] {
        if case .file(let path) = message { return [path] }
        return batch?.data.map { [$0] } ?? []
    }

    var line: String {
        switch message {
        case .file(let path): return "send @" + path
        case .text(let text):
            let plain =
                !text.isEmpty && text.first != "-" && text.first != "#" && text.first != "@" && text.first != "\""
                && text.first != "'" && !text.hasPrefix("$'") && text.trimmingBlanksAround == text
                && !text.contains("\n") && !text.contains("\r")
            return "send " + (plain ? text : Quoting.word(text))
        case nil: break
        }
        var writer = LineWriter("send")
        if let batch { writer.raw(batch.words.joined(separator: " ")) }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if let message { return try await executor.sendMessage(message) }
        if let batch { return try await executor.sendBatch(executor.session.draft, options: batch) }
        return try await executor.send(try executor.prepare(executor.session.draft))
    }
}
