/// One command of the language, whole in one type: its spec (what `help`, completion and the
/// README show), its parsing into a typed value, and its execution.
///
/// Adding a command is one new file with a type that conforms, its tests, and one line in
/// ``CommandRegistry/commands``. See CONTRIBUTING.md.
protocol Command: Sendable {
    /// The command's spec; a family (the HTTP method one-liners) has one per name.
    static var specs: [CommandSpec] { get }

    /// Parses the words after the command's name into a value.
    ///
    /// `arguments.command` is the name the line used (lowercased), for a family. Errors carry the
    /// column where the line went wrong; usage text comes from the spec (``Arguments``).
    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self

    /// Runs the command against the executor's session and returns what it came to.
    ///
    /// - Throws: Anything that fails the line as a whole; the session is then as it was.
    func run(in executor: isolated Executor) async throws -> CommandResult

    /// How `save` keeps the line; `nil` (the default) when it is not kept.
    var logKind: SessionLog.Kind? { get }
}

extension Command {
    var logKind: SessionLog.Kind? { nil }

    /// `send` or a one-liner: a line that sends a request.
    var sendsRequest: Bool { logKind == .request }
}

/// A command with one spec.
protocol SingleCommand: Command {
    static var spec: CommandSpec { get }
}

extension SingleCommand {
    static var specs: [CommandSpec] { [spec] }
}
