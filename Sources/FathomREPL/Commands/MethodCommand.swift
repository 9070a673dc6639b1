import FathomHTTP

/// `method [GET|POST|…]`: the draft's method.
struct MethodCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "method", synopsis: "method [GET|POST|…]", summary: "set the draft's method (GET by default)",
        completion: .words(OneLinerCommand.methods.map { $0.uppercased() }), group: .draft)

    /// `nil` shows the method.
    var method: HTTPMethod?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard let word = try arguments.optionalWord() else { return MethodCommand(method: nil) }
        try arguments.end()
        return MethodCommand(method: try CommandParser.method(word))
    }

    var logKind: SessionLog.Kind? { method == nil ? nil : .draft }

    var line: String {
        var writer = LineWriter("method")
        if let method { writer.raw(CommandParser.methodWord(method)) }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let method else {
            return .shows(.setting(SettingShown(name: "method", value: .text(executor.session.draft.method.rawValue))))
        }
        executor.session.draft.method = method
        return .done
    }
}
