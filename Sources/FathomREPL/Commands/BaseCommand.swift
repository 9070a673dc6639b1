import FathomHTTP

/// `base [URL]`: the base URL relative paths resolve against, and the API it names (see ``API``).
struct BaseCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "base", synopsis: "base [URL]", summary: "set the base URL relative paths resolve against",
        details: """
            Without a URL, shows it. The base names the API that `auth`, `default`, `spec` and `validate` \
            set things for: a base on a new origin is a new API, and the one before keeps its state for \
            when the base comes back to it. `fathom URL` sets it at start.
            """,
        completion: .paths, group: .draft)

    /// `nil` shows the base URL.
    var url: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let url = try arguments.optionalWord()?.text
        try arguments.end()
        return BaseCommand(url: url)
    }

    var logKind: SessionLog.Kind? { url == nil ? nil : .setting }

    var line: String {
        var writer = LineWriter("base")
        if let url { writer.word(url) }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let url else {
            return .shows(
                .setting(SettingShown(name: "base", value: executor.session.base.map { .text($0) } ?? .unset)))
        }
        try executor.useBase(url)
        return .done
    }
}
