import Foundation

/// `import curl|har|postman FILE|-`: a curl command line from a file (or pasted) becomes the draft, not sent —
/// to look at it (`show request`), change it, and send it when ready; a HAR log's entries or a
/// Postman collection's requests run in this session, in order, as a loaded session file does.
struct ImportCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "import", synopsis: "import curl|har|postman FILE|-",
        summary: "a curl command into the draft, or a HAR log's or Postman collection's requests run in order",
        details: """
            `-` reads a paste that follows instead of a file. \
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
        let file = try arguments.single("a file, or - to paste")
        return ImportCommand(format: format, file: file.text)
    }

    /// A paste is logged as the lines it becomes, not as `import curl -`, which replays nothing.
    var logKind: SessionLog.Kind? { format == .curl && file != "-" ? .draft : nil }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard file != "-" else {
            let what =
                switch format {
                case .curl: "the curl command: it ends where the command does"
                case .har: "the HAR log: it ends where its JSON does"
                case .postman: "the collection: it ends where its JSON does"
                }
            return CommandResult(
                .succeeded, [.notice(.aside("paste \(what) (Ctrl-C to cancel)"))], followUp: .paste(format))
        }
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
        let (file, notes) = try sessionFile(try Importer.read(path, format: format), path: path, executor)
        return CommandResult(.succeeded, notes, followUp: .load(file))
    }

    /// `import FORMAT -` in a session file: only the prompt has a paste to read.
    static let noPasteHere = Output.failure(
        Failure(
            .command(
                CommandError("`import … -` reads a paste at the prompt", hint: "in a file, name the file to import"))))

    /// What was imported as a session file to run here, its credentials this session's secrets.
    private static func sessionFile(
        _ imported: Importer.Imported, path: String, _ executor: isolated Executor
    ) throws -> (SessionFile, [Output]) {
        for (name, value) in imported.secrets {
            executor.redactor.addSecret(value)
            executor.session.variables.set(name, value, secret: true)
        }
        let file = try SessionFile.parse(imported.text, path: path)
        return (file, imported.notes.map { Output.notice(.aside("not imported: \($0)")) })
    }

    /// Imports a paste (`import curl -`). A curl command becomes the draft through the lines
    /// `fathom import` writes for it, run up to its `send`: each is logged as itself, so `save`
    /// writes a session that replays; a HAR log or collection runs as from a file.
    static func pasted(_ text: String, format: Importer.Format, _ executor: isolated Executor) async -> CommandResult {
        do {
            let imported = try Importer.read(Data(text.utf8), name: "the paste", place: "the paste", format: format)
            let (file, notes) = try sessionFile(imported, path: "the paste", executor)
            guard format == .curl else { return CommandResult(.succeeded, notes, followUp: .load(file)) }
            for entry in file.entries {
                if entry.command is SendCommand { break }
                let result = await executor.run(entry.command, text: entry.text, location: nil)
                guard result.outcome == .succeeded else { return result }
            }
            let preview = try await executor.prepare(executor.session.draft, preview: true)
            return CommandResult(
                .succeeded,
                notes + [
                    .notice(Notice(text: "imported the pasted command into the draft; `send` sends it")),
                    .request(RequestPreview(request: preview, tokenFetchedOnSend: false)),
                ])
        } catch {
            return CommandResult(.failed, [.failure(Failure(error: error))])
        }
    }
}
