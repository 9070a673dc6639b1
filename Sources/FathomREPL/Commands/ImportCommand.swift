import Foundation

/// `import curl FILE`: a curl command line from a file becomes the draft, not sent — to look at
/// it (`show request`), change it, and send it when ready.
struct ImportCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "import", synopsis: "import curl FILE",
        summary: "make the draft from a curl command in FILE, without sending it",
        details: "The file holds one curl command as a shell would read it (`\\` continuations, comments).",
        completion: .words(["curl"]), group: .draft)

    var file: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let format = try arguments.word("a format")
        guard format.text.lowercased() == "curl" else { throw arguments.badChoice(format, ["curl"]) }
        let file = try arguments.single("a file")
        guard file.text != "-" else {
            throw CommandError(
                "standard input is where Fathom reads its commands", column: file.column,
                hint: "paste the curl command at the prompt, or give a file")
        }
        return ImportCommand(file: file.text)
    }

    var logKind: SessionLog.Kind? { .draft }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let path = Executor.expandTilde(try executor.session.variables.expand(file))
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError("cannot read \(path)", hint: "nothing was imported")
        }
        let split = try ShellWords.split(String(decoding: data, as: UTF8.self))
        guard split.words.first == "curl" else {
            throw CommandError("\(path) does not hold a curl command", hint: "it should start with `curl`")
        }
        let (draft, notes) = try await CurlCommand.apply(
            Array(split.words.dropFirst()), variables: split.variables, to: executor)
        // Checked as it would be sent, so a draft that cannot go is refused now, not at `send`.
        let preview = try await executor.prepare(draft, preview: true)
        executor.session.draft = draft
        return CommandResult(
            .succeeded,
            notes + [
                .notice(Notice(text: "imported \(path) into the draft; `send` sends it")),
                .request(RequestPreview(request: preview, tokenFetchedOnSend: false)),
            ])
    }
}
