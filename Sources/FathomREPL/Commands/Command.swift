/// One command of the language, whole in one type: its spec (what `help`, completion and the
/// README show), its parsing into a typed value, its execution, and its line.
///
/// Adding a command is one new file with a type that conforms, its tests, and one line in
/// ``CommandRegistry/commands``. Nothing else knows a command's name: the parser, `help`,
/// completion, the line assembler and `save` read the registry and the command values. See
/// CONTRIBUTING.md.
protocol Command: Sendable, Equatable {
    /// The command's spec; a family (the HTTP method one-liners) has one per name.
    static var specs: [CommandSpec] { get }

    /// Parses the words after the command's name into a value.
    ///
    /// `arguments.command` is the name the line used (lowercased), for a family. Errors carry the
    /// column where the line went wrong; usage text comes from the spec (``Arguments``).
    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self

    /// Runs the command against the executor's session and returns what it came to.
    ///
    /// Whatever it changes in the session is undone by the executor when it throws or fails
    /// (``Executor/run(_:text:location:)``): a command need not take care of that itself.
    ///
    /// - Throws: Anything that fails the line as a whole.
    func run(in executor: isolated Executor) async throws -> CommandResult

    /// How `save` keeps the line; `nil` when it is not kept (a listing, `show`, `help`). Every
    /// command states it: a setting that forgot would silently be left out of saved sessions.
    var logKind: SessionLog.Kind? { get }

    /// The command as a line of the language, written through ``Quoting``: it parses back to a
    /// value equal to this one. `save`, `fathom import` and the tests write commands this way.
    var line: String { get }

    /// The command as `save` keeps it once it has run: `self`, unless running it settled
    /// something the line did not say (a password asked for at the terminal), or the line holds
    /// what must not be written (a secret's value: `secret NAME` is kept instead).
    func logged(in executor: isolated Executor) -> any Command

    /// The name a saved session gives a credential found in this line (`authorization` for an
    /// `Authorization` header, `password` for `auth basic`), so that a replay asks for it by a
    /// name that says what it is.
    func credentialName(for value: String) -> String?

    /// The credential values the line holds as written (a token, a password, a secret's value;
    /// `{{templates}}` left out): masked from then on even when the line fails, so a line that
    /// could not run never reaches the screen or the history file in clear.
    var declaredSecrets: [String] { get }

    /// Whether the line opens a conversation whose messages arrive in the background (`ws`): the
    /// loop holds them until the line's own output is shown, so a greeting never comes before
    /// the line that opened the connection.
    var opensConversation: Bool { get }

    /// Whether the line is a request of its own that replaces the draft (a one-liner, a curl
    /// line): when it fails, the draft is the one before it, so a hint says to run the line again
    /// rather than `send`.
    var replacesDraft: Bool { get }

    /// The files the command reads, as the line writes them (relative ones under the session
    /// file's folder): `replay` checks they exist before anything is sent.
    var filesRead: [String] { get }

    /// The secret the line asks for when it runs (`secret NAME` with no value): a replay asks
    /// for it, or finds it, before anything is sent.
    var secretAskedFor: String? { get }

    /// Whether the line reads the last request's response (`expect`, `let`): a replay skips it
    /// when that request got none, as checking or capturing from nothing only adds noise.
    var readsLastResponse: Bool { get }

    /// What a replay's report calls a request line it did not run (`mutation AddTodo`); `nil`:
    /// the line's first two words.
    var reportTitle: String? { get }

    /// Whether the line judges a GraphQL response's `errors` (`expect errors == 0`): a replay
    /// fails a response with errors only when no line of its block does.
    var checksGraphQLErrors: Bool { get }

    /// Whether the line checks the last response against its operation's schema (`expect
    /// schema`): the response's own check has said the same already when it failed.
    var checksResponseSchema: Bool { get }

    /// Whether the command checks everything before it changes the session, and nothing it
    /// changes can fail after: the executor then keeps no copy of the session for it, so a file
    /// of 20,000 `header` lines costs 20,000 steps, not 20,000². `FailedLineTests` holds every
    /// command that says so to it.
    var changesOnlyWhenItSucceeds: Bool { get }
}

extension Command {
    func logged(in executor: isolated Executor) -> any Command { self }

    func credentialName(for value: String) -> String? { nil }

    var filesRead: [String] { [] }

    var declaredSecrets: [String] { [] }

    var replacesDraft: Bool { false }

    var opensConversation: Bool { false }

    var changesOnlyWhenItSucceeds: Bool { false }

    var secretAskedFor: String? { nil }

    var readsLastResponse: Bool { false }

    var reportTitle: String? { nil }

    var checksGraphQLErrors: Bool { false }

    var checksResponseSchema: Bool { false }

    /// `send` or a one-liner: a line that sends a request.
    var sendsRequest: Bool { logKind == .request }

    /// Whether `other` is this command with the same values.
    func isEqual(to other: any Command) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

/// A command with one spec.
protocol SingleCommand: Command {
    static var spec: CommandSpec { get }
}

extension SingleCommand {
    static var specs: [CommandSpec] { [spec] }
}

/// Writes a command's line: its name, then words quoted by ``Quoting`` (or written as they are,
/// for the forms a command reads raw: `header Name: value`, `set NAME = VALUE`).
struct LineWriter {
    private(set) var text: String

    init(_ name: String) { text = name }

    /// A word, quoted as needed.
    mutating func word(_ word: String, literal: Bool = false) {
        text += " " + Quoting.word(word, literal: literal)
    }

    /// Text as it is, after a blank.
    mutating func raw(_ raw: String) { text += " " + raw }

    /// Words, each quoted as needed.
    mutating func words(_ words: [String], literal: Bool = false) {
        for word in words { self.word(word, literal: literal) }
    }
}
