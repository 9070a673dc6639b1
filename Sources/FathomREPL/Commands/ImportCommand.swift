import Foundation

/// `import curl|har|postman FILE|-`: a curl command line from a file (or pasted) becomes the
/// draft, not sent — to look at it (`show request`), change it, and send it when ready; a HAR
/// log's entries or a Postman collection's requests run in this session, in order, as a loaded
/// session file does. Either way the import runs as the command values it became, each logged as
/// itself, and leaves the session's own auth and defaults as they were: every imported request
/// carries its own headers and credentials.
struct ImportCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "import", synopsis: "import curl|har|postman FILE|-",
        summary: "a curl command into the draft, or a HAR log's or Postman collection's requests run in order",
        details: """
            `-` reads a paste that follows instead of a file. \
            curl: the file holds one command as a shell would read it. har: HAR 1.2 entries. postman: \
            collections v2.0 and v2.1 (folders, variables, basic/bearer/API-key auth resolved per request as \
            Postman resolves it; scripts cannot run). Credentials found in the file are secrets here; \
            `fathom import FILE` writes the session file.
            """,
        completion: .sequence([.words(Importer.Format.allCases.map(\.rawValue)), .files]), group: .draft)

    var format: Importer.Format
    var file: String
    /// What was pasted after `import FORMAT -`: the loop reads it and runs the command again with it.
    var pasted: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let formatWord = try arguments.word("a format")
        guard let format = Importer.Format(rawValue: formatWord.text.lowercased()) else {
            throw arguments.badChoice(formatWord, Importer.Format.allCases.map(\.rawValue))
        }
        let file = try arguments.single("a file, or - to paste")
        return ImportCommand(format: format, file: file.text, pasted: nil)
    }

    /// Kept as the lines it runs, each logged as itself: `import FILE` would replay a file that
    /// may have changed, `import -` nothing at all.
    var logKind: SessionLog.Kind? { nil }

    var filesRead: [String] { file == "-" ? [] : [file] }

    var line: String { "import \(format.rawValue) " + (file == "-" ? "-" : Quoting.word(file, literal: true)) }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if file == "-" {
            guard let pasted else {
                return CommandResult(.succeeded, [.event(.pasteExpected(format))], followUp: .paste(format))
            }
            let imported = try Importer.read(
                Data(pasted.utf8), name: "the paste", place: "the paste", format: format,
                taken: executor.session.variables.values)
            return try await Self.run(imported, source: nil, executor)
        }
        let path = executor.resolvePath(try executor.session.variables.expand(file))
        let imported = try Importer.read(path, format: format, taken: executor.session.variables.values)
        return try await Self.run(imported, source: path, executor)
    }

    /// Runs an import here: a curl command into the draft (its settings and credentials run, its
    /// request up to `send`), or a HAR log or collection line by line through the loop.
    static func run(
        _ imported: Importer.Imported, source: String?, _ executor: isolated Executor
    ) async throws -> CommandResult {
        guard imported.format == .curl else {
            // The credentials first, here; the requests through the loop, each shown as it runs.
            var result = try await executor.runImported(
                Importer.Imported(
                    source: imported.source, format: imported.format, lines: [], requests: 0,
                    secrets: imported.secrets, notes: imported.notes),
                sending: false)
            if result.outcome == .failed { return result }
            result.followUp = .load(imported.sessionFile(path: source ?? "the paste"))
            return result
        }
        var result = try await executor.runImported(imported, sending: false)
        guard result.outcome != .failed else { return result }
        if imported.requests > 1 {
            result.outputs.append(.event(.curlURLs(count: imported.requests, sentInTurn: false)))
        }
        // Checked as it would be sent, so a draft that cannot go is refused now, not at `send`.
        let preview = try await executor.preview(executor.session.draft, shownOnly: true)
        result.outputs += [.event(.importedIntoDraft(source: source)), .request(preview)]
        return result
    }

    /// `import FORMAT -` in a session file: only the prompt has a paste to read.
    static let noPasteHere = Output.failure(
        Failure(
            .command(
                CommandError(
                    .session, "`import … -` reads a paste at the prompt", hint: "in a file, name the file to import"))))
}
