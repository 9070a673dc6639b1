import FathomHTTP

/// `base [URL]`: the base URL relative paths resolve against.
struct BaseCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "base", synopsis: "base [URL]", summary: "set the base URL relative paths resolve against",
        details: "Without a URL, shows it. `fathom URL` sets it at start.", completion: .paths, group: .draft)

    /// `nil` shows the base URL.
    var url: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        BaseCommand(url: try arguments.optionalWord()?.text)
    }

    var logKind: SessionLog.Kind? { url == nil ? nil : .setting }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let url else {
            return .shows(.value(name: "base", value: executor.session.base ?? "no base URL — set one with `base URL`"))
        }
        _ = try RequestURL(parsing: try executor.session.variables.expand(url))
        executor.session.base = url
        return .done
    }
}
