/// `replay FILE… [--compare]`: runs files in fresh sessions and reports here, as `fathom replay`
/// does. This session is left as it is: the loop that ran the line runs the replay.
struct ReplayCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "replay", synopsis: "replay FILE… [--compare]",
        summary: "run session files in fresh sessions and report, as `fathom replay` does",
        details: "This session is left as it is. `--compare` diffs responses against the files' recordings.",
        completion: .files, group: .files)

    var files: [String]
    var compare: Bool

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var files: [String] = []
        var compare = false
        for word in try arguments.words() {
            if word.text == "--compare", !word.quoted {
                compare = true
            } else if word.text.hasPrefix("--"), !word.quoted {
                throw CommandError(
                    .parse, .unknown(kind: "replay option", word: word.text, suggestion: nil), column: word.column,
                    hint: "at the prompt: \(spec.synopsis); `fathom replay --help` has the rest")
            } else {
                files.append(word.text)
            }
        }
        guard !files.isEmpty else {
            throw CommandError(.replay, .missing("a file to replay"), column: arguments.column, hint: arguments.usage)
        }
        return ReplayCommand(files: files, compare: compare)
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String {
        var writer = LineWriter("replay")
        writer.words(files, literal: true)
        if compare { writer.raw("--compare") }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let paths = files.map { executor.resolvePath((try? executor.session.variables.expand($0)) ?? $0) }
        // `--demo`'s `{{demo}}` and the like: what this session was given, each file gets too.
        return CommandResult(
            .succeeded, [], followUp: .replay(files: paths, compare: compare, variables: executor.externalVariables))
    }
}
