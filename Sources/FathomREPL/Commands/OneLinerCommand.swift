import FathomHTTP

/// `get|post|put|patch|delete|head|options [PATH|URL] [ITEMS…]`: sets the draft and sends it in
/// one line, with items as HTTPie writes them. The only family of commands, and the only words
/// that send a request by themselves.
struct OneLinerCommand: Command, Equatable {
    static let methods = ["get", "post", "put", "patch", "delete", "head", "options"]

    static let specs = methods.map { method in
        CommandSpec(
            name: method, synopsis: "\(method) [PATH|URL] [ITEMS…]",
            summary: "set the draft to \(method.uppercased()) and send it",
            details: """
                Items as HTTPie writes them: `Name:Value` header, `Name:` removes it, `name==value` query, \
                `name=value` string field, `name:=json` raw JSON field, `name@file` file field (multipart).
                """,
            completion: .paths, group: .draft)
    }

    var method: HTTPMethod
    var target: String?
    var items: [RequestItem]

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let method = HTTPMethod(rawValue: arguments.command.uppercased())
        var words = try arguments.words()
        var target: String?
        if let first = words.first, RequestItem.looksLikeTarget(first) {
            target = first.text
            words.removeFirst()
        }
        var items: [RequestItem] = []
        for word in words {
            let item = try CommandParser.item(word, allowed: RequestItem.Kind.allCases)
            // A field on `get /x name=x` is far more often a slip for `name==x` than a GET with
            // a body; such a body can still be sent with `body`, `method` and `send`.
            if method == .get || method == .head, [.field, .rawJSON, .file].contains(item.kind) {
                throw CommandError(
                    "a \(method) one-liner takes no body fields: '\(word.text)' is one", column: word.column,
                    hint: "`name==value` is a query item; for a body on \(method), set `body` and `send`")
            }
            items.append(item)
        }
        return OneLinerCommand(method: method, target: target, items: items)
    }

    var logKind: SessionLog.Kind? { .request }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        var draft = executor.session.draft
        draft.method = method
        if let target {
            draft.target = target
            draft.query = []
        }
        if target != nil || items.contains(where: { [.field, .rawJSON, .file].contains($0.kind) }) {
            draft.body = .none
        }
        draft.apply(items)
        // Validated whole before the draft changes: a bad one-liner leaves the session as it was.
        let prepared = try await executor.prepare(draft)
        executor.session.draft = draft
        return try await executor.send(prepared)
    }
}
