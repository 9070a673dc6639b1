/// Imports run in this session (`curl …`, `import …` at the prompt).
extension Executor {
    /// Runs an import's lines here as typed lines: its credentials first, as secrets (`save`
    /// keeps `secret NAME`, never the value), then each command, each logged as itself.
    ///
    /// - Parameter sending: Runs every line; otherwise stops before the first request is sent,
    ///   leaving it in the draft (`import curl`).
    /// - Returns: What the lines showed; failed at the first line that failed (the caller's
    ///   line then fails whole, and the session is put back as it was).
    func runImported(_ imported: Importer.Imported, sending: Bool) async throws -> CommandResult {
        var outputs: [Output] = []
        let secrets = imported.secrets.map { SecretCommand(name: $0.name, value: $0.value) }
        for command in secrets as [any Command] + imported.commands {
            if !sending, command.sendsRequest { break }
            let result = await run(command, text: command.line, location: nil)
            outputs += result.outputs
            if result.outcome == .failed { return CommandResult(.failed, outputs) }
        }
        outputs += imported.notes.map { .event(.notImported($0)) }
        return CommandResult(.succeeded, outputs)
    }
}
