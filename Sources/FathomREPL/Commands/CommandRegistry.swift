/// The one list of commands: the parser, `help`, completion and the README's command reference
/// all read it, so they cannot drift apart.
enum CommandRegistry {
    /// Every command type, in the order `help` lists them within a group.
    static let commands: [any Command.Type] = [
        // Build and send a request
        BaseCommand.self, PathCommand.self, CdCommand.self, MethodCommand.self, QueryCommand.self,
        HeaderCommand.self, BodyCommand.self, SendCommand.self, ShowCommand.self, ResetCommand.self,
        OneLinerCommand.self, CurlCommand.self, GRPCurlCommand.self, ImportCommand.self, ExportCommand.self,
        WsCommand.self, PingCommand.self, CloseCommand.self,
        // Session
        ApiCommand.self, DefaultCommand.self, AuthCommand.self, SetCommand.self, UnsetCommand.self, VarsCommand.self,
        SecretCommand.self, RevealCommand.self, EnvCommand.self,
        // Client settings
        DecoderCommand.self, LogCommand.self, TimeoutCommand.self, RedirectsCommand.self, InsecureCommand.self,
        CertCommand.self,
        ProxyCommand.self, CookiesCommand.self, MockCommand.self, PagerCommand.self, StreamCommand.self,
        // Responses
        ResponsesCommand.self, InspectCommand.self, LetCommand.self, DiffCommand.self, ExpectCommand.self,
        VolatileCommand.self,
        // An API description
        SpecCommand.self, LsCommand.self, DescribeCommand.self, OpCommand.self, ValidateCommand.self,
        GraphQLCommand.self, GraphQLOperationCommand.self, GRPCCommand.self, CallCommand.self,
        // Session files
        SaveCommand.self, LoadCommand.self, ReplayCommand.self, RecordCommand.self,
        // Other
        HelpCommand.self, HistoryCommand.self, ExitCommand.self,
    ]

    /// Every spec, in the order `help` lists them.
    static let all: [CommandSpec] = commands.flatMap { $0.specs }

    private static let byName: [String: (type: any Command.Type, spec: CommandSpec)] = {
        var table: [String: (type: any Command.Type, spec: CommandSpec)] = [:]
        for type in commands {
            for spec in type.specs {
                for name in [spec.name] + spec.aliases {
                    precondition(table[name] == nil, "two commands are named '\(name)'")
                    table[name] = (type, spec)
                }
            }
        }
        return table
    }()

    /// The command named `name` (or one of its aliases), any case.
    static func command(named name: String) -> (type: any Command.Type, spec: CommandSpec)? {
        byName[name.lowercased()]
    }

    /// The spec named `name` or one of its aliases.
    static func spec(named name: String) -> CommandSpec? { command(named: name)?.spec }

    /// Every name a line may start with.
    static var names: [String] { all.flatMap { [$0.name] + $0.aliases } }

    /// The command reference as a Markdown table, grouped as `help` groups it (the README's copy
    /// is checked against this by a test).
    static func markdownReference() -> String {
        var text = ""
        for group in CommandSpec.Group.allCases {
            text += "| \(group.rawValue) | |\n|---|---|\n"
            for spec in all where spec.group == group {
                let synopsis = spec.synopsis.replacingOccurrences(of: "|", with: "\\|")
                let summary = spec.summary.replacingOccurrences(of: "|", with: "\\|")
                text += "| `\(synopsis)` | \(summary) |\n"
            }
            text += "\n"
        }
        return text
    }

    /// The prompt's commands as a man page section (mdoc), grouped as `help` groups them: the
    /// manual `make install` writes carries it after the options argument-parser documents.
    static func manualSection() -> String {
        var text = ".Sh PROMPT COMMANDS\n"
        text += "At the prompt, in a session file and after \\fB-c\\fP, each line is one of these commands.\n"
        text += "Type \\fBhelp COMMAND\\fP at the prompt for the same text.\n"
        for group in CommandSpec.Group.allCases {
            text += ".Ss \(quoted(group.rawValue))\n.Bl -tag -width Ds\n"
            for spec in all where spec.group == group {
                text += ".It Sy \(quoted(spec.synopsis))\n"
                text += roff(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ".") + "\n"
                if !spec.details.isEmpty { text += roff(spec.details) + "\n" }
            }
            text += ".El\n"
        }
        return text
    }

    /// Text for a roff text line: backslashes written as `\e`, and a line never starting with a
    /// control character.
    private static func roff(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line) }
            .joined(separator: "\n")
    }

    /// One mdoc macro argument, in double quotes, so that `[`, `|` and spaces are text.
    private static func quoted(_ text: String) -> String {
        "\"" + roff(text).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }
}

/// The prompt's command reference for the manual, for the `fathom` executable (which writes the
/// man page `make install` installs).
@_spi(Fathom) public enum CommandReference {
    /// The prompt's commands as an mdoc section (`.Sh PROMPT COMMANDS`).
    public static func manualSection() -> String { CommandRegistry.manualSection() }
}
