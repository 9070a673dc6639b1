import Foundation

/// `import curl|har|postman FILE`: a curl command line from a file becomes the draft, not sent —
/// to look at it (`show request`), change it, and send it when ready; a HAR log's entries or a
/// Postman collection's requests run in this session, in order, as a loaded session file does.
struct ImportCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "import", synopsis: "import curl|har|postman FILE",
        summary: "a curl command into the draft, or a HAR log's or Postman collection's requests run in order",
        details: """
            curl: the file holds one command as a shell would read it. har: HAR 1.2 entries. postman: \
            collections v2.0 and v2.1 (folders, variables, basic/bearer/API-key auth; scripts cannot run). \
            Credentials found in the file are secrets here; `fathom import FILE` writes the session file.
            """,
        completion: .wordThenFile(Importer.Format.allCases.map(\.rawValue)), group: .draft)

    var format: Importer.Format
    var file: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let formatWord = try arguments.word("a format")
        guard let format = Importer.Format(rawValue: formatWord.text.lowercased()) else {
            throw arguments.badChoice(formatWord, Importer.Format.allCases.map(\.rawValue))
        }
        let file = try arguments.single("a file")
        guard file.text != "-" else {
            throw CommandError(
                "standard input is where Fathom reads its commands", column: file.column,
                hint: "paste the curl command at the prompt, or give a file")
        }
        return ImportCommand(format: format, file: file.text)
    }

    var logKind: SessionLog.Kind? { format == .curl ? .draft : nil }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let path = Executor.expandTilde(try executor.session.variables.expand(file))
        guard format == .curl else { return try Self.requests(from: path, format: format, executor) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError("cannot read \(path)", hint: "nothing was imported")
        }
        let split = try ShellWords.split(String(decoding: data, as: UTF8.self))
        guard split.words.first == "curl" else {
            throw CommandError("\(path) does not hold a curl command", hint: "it should start with `curl`")
        }
        var (drafts, notes) = try await CurlCommand.apply(
            Array(split.words.dropFirst()), variables: split.variables, to: executor)
        // The draft holds one request: the first URL's, as `fathom import` writes one per URL.
        let draft = drafts[0]
        if drafts.count > 1 {
            notes.append(.notice(.aside("the line has \(drafts.count) URLs: the draft is the first")))
        }
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

    /// A HAR log or a Postman collection as a session file run here: its credentials become
    /// this session's secrets (the file names them, never writes them), its lines run in order.
    private static func requests(
        from path: String, format: Importer.Format, _ executor: isolated Executor
    ) throws -> CommandResult {
        let imported = try Importer.read(path, format: format)
        for (name, value) in imported.secrets {
            executor.redactor.addSecret(value)
            executor.session.variables.set(name, value, secret: true)
        }
        let file = try SessionFile.parse(imported.text, path: path)
        let notes = imported.notes.map { Output.notice(.aside("not imported: \($0)")) }
        return CommandResult(.succeeded, notes, followUp: .load(file))
    }
}
