/// `send [--repeat N] [--concurrency C] [--duration 30s] [--rate 50/s] [--data rows.csv]`: sends
/// the draft, once or as a batch.
struct SendCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "send", synopsis: "send [--repeat N] [-c C] [--duration 30s] [--rate 50/s] [--data rows.csv]",
        summary: "send the draft and show the response; with flags, send it as a batch",
        details: """
            A batch sends the draft N times (`--repeat`), for a while (`--duration`), or once per row \
            of a CSV file (`--data`, its columns as `{{name}}`s), C at once (`--concurrency`/`-c`), \
            at most R a second (`--rate 50/s`). It shows a summary: statuses, errors by kind, latency \
            percentiles, and the responses grouped by body, each group against the largest. \
            `{{$i}}` is a request's index, `{{$uuid}}` a new UUID, `{{$random.int 1 100}}` a number. \
            Ctrl-C ends a batch and keeps what arrived; `expect batch p99 < 200ms` checks it.
            """,
        completion: .words(BatchOptions.flags), group: .draft)

    var batch: BatchOptions?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var words = try arguments.words()
        let batch = try BatchOptions.take(from: &words)
        if let extra = words.first {
            throw CommandError(
                "send takes no '\(extra.text)'", column: extra.column,
                hint: "send sends the draft; flags: \(BatchOptions.flags.joined(separator: " "))")
        }
        return SendCommand(batch: batch)
    }

    var logKind: SessionLog.Kind? { .request }

    var filesRead: [String] { batch?.data.map { [$0] } ?? [] }

    var line: String {
        var writer = LineWriter("send")
        if let batch { writer.raw(batch.words.joined(separator: " ")) }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if let batch { return try await executor.sendBatch(executor.session.draft, options: batch) }
        return try await executor.send(try executor.prepare(executor.session.draft))
    }
}
