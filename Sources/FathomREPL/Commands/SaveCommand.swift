@_spi(Fathom) import FathomHTTP
import Foundation

/// `save FILE [--requests-only]`: the session as the commands that reproduce it, never a
/// secret's value, written atomically; recorded responses beside it.
struct SaveCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "save", synopsis: "save FILE [--requests-only]",
        summary: "write the session as commands that reproduce it (never a secret's value)",
        details: """
            Settings first (base, defaults, auth, variables, `secret NAME` lines, volatile marks), then \
            each request as the lines that built it with the `expect` and `let` lines after it. \
            Responses recorded with `record on` go beside it (a.fathom → a.recording.json). Written atomically.
            """,
        completion: .files, group: .files)

    var file: String
    var requestsOnly: Bool

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let file = try arguments.word("a file name")
        var requestsOnly = false
        if let flag = try arguments.optionalWord() {
            guard flag.text == "--requests-only", !flag.quoted else {
                throw arguments.badChoice(flag, ["--requests-only"])
            }
            try arguments.end()
            requestsOnly = true
        }
        return SaveCommand(file: file.text, requestsOnly: requestsOnly)
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String { "save " + Quoting.word(file, literal: true) + (requestsOnly ? " --requests-only" : "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let session = executor.session
        let redactor = executor.redactor
        let path = executor.resolvePath(try session.variables.expand(file))
        guard !executor.record.log.lines.isEmpty else {
            throw CommandError(.session, "nothing to save yet", hint: "build and send a request first")
        }
        let fileName = (path as NSString).lastPathComponent
        let writer = SessionWriter(
            log: executor.record.log, variables: session.variables, secretValues: redactor.secretValues,
            requestsOnly: requestsOnly, externalNames: executor.externalVariables.map(\.name))
        let output = writer.write(fileName: fileName, redactor: redactor)
        // Whatever could not be named is masked rather than written.
        try Self.write(redactor.redact(output.text), to: path)
        var recording: (path: String, responses: Int)?
        if !output.recording.entries.isEmpty {
            let recordingPath = Recording.path(forSession: path)
            try Self.write(redactor.redact(output.recording.serialized()), to: recordingPath)
            recording = (recordingPath, output.recording.entries.count)
        }
        return .shows(
            .event(
                .saved(
                    SaveSummary(
                        path: path, requests: output.requests, recording: recording,
                        recordedNothing: recording == nil && session.recording, namedSecrets: output.namedSecrets))))
    }

    /// Writes `text` atomically: an interrupted save leaves the old file as it was.
    private static func write(_ text: String, to path: String) throws {
        do {
            try AtomicFile.write(Data(text.utf8), to: path)
        } catch let error as POSIXError {
            let reason = String(cString: strerror(error.code.rawValue)).lowercased()
            throw CommandError(.file, .cannotWrite(path: path, reason: reason), hint: "the file as it was is unchanged")
        }
    }
}
