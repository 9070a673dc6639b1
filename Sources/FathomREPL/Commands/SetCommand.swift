/// `set NAME = VALUE`: a variable, `{{NAME}}` in every argument.
struct SetCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "set", synopsis: "set NAME = VALUE", summary: "set a variable; `{{NAME}}` expands in every argument",
        completion: .variables, group: .session)

    var name: String
    /// As written: expanded when the line runs.
    var value: String

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let name = try arguments.word("a variable name")
        if let equals = name.text.firstIndex(of: "="), !name.quoted {
            // `set a=1`
            let variable = Word(String(name.text[..<equals]), column: name.column)
            try CommandParser.checkVariableName(variable)
            let inline = String(name.text[name.text.index(after: equals)...])
            let more = arguments.raw.isEmpty ? "" : " " + arguments.raw
            return SetCommand(name: variable.text, value: CommandParser.unquote(inline + more))
        }
        try CommandParser.checkVariableName(name)
        return SetCommand(name: name.text, value: try arguments.afterEquals())
    }

    var logKind: SessionLog.Kind? { .setting }

    var line: String { "set \(name) = " + Self.value(value) }

    /// A value as `set` and `secret` read it back: as written, or in double quotes when it would
    /// lose something (blanks at its ends, being empty, quotes around it).
    static func value(_ value: String) -> String {
        guard let first = value.first, let last = value.last, first != " ", first != "\t", last != " ",
            last != "\t", !(value.count >= 2 && (first == "\"" || first == "'") && last == first)
        else { return "\"\(value)\"" }
        return value
    }

    func credentialName(for value: String) -> String? { SecretNames.variableName(name) }

    /// The value is expanded before anything changes, and nothing after can fail: no copy of the
    /// session is kept for it, so a file of 40,000 `set` lines is linear.
    var changesOnlyWhenItSucceeds: Bool { true }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let expanded = try executor.session.variables.expand(value)
        let secret = executor.session.variables.isSecret(name)
        executor.session.variables.set(name, expanded, secret: secret)
        if secret { executor.redactor.addSecret(expanded) }
        return .done
    }
}
