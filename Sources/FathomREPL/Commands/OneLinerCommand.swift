import FathomHTTP

/// `get|post|put|patch|delete|head|options [PATH|URL] [ITEMS…]`: one request in one line, with
/// items as HTTPie writes them. The only family of commands, and the only words that send a
/// request by themselves.
///
/// With a path or URL the line is one self-contained request: it replaces the draft, so nothing
/// an earlier line put there (headers, query, a body, credentials) rides along; what the
/// session applies to the API it goes to (defaults, auth, cookies) comes with it as with any
/// request. Without one it sends the draft as it is, with this method and these items added.
struct OneLinerCommand: Command {
    static let methods = ["get", "post", "put", "patch", "delete", "head", "options"]

    static let specs = methods.map { method in
        CommandSpec(
            name: method, synopsis: "\(method) [PATH|URL] [ITEMS…] [--repeat N -c C …]",
            summary: "set the draft to \(method.uppercased()) and send it",
            details: """
                Items as HTTPie writes them: `Name:Value` header, `Name:` removes it, `name==value` query, \
                `name=value` string field, `name:=json` raw JSON field, `name@file` file field (multipart). \
                With a path or URL the line replaces the draft: one self-contained request. `:3000/x`, \
                `localhost:8080/x` and `host.example/x` are read as http:// URLs, as HTTPie reads them. \
                `send`'s batch flags (`--repeat 100 -c 10`, `--duration`, `--rate`, `--data`) send it as a batch.
                """,
            completion: .request(method: method.uppercased()), group: .draft)
    }

    var method: HTTPMethod
    var target: String?
    var items: [RequestItem]
    /// `--repeat N -c C …`: the request sent as a batch.
    var batch: BatchOptions?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let method = HTTPMethod(rawValue: arguments.command.uppercased())
        var words = try arguments.words()
        let batch = try BatchOptions.take(from: &words)
        var target: String?
        if let first = words.first, RequestItem.looksLikeTarget(first) {
            target = first.quoted ? first.text : RequestItem.hostShorthand(first.text) ?? first.text
            words.removeFirst()
        }
        var items: [RequestItem] = []
        for word in words {
            let item = try CommandParser.item(word, allowed: RequestItem.Kind.allCases)
            // A field on `get /x name=x` is far more often a slip for `name==x` than a GET with
            // a body; such a body can still be sent with `body`, `method` and `send`.
            if method == .get || method == .head, [.field, .rawJSON, .file].contains(item.kind) {
                throw CommandError(
                    .parse, "a \(method) one-liner takes no body fields: '\(word.text)' is one", column: word.column,
                    hint: "`name==value` is a query item; for a body on \(method), set `body` and `send`")
            }
            items.append(item)
        }
        return OneLinerCommand(method: method, target: target, items: items, batch: batch)
    }

    var logKind: SessionLog.Kind? { .request }

    var filesRead: [String] { items.compactMap(\.filePath) + (batch?.data.map { [$0] } ?? []) }

    var line: String {
        var writer = LineWriter(method.rawValue.lowercased())
        if let target { writer.word(target) }
        writer.words(items.map(\.text), literal: true)
        if let batch { writer.raw(batch.words.joined(separator: " ")) }
        return writer.text
    }

    func credentialName(for value: String) -> String? { items.credentialName(for: value) }

    var replacesDraft: Bool { target != nil }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        var draft: Draft
        if let target {
            draft = Draft()
            draft.target = target
        } else {
            draft = executor.session.draft
            if items.contains(where: { [.field, .rawJSON, .file].contains($0.kind) }) { draft.body = .none }
        }
        draft.method = method
        draft.apply(items)
        if let batch {
            let result = try await executor.sendBatch(draft, options: batch)
            executor.session.draft = draft
            return result
        }
        // Validated whole before the draft changes: a bad one-liner leaves the session as it was.
        let outgoing = try executor.prepare(draft)
        executor.session.draft = draft
        return try await executor.send(outgoing)
    }
}

extension [RequestItem] {
    /// The item that holds `value` names the credential: `password=…` → `password`.
    func credentialName(for value: String) -> String? {
        lazy.compactMap { item -> String? in
            switch item {
            case .header(let name, let given), .query(let name, let given), .field(let name, let given):
                given.contains(value) ? SecretNames.variableName(name) : nil
            default: nil
            }
        }.first
    }
}
