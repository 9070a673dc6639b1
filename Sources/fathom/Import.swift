import ArgumentParser
import FathomREPL
import Foundation

/// `fathom import FILE`: a curl command, a HAR log or a Postman collection as a session file.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a curl command, a HAR log or a Postman collection as a .fathom session file.",
        discussion: """
            The session file goes to standard output: `fathom import api.har > api.fathom`, then \
            `fathom replay api.fathom`. Credentials found in the input (Authorization, Cookie, API-key \
            headers, -u, Postman auth) are written as `secret NAME` references, never their values; the \
            file's first lines say which FATHOM_SECRET_<NAME> a replay reads. What cannot be imported \
            (Postman scripts, auth kinds Fathom does not speak) is named in comments and on standard error.
            """)

    @Argument(help: "The file to import; - reads standard input.", completion: .file())
    var file: String

    @Option(help: "curl, har or postman; guessed from the content when not given.")
    var format: Importer.Format?

    func run() throws {
        let imported: Importer.Imported
        do {
            imported = try Importer.sessionFile(from: file, format: format)
        } catch {
            StandardStreams.diagnose("fathom import: \(error)")
            throw ExitCode(1)
        }
        for note in imported.notes { StandardStreams.diagnose("not imported: \(note)") }
        if let code = StandardStreams.write(imported.text, to: STDOUT_FILENO) { StandardStreams.outputFailed(code) }
    }
}

extension Importer.Format: ExpressibleByArgument {}
