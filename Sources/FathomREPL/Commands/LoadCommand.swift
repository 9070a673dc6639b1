/// `load FILE`: runs a session file's lines in this session. The file is read and checked whole
/// first, so a broken file runs nothing; its lines are run by the loop (``FollowUp/load(_:)``),
/// each shown as it runs.
struct LoadCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "load", synopsis: "load FILE", summary: "run a session file's lines in this session",
        completion: .files, group: .files)

    /// A file that loads itself stops here.
    static let depthLimit = 8

    var file: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        LoadCommand(file: try arguments.single("a file name").text)
    }

    /// The lines it runs are kept, each as itself.
    var logKind: SessionLog.Kind? { nil }

    var filesRead: [String] { [file] }

    var line: String { "load " + Quoting.word(file) }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let path = executor.resolvePath(try executor.session.variables.expand(file))
        do {
            // Read and checked whole first: a broken file runs nothing.
            return CommandResult(.succeeded, [], followUp: .load(try SessionFile.read(path)))
        } catch {
            throw CommandError(.file, "cannot load \(error.description)", hint: "nothing in it was run")
        }
    }

    /// What the loop says when a file's lines have run.
    static func summary(of file: SessionFile, failures: Int) -> (Executor.Outcome, Output) {
        let count = file.entries.count
        guard failures > 0 else { return (.succeeded, .event(.loaded(path: file.path, lines: count))) }
        return (.failed, .failure(Failure(.loadFailed(path: file.path, failed: failures, lines: count))))
    }

    /// The error when files load each other deeper than ``depthLimit``.
    static let tooDeep = Output.failure(
        Failure(
            .command(
                CommandError(.file, "load is nested more than \(depthLimit) deep", hint: "does a file load itself?")))
    )
}
