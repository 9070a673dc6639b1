@_spi(Fathom) import FathomHTTP
@_spi(Fathom) import FathomJSON

/// `graphql [PATH|URL] [--schema FILE] | graphql off`: the current API's GraphQL endpoint and
/// its schema, which every operation sent to it is checked against.
struct GraphQLCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "graphql", synopsis: "graphql [PATH|URL] [--schema FILE] | graphql off",
        summary:
            "make PATH (default /graphql) the API's GraphQL endpoint and load its schema; bare says what is loaded",
        details: """
            The schema comes by the introspection query, sent to the endpoint with the API's credentials, or from \
            a file: SDL (`.graphql`, `.graphqls`) or a saved introspection result (`.json`). It belongs to the \
            base's API, as a description does. Then a line that starts with `{`, `query`, `mutation` or \
            `subscription` is an operation sent to the endpoint (`help mutation`), checked before it goes by \
            every validation rule of the GraphQL specification (`validate warn|strict|off`) and its response after. \
            A URL on another origin makes that origin the base's API first.
            """,
        completion: .wordsOrFiles(["--schema", "off"]), group: .api)

    enum Action: Equatable {
        case show
        case load(path: String?, schema: String?)
        case unload
    }

    var action: Action

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var path: String?
        var schema: String?
        let words = try arguments.words()
        if words.count == 1, !words[0].quoted, words[0].text == "off" { return GraphQLCommand(action: .unload) }
        var index = 0
        while index < words.count {
            let word = words[index]
            if !word.quoted, word.text == "--schema" {
                guard index + 1 < words.count else {
                    throw CommandError(.parse, .missing("a schema file after --schema"), column: word.column)
                }
                schema = words[index + 1].text
                index += 2
                continue
            }
            if !word.quoted, word.text.hasPrefix("--") {
                throw CommandError(
                    .parse,
                    .unknown(
                        kind: "graphql option", word: word.text,
                        suggestion: Spelling.closest(to: word.text, among: ["--schema"])),
                    column: word.column, hint: "graphql [PATH|URL] [--schema FILE]")
            }
            guard path == nil else {
                throw CommandError(
                    .parse, .unexpected(word: word.text), column: word.column,
                    hint: "graphql [PATH|URL] [--schema FILE]")
            }
            path = word.text
            index += 1
        }
        if path == nil, schema == nil { return GraphQLCommand(action: .show) }
        return GraphQLCommand(action: .load(path: path, schema: schema))
    }

    var logKind: SessionLog.Kind? {
        switch action {
        case .show: nil
        case .load, .unload: .setting
        }
    }

    var filesRead: [String] {
        guard case .load(_, let schema?) = action else { return [] }
        return [schema]
    }

    var line: String {
        switch action {
        case .show: return "graphql"
        case .unload: return "graphql off"
        case .load(let path, let schema):
            var writer = LineWriter("graphql")
            if let path {
                // `off` as the endpoint's path is quoted, as `graphql off` unloads.
                if path == "off" { writer.raw("'off'") } else { writer.word(path, literal: true) }
            }
            if let schema { writer.raw("--schema " + Quoting.word(schema, literal: true)) }
            return writer.text
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch action {
        case .show:
            let summary = executor.session.currentAPI?.graphQL.map { endpoint in
                GraphQLSummary(endpoint, url: (executor.baseURL() ?? "") + endpoint.path)
            }
            return .shows(.event(.graphQLShown(summary)))
        case .unload:
            executor.session.currentAPI?.graphQL = nil
            return .done
        case .load(let written, let schemaFile):
            var path = try written.map { try executor.session.variables.expand($0) } ?? "/graphql"
            if path.contains("://") {
                // A URL names its API: the base moves there when it is another origin's.
                let url = try RequestURL(parsing: path)
                if executor.session.currentAPI?.origin != Origin(url) { _ = try executor.useBase(url.origin) }
                path = url.pathAndQuery
            }
            guard executor.session.current != nil else {
                throw CommandError(
                    .session, "no base URL for the GraphQL endpoint", hint: "`base URL` first, or `graphql URL`")
            }
            if !path.hasPrefix("/") { path = "/" + path }
            let schema = try await executor.loadGraphQLSchema(
                endpoint: path, file: try schemaFile.map { try executor.session.variables.expand($0) })
            let endpoint = GraphQLEndpoint(path: path, schema: schema)
            executor.session.currentAPI?.graphQL = endpoint
            return .shows(.event(.graphQLLoaded(GraphQLSummary(endpoint, url: (executor.baseURL() ?? "") + path))))
        }
    }
}
