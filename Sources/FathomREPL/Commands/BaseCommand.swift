import FathomHTTP

/// `base [URL]`: the base URL relative paths resolve against, and the API it names (see ``API``).
struct BaseCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "base", synopsis: "base [--move] [URL]", summary: "set the base URL relative paths resolve against",
        details: """
            Without a URL, shows it. The base names the API that `auth`, `default`, `spec` and `validate` \
            set things for: a base on a new origin is a new API, and the one before keeps its state for \
            when the base comes back to it (one line says what stayed). `base --move URL` takes the \
            current API — its auth, defaults and description — to URL's origin instead. A base that came \
            from a description's servers is only a default: the first base you set moves that API. \
            `fathom URL` sets it at start.
            """,
        completion: .paths, group: .draft)

    /// `nil` shows the base URL.
    var url: String?
    /// `--move`: the current API goes to the new origin with its state.
    var move = false

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var word = try arguments.optionalWord()
        var move = false
        if let flag = word, !flag.quoted, flag.text == "--move" {
            move = true
            word = try arguments.word("a base URL to move the API to")
        }
        try arguments.end()
        return BaseCommand(url: word?.text, move: move)
    }

    var logKind: SessionLog.Kind? { url == nil ? nil : .setting }

    var line: String {
        var writer = LineWriter("base")
        if move { writer.raw("--move") }
        if let url { writer.word(url) }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let url else {
            // As it expands (`{{demo}}` is a port the person cannot see), and as written when it differs.
            let base = executor.session.base
            let shown = base.map { written in
                let expanded = (try? executor.session.variables.expand(written)) ?? written
                return expanded == written ? written : "\(expanded) (\(written))"
            }
            return .shows(.setting(SettingShown(name: "base", value: shown.map { .text($0) } ?? .unset)))
        }
        guard let change = try executor.useBase(url, moving: move) else { return .done }
        return .shows(.event(.baseChanged(change)))
    }
}
