import FathomGraphQL
@_spi(Fathom) import FathomJSON

/// A GraphQL operation at the prompt: `{ users { id } }`, `query User($id: ID!) { … } id=2`,
/// `mutation { … }`, or `query @ops.graphql [OPERATION] [name=value | name:=JSON]…`. It is sent
/// as a POST of the current API's GraphQL endpoint (`graphql`), checked by its schema before it
/// goes and its response after, and kept as every response is.
struct GraphQLOperationCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "mutation", aliases: ["subscription"],
        synopsis:
            "mutation|subscription|query [NAME] [(…)] { … } [OPERATION] [name=value | name:=JSON]… | { … } | query @FILE [OPERATION] […]",
        summary: "send a GraphQL operation to the API's endpoint (`graphql`), checked by its schema",
        details: """
            A line that starts with `{`, `mutation`, `subscription`, or `query` followed by `{`, `(` or a name and \
            `{` is a GraphQL operation; it goes on over lines until its braces close. Words after it are its \
            variables — `id=2` (a string), `limit:=10`, `filter:='{"a":1}'` (JSON), {{variables}} expanded — and, \
            when the document holds several operations, the name of the one to send; a batch's flags (`--repeat N -c C`, \
            `--duration`, `--rate`, `--data rows.csv`) send it as a batch. `query @FILE` sends an \
            operation from a file. The operation is POSTed as `{"query", "variables", "operationName"}` with \
            everything the API applies (auth, defaults, cookies). With a schema loaded, it is checked by every \
            validation rule of the GraphQL specification first (`validate strict` refuses it with the problems \
            listed and sends nothing), and the response's `data` after, against the types the operation selects \
            (`schema ✗ $.data.user.age: expected Int, got string`); `errors` are listed under the response. \
            A subscription opens a WebSocket to the endpoint (graphql-transport-ws or graphql-ws, as the server \
            accepts; server-sent events when it takes no WebSocket there); its results print as they arrive, and it ends when the server completes it, at `stream \
            limit`, after the `timeout` with none, or at Ctrl-C, keeping what arrived as a stream.
            """,
        completion: .none, continuation: .graphQL, group: .api)

    enum Document: Equatable {
        /// The operation as written at the prompt or in the file's lines.
        case inline(String)
        /// A file holding one or several operations (`query @FILE`).
        case file(String)
    }

    var document: Document
    /// The operation to send, when the document holds several.
    var operationName: String?
    /// `name=value` (a string) and `name:=JSON` items.
    var variables: [RequestItem]
    /// `--repeat N`, `-c C`, `--duration`, `--rate`, `--data rows.csv`: sent as a batch.
    var batch: BatchOptions? = nil

    /// Reached through the registry for `mutation …` and `subscription …`: the whole line is the document.
    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let rest = arguments.rest()
        return try parse(line: arguments.command + " " + rest, column: 1)
    }

    /// Parses the whole entry (`CommandParser` sends every line ``GraphQLText/startsOperation(_:)`` claims).
    static func parse(line: String, column: Int) throws(CommandError) -> Self {
        let text = line.drop { $0 == " " || $0 == "\t" }
        let document: Document
        var rest: Substring
        if text.hasPrefix("query"), text.dropFirst(5).drop(while: { $0 == " " || $0 == "\t" }).first == "@" {
            let afterAt = text.dropFirst(5).drop { $0 == " " || $0 == "\t" }.dropFirst()
            let path = afterAt.prefix { $0 != " " && $0 != "\t" }
            document = .file(String(path))
            rest = afterAt.dropFirst(path.count)
        } else {
            let whole = String(text)
            let end = GraphQLText.documentEnd(whole)
            guard GraphQLText.depth(String(whole[..<end])) == 0 else {
                throw CommandError(
                    .parse, "the operation's braces do not close", column: column,
                    hint: "an operation goes on over lines until its `{` and `(` are closed")
            }
            document = .inline(String(whole[..<end]))
            rest = Substring(whole[end...])
        }
        var arguments = Arguments(raw: rest, column: column, command: "mutation")
        var operationName: String?
        var variables: [RequestItem] = []
        var words = try arguments.words()
        let batch = try BatchOptions.take(from: &words)
        for word in words {
            if word.text.contains("=") {
                variables.append(try CommandParser.item(word, allowed: [.field, .rawJSON]))
            } else if operationName == nil, !word.quoted, Self.isName(word.text) {
                operationName = word.text
            } else {
                throw CommandError(
                    .parse, .unexpected(word: word.text), column: word.column,
                    hint: "after an operation: the name of the one to send, and variables as name=value or name:=JSON")
            }
        }
        return GraphQLOperationCommand(
            document: document, operationName: operationName, variables: variables, batch: batch)
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        }
    }

    var logKind: SessionLog.Kind? { .request }

    var filesRead: [String] {
        var files: [String] = []
        if case .file(let path) = document { files.append(path) }
        if let rows = batch?.data { files.append(rows) }
        return files
    }

    var line: String {
        var text: String
        switch document {
        case .inline(let operation): text = operation
        case .file(let path): text = "query @" + path
        }
        if let operationName { text += " " + operationName }
        for item in variables { text += " " + Quoting.word(item.text, literal: true) }
        if let batch { text += " " + batch.words.joined(separator: " ") }
        return text
    }

    /// `query User`, `mutation AddTodo`; an anonymous operation by its first line, cut.
    var reportTitle: String? {
        guard case .inline(let text) = document else { return "query @" + (filesRead.first ?? "") }
        let first = text.prefix { $0 != "\n" }.trimmingBlanks
        let keyword = first.prefix { $0.isLetter }
        let name = first.dropFirst(keyword.count).drop { $0 == " " || $0 == "\t" }.prefix {
            $0.isLetter || $0.isNumber || $0 == "_"
        }
        if !keyword.isEmpty, !name.isEmpty { return "\(keyword) \(name)" }
        return first.count > 40 ? first.prefix(39) + "…" : first
    }

    func credentialName(for value: String) -> String? {
        variables.lazy.compactMap { item -> String? in
            switch item {
            case .field(let name, let given) where given.contains(value): name
            case .rawJSON(let name, let given) where given.contains(value): name
            default: nil
            }
        }.first
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let text: String
        switch document {
        case .inline(let written): text = written
        case .file(let path):
            let resolved = executor.resolvePath(try executor.session.variables.expand(path))
            let data = try BoundedFile.read(resolved, limit: BoundedFile.schema, what: "a GraphQL document")
            text = String(decoding: data, as: UTF8.self)
        }
        let operation: GraphQLOperation
        do {
            operation = try GraphQLOperation(text, operationName: operationName)
        } catch {
            let problems = error.problems.map(\.description)
            throw CommandError(.parse, .stated(problems.joined(separator: "; ")))
        }
        var values: [JSON.Member] = []
        for item in variables {
            switch item {
            case .field(let name, let value):
                values.append(JSON.Member(key: name, value: .string(try executor.session.variables.expand(value))))
            case .rawJSON(let name, let written):
                let expanded = try executor.session.variables.expand(written)
                do {
                    values.append(JSON.Member(key: name, value: try JSON(parsing: expanded)))
                } catch {
                    throw CommandError(
                        .parse, "variable '\(name)' is not JSON: \(error.summary)",
                        hint: "name:=JSON takes a JSON value: 10, true, \"text\", [1,2], {\"a\":1}")
                }
            default: continue
            }
        }
        if operation.kind == .subscription {
            guard batch == nil else {
                throw CommandError(
                    .session, "a subscription is not sent as a batch", hint: "a query or a mutation is: --repeat N")
            }
            return try await executor.subscribe(operation, variables: values)
        }
        if let batch { return try await executor.sendGraphQLBatch(operation, variables: values, options: batch) }
        return try await executor.send(try executor.graphQLOutgoing(operation, variables: values))
    }
}
