/// One command of the language: what `help` shows and what completion offers.
public struct CommandSpec: Sendable {
    /// What completion offers after the command name.
    public enum Completion: Sendable {
        case none
        /// Fixed words (subcommands or values).
        case words([String])
        /// Header names, then media types after `Content-Type:`/`Accept:`.
        case headers
        /// Paths seen in this session's requests and responses.
        case paths
        /// Variable names.
        case variables
        /// Files.
        case files
        /// Command names.
        case commands
    }

    public var name: String
    public var aliases: [String] = []
    public var synopsis: String
    public var summary: String
    public var details: String = ""
    public var completion: Completion = .none
    public var group: Group

    public enum Group: String, CaseIterable, Sendable {
        case draft = "Build and send a request"
        case session = "Session: every request gets these"
        case client = "Client settings"
        case responses = "Responses: inspect, capture, compare, check"
        case files = "Session files"
        case other = "Other"
    }
}

/// The one table of commands: the parser, `help` and completion all read it, so they cannot drift.
public enum CommandTable {
    public static let methods = ["get", "post", "put", "patch", "delete", "head", "options"]

    public static let all: [CommandSpec] =
        [
            CommandSpec(
                name: "base", synopsis: "base [URL]", summary: "set the base URL relative paths resolve against",
                details: "Without a URL, shows it. `fathom URL` sets it at start.", completion: .paths, group: .draft),
            CommandSpec(
                name: "path", synopsis: "path PATH|URL", summary: "replace the draft's path (a full URL is allowed)",
                details: "`path /users/{{id}}` — variables expand when the request is sent.", completion: .paths,
                group: .draft),
            CommandSpec(
                name: "cd", synopsis: "cd SEGMENT | cd .. | cd /", summary: "move the draft's path like a directory",
                completion: .paths, group: .draft),
            CommandSpec(
                name: "method", synopsis: "method [GET|POST|…]", summary: "set the draft's method (GET by default)",
                completion: .words(methods.map { $0.uppercased() }), group: .draft),
            CommandSpec(
                name: "query", synopsis: "query [name=value | name | -name]…",
                summary: "add query items; `-name` removes; bare `query` lists", completion: .variables, group: .draft),
            CommandSpec(
                name: "header", synopsis: "header [Name: value | -Name]",
                summary: "set a draft header; `-Name` removes; bare `header` lists", completion: .headers, group: .draft
            ),
            CommandSpec(
                name: "body",
                synopsis:
                    "body JSON | TEXT | @FILE | <<EOF | form k=v… | json k=v k:=raw… | multipart k=v f@path | none",
                summary: "set the draft's body",
                details: """
                    Inline JSON may span lines until its brackets balance. `body <<EOF` reads lines until one is \
                    exactly `EOF`. `json` fields: `name=text` is a string, `name:=42` raw JSON. `multipart`: \
                    `name=text` fields and `name@path` files. Without arguments, shows the body.
                    """,
                completion: .words(["form", "json", "multipart", "none"]), group: .draft),
            CommandSpec(name: "send", synopsis: "send", summary: "send the draft and show the response", group: .draft),
            CommandSpec(
                name: "show", synopsis: "show [request|response|#N|session|headers on|off]",
                summary: "preview the request (secrets masked) or show a response again",
                completion: .words(["request", "response", "session", "headers"]), group: .draft),
            CommandSpec(
                name: "reset", synopsis: "reset", summary: "clear the draft (method, path, query, headers, body)",
                group: .draft),
        ]
        + methods.map { method in
            CommandSpec(
                name: method, synopsis: "\(method) [PATH|URL] [ITEMS…]",
                summary: "set the draft to \(method.uppercased()) and send it",
                details: """
                    Items as HTTPie writes them: `Name:Value` header, `Name:` removes it, `name==value` query, \
                    `name=value` string field, `name:=json` raw JSON field, `name@file` file field (multipart).
                    """,
                completion: .paths, group: .draft)
        }
        + [
            CommandSpec(
                name: "default",
                synopsis: "default [header Name: value | header -Name | query name=value | query -name]",
                summary: "headers and query items every request gets; bare `default` lists",
                completion: .words(["header", "query"]), group: .session),
            CommandSpec(
                name: "auth",
                synopsis:
                    "auth bearer TOKEN | basic USER[:PASS] | apikey header|query NAME VALUE | oauth2 client-credentials URL ID SECRET [SCOPE] | none",
                summary: "how every request is authorized",
                details: """
                    `basic USER` asks for the password without echo. OAuth2 tokens are fetched on first use, \
                    cached, and fetched again on a 401. Credentials are secrets: masked everywhere.
                    """,
                completion: .words(["bearer", "basic", "apikey", "oauth2", "none"]), group: .session),
            CommandSpec(
                name: "set", synopsis: "set NAME = VALUE",
                summary: "set a variable; `{{NAME}}` expands in every argument",
                completion: .variables, group: .session),
            CommandSpec(
                name: "unset", synopsis: "unset NAME", summary: "remove a variable", completion: .variables,
                group: .session),
            CommandSpec(name: "vars", synopsis: "vars", summary: "list variables (secrets masked)", group: .session),
            CommandSpec(
                name: "secret", synopsis: "secret NAME [= VALUE]",
                summary: "a variable whose value is masked everywhere and never written to disk",
                details: "The value comes from FATHOM_SECRET_<NAME>, a `.env` file, or a prompt without echo.",
                completion: .variables, group: .session),
            CommandSpec(
                name: "reveal", synopsis: "reveal NAME",
                summary: "print one secret's value, unmasked, when asked by name",
                completion: .variables, group: .session),
            CommandSpec(
                name: "env", synopsis: "env [use NAME]",
                summary: "list environments, or switch to one (its base URL and variables)",
                details: "Read from ./fathom.env.json or $XDG_CONFIG_HOME/fathom/environments.json.",
                completion: .words(["use"]), group: .session),
            CommandSpec(
                name: "decoder", synopsis: "decoder [auto|json|text|hex|raw]", summary: "how response bodies are shown",
                completion: .words(DecoderMode.allCases.map(\.rawValue)), group: .client),
            CommandSpec(
                name: "log", synopsis: "log [off|info|headers|body] [FILE]",
                summary: "the masked wire log, on standard error or appended to FILE",
                completion: .words(["off", "info", "headers", "body"]), group: .client),
            CommandSpec(
                name: "timeout", synopsis: "timeout [10s|500ms|off]", summary: "the longest a whole request may take",
                completion: .words(["off"]), group: .client),
            CommandSpec(
                name: "redirects", synopsis: "redirects [N|off]",
                summary: "how many redirects to follow (5 by default)",
                completion: .words(["off"]), group: .client),
            CommandSpec(
                name: "insecure", synopsis: "insecure [on|off]", summary: "accept untrusted TLS certificates",
                completion: .words(["on", "off"]), group: .client),
            CommandSpec(
                name: "proxy", synopsis: "proxy [URL|off]", summary: "send requests through an HTTP proxy",
                completion: .words(["off"]), group: .client),
            CommandSpec(
                name: "cookies", synopsis: "cookies [clear|on|off]",
                summary: "the cookie jar (on by default); lists cookies",
                completion: .words(["clear", "on", "off"]), group: .client),
            CommandSpec(
                name: "mock", synopsis: "mock PATH @FILE | mock PATH status CODE | mock off",
                summary: "answer matching paths locally (the library's MockTransport); bare `mock` lists",
                completion: .files, group: .client),
            CommandSpec(
                name: "pager", synopsis: "pager [auto|on|off]",
                summary: "page bodies taller than the terminal through $PAGER",
                completion: .words(PagerMode.allCases.map(\.rawValue)), group: .client),
            CommandSpec(
                name: "responses", synopsis: "responses", summary: "the numbered response history: #1, #2, …",
                group: .responses),
            CommandSpec(
                name: "inspect", synopsis: "inspect [#N] EXPR [--paths]",
                summary: "RFC 9535 JSONPath (or `.a.b[0]` shorthand) over a response body, the last by default",
                details: "`--paths` prints each match's normalized path too. Quote an expression that has blanks.",
                group: .responses),
            CommandSpec(
                name: "let", synopsis: "let NAME = EXPR | header NAME | status [#N]",
                summary: "capture a value from a response (the last by default) into a variable",
                details: """
                    A value from Authorization or Set-Cookie, or from a field named like token, password, \
                    secret or key, is a secret: masked everywhere and never saved.
                    """,
                completion: .variables, group: .responses),
            CommandSpec(
                name: "diff", synopsis: "diff [#A] [#B] [--body|--headers|--all] [--ignore EXPR]…",
                summary: "compare two responses, the last two by default",
                details: """
                    Status and headers as a short list; JSON bodies structurally (volatile fields left out), \
                    text bodies as a unified diff.
                    """,
                completion: .words(["--body", "--headers", "--all", "--ignore"]), group: .responses),
            CommandSpec(
                name: "expect",
                synopsis:
                    "expect status 200|2xx | EXPR ==|!=|<|<=|>|>=|~ VALUE | EXPR exists|absent | header NAME ~ RE | time < 500ms | body ~ RE",
                summary: "check the last response; a failure says expected and actual, and the session goes on",
                details: """
                    VALUE is JSON when it parses as JSON (42, "Ada", [1,2], null), else text. `~` matches a \
                    regular expression; `!~` must not match. `fathom replay` counts failed expectations.
                    """,
                completion: .words(["status", "header", "time", "body"]), group: .responses),
            CommandSpec(
                name: "volatile", synopsis: "volatile [EXPR]",
                summary: "a JSONPath left out when responses are compared (timestamps, ids); bare lists them",
                group: .responses),
            CommandSpec(
                name: "save", synopsis: "save FILE [--requests-only]",
                summary: "write the session as commands that reproduce it (never a secret's value)",
                details: """
                    Settings first (base, defaults, auth, variables, `secret NAME` lines, volatile marks), then \
                    each request as the lines that built it with the `expect` and `let` lines after it. \
                    Responses recorded with `record on` go beside it (a.fathom → a.recording.json). Written atomically.
                    """,
                completion: .files, group: .files),
            CommandSpec(
                name: "load", synopsis: "load FILE", summary: "run a session file's lines in this session",
                completion: .files, group: .files),
            CommandSpec(
                name: "replay", synopsis: "replay FILE… [--compare]",
                summary: "run session files in fresh sessions and report, as `fathom replay` does",
                details: "This session is left as it is. `--compare` diffs responses against the files' recordings.",
                completion: .files, group: .files),
            CommandSpec(
                name: "record", synopsis: "record [on|off]",
                summary: "record responses for `save`, so `fathom replay --compare` can check them",
                completion: .words(["on", "off"]), group: .files),
            CommandSpec(
                name: "help", aliases: ["?"], synopsis: "help [COMMAND]", summary: "list commands, or explain one",
                completion: .commands, group: .other),
            CommandSpec(
                name: "history", synopsis: "history", summary: "the lines entered (secrets masked)", group: .other),
            CommandSpec(
                name: "exit", aliases: ["quit"], synopsis: "exit", summary: "leave (Ctrl-D too)", group: .other),
        ]

    /// The spec named `name` or one of its aliases.
    public static func spec(named name: String) -> CommandSpec? {
        let lowered = name.lowercased()
        return all.first { $0.name == lowered || $0.aliases.contains(lowered) }
    }

    /// Every name a line may start with.
    public static var names: [String] { all.flatMap { [$0.name] + $0.aliases } }
}

extension CommandTable {
    /// The command reference as a Markdown table, grouped as `help` groups it (the README's copy
    /// is checked against this by a test, so the two cannot drift apart).
    public static func markdownReference() -> String {
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
}
