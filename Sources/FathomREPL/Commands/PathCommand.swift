/// `path PATH|URL`: replaces the draft's path.
struct PathCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "path", synopsis: "path PATH|URL", summary: "replace the draft's path (a full URL is allowed)",
        details: "`path /users/{{id}}` — variables expand when the request is sent.", completion: .paths,
        group: .draft)

    var target: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        PathCommand(target: try arguments.single("a path or URL").text)
    }

    var logKind: SessionLog.Kind? { .draft }

    var line: String {
        var writer = LineWriter("path")
        writer.word(target)
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        executor.session.draft.target = target
        return .done
    }
}
