/// `load FILE`: runs a session file's lines in this session. The file is read and checked whole
/// first, so a broken file runs nothing.
struct LoadCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "load", synopsis: "load FILE", summary: "run a session file's lines in this session",
        completion: .files, group: .files)

    /// A file that loads itself stops here.
    static let depthLimit = 8

    var file: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        LoadCommand(file: try arguments.single("a file name").text)
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard executor.loadDepth < Self.depthLimit else {
            throw CommandError("load is nested more than \(Self.depthLimit) deep", hint: "does a file load itself?")
        }
        let path = Executor.expandTilde(try executor.session.variables.expand(file))
        let sessionFile: SessionFile
        do {
            sessionFile = try SessionFile.read(path)
        } catch {
            throw CommandError("cannot load \(error.description)", hint: "nothing in it was run")
        }
        executor.loadDepth += 1
        defer { executor.loadDepth -= 1 }
        var outputs: [Output] = []
        var failures = 0
        for entry in sessionFile.entries {
            let result = await executor.run(entry.command, text: entry.text, location: "\(path):\(entry.line)")
            outputs += result.outputs
            if result.outcome == .exit { break }
            if result.outcome == .failed { failures += 1 }
        }
        let count = sessionFile.entries.count
        guard failures > 0 else {
            outputs.append(.notice(.aside("loaded \(path): \(count) line\(count == 1 ? "" : "s")")))
            return CommandResult(.succeeded, outputs)
        }
        outputs.append(.failure(Failure(.summary("loaded \(path): \(failures) of \(count) lines failed"))))
        return CommandResult(.failed, outputs)
    }
}
