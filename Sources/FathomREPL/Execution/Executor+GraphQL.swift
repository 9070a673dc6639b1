import FathomGraphQL
@_spi(Fathom) import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

/// GraphQL on the exchange pipeline: an operation is a POST of its API's endpoint, prepared,
/// scoped, sent, kept and checked as every request is; what is GraphQL's own — the schema, the
/// checks by it — is here and in FathomGraphQL.
extension Executor {
    /// The request that carries `operation` to the current API's GraphQL endpoint, with
    /// `variables`, scoped as every request is (the API's credentials, defaults, cookies).
    func graphQLOutgoing(_ operation: GraphQLOperation, variables: [JSON.Member]) throws -> Outgoing {
        let endpoint = try currentGraphQLEndpoint()
        let draft = Self.graphQLDraft(endpoint.path, body: operation.body(variables: variables))
        // POSTed, but a query or a subscription only reads: a read-only session sends it.
        var outgoing = try Self.$writeAllowed.withValue(Self.writeAllowed || operation.kind != .mutation) {
            try prepare(draft)
        }
        outgoing.graphQL = operation
        return outgoing
    }

    /// The current API's GraphQL endpoint, or why there is none.
    func currentGraphQLEndpoint() throws(CommandError) -> GraphQLEndpoint {
        guard let api = session.currentAPI else {
            throw CommandError(
                .session, "no base URL for a GraphQL operation", hint: "`base URL`, then `graphql [PATH]`")
        }
        guard let endpoint = api.graphQL else {
            throw CommandError(
                .session, "\(api.origin) has no GraphQL endpoint",
                hint: "`graphql /graphql` (or the endpoint's path) sets it and loads its schema")
        }
        return endpoint
    }

    /// `operation` sent as a batch (`--repeat`, `--duration`, `--data`), each request as one
    /// operation line sends it; checked by the schema once, before the first goes.
    func sendGraphQLBatch(
        _ operation: GraphQLOperation, variables: [JSON.Member], options: BatchOptions
    ) async throws -> CommandResult {
        let endpoint = try currentGraphQLEndpoint()
        return try await sendBatch(
            Self.graphQLDraft(endpoint.path, body: operation.body(variables: variables)), options: options,
            graphQL: operation)
    }

    /// A POST of a GraphQL request body (`{"query", "variables", "operationName"}`) to `path`.
    private static func graphQLDraft(_ path: String, body: JSON) -> Draft {
        var draft = Draft()
        draft.method = .post
        draft.target = path
        draft.apply(.set(name: "Content-Type", value: "application/json"))
        // GraphQL over HTTP: the new media type first, JSON for servers that predate it.
        draft.apply(.set(name: "Accept", value: "application/graphql-response+json, application/json;q=0.9"))
        draft.body = .raw(body.formatted(.compactText).trimmingCharacters(in: .newlines))
        return draft
    }

    /// A schema of SDL up to this size is built whole before `graphql` answers, so one that is not
    /// valid is that line's error; a larger one (GitHub's is 1.5 MB) is indexed — `ls`, `describe`,
    /// Tab and the response checks work at once — and built off the line, where validation
    /// finds it (or waits for it) and a schema that is not valid says so in each check.
    static let graphQLBuildOnTheLine = 256 << 10

    /// A schema, built now or off the line by its size (``graphQLBuildOnTheLine``).
    private static func graphQLDescription(
        _ make: (Bool) throws(GraphQLSchemaError) -> GraphQLDescription, size: Int
    ) throws(GraphQLSchemaError) -> GraphQLDescription {
        let description = try make(size > graphQLBuildOnTheLine)
        if size > graphQLBuildOnTheLine {
            Task.detached(priority: .utility) { try? description.build() }
        }
        return description
    }

    /// The schema of the endpoint `path` on the current API: from `file` (SDL, or a saved
    /// introspection result when it ends in `.json`), else by the introspection query sent to
    /// the endpoint with the API's credentials.
    func loadGraphQLSchema(endpoint path: String, file: String?) async throws -> LoadedGraphQLSchema {
        if let file {
            let resolved = resolvePath(file)
            let data = try BoundedFile.read(resolved, limit: BoundedFile.schema, what: "a GraphQL schema")
            do {
                if file.lowercased().hasSuffix(".json") {
                    let json: JSON
                    do {
                        json = try JSON(parsing: data)
                    } catch {
                        throw CommandError(.file, "'\(file)' is not JSON: \(error.summary)")
                    }
                    let description = try Self.graphQLDescription(
                        { deferring throws(GraphQLSchemaError) in
                            try GraphQLDescription(introspection: json, deferringBuild: deferring)
                        }, size: data.count)
                    return LoadedGraphQLSchema(description: description, source: file)
                }
                let sdl = String(decoding: data, as: UTF8.self)
                let description = try Self.graphQLDescription(
                    { deferring throws(GraphQLSchemaError) in
                        try GraphQLDescription(sdl: sdl, deferringBuild: deferring)
                    },
                    size: data.count)
                return LoadedGraphQLSchema(description: description, source: file)
            } catch let error as GraphQLSchemaError {
                throw CommandError(.file, "'\(file)' is not a GraphQL schema: \(error.description)")
            }
        }
        var refusal: String?
        for query in GraphQLDescription.introspectionQueries {
            let body = JSON.object([JSON.Member(key: "query", value: .string(query))])
            // The introspection query only reads.
            let outgoing = try Self.$writeAllowed.withValue(true) { try prepare(Self.graphQLDraft(path, body: body)) }
            let response = try await client(for: outgoing.scope).send(outgoing.request)
            let url = redactor.redact(outgoing.request.url)
            guard let json = try? JSON(parsing: response.body) else {
                throw CommandError(
                    .network,
                    "\(url) answered the introspection query with \(response.status.code) \(response.status.reasonPhrase), not JSON",
                    hint:
                        "is \(path) the GraphQL endpoint? `graphql PATH` names another; `graphql --schema FILE` loads a schema from a file"
                )
            }
            if json["data"]?["__schema"] != nil {
                do {
                    let description = try Self.graphQLDescription(
                        { deferring throws(GraphQLSchemaError) in
                            try GraphQLDescription(introspection: json, deferringBuild: deferring)
                        }, size: response.body.count)
                    return LoadedGraphQLSchema(description: description, source: url)
                } catch {
                    throw CommandError(
                        .network,
                        "\(url) answered the introspection query with a schema Fathom cannot build: \(error.description)"
                    )
                }
            }
            // Refused: a server that predates part of the query is asked the older form.
            refusal = GraphQLResponseError.errors(in: json).first?.message ?? "no schema in the answer"
        }
        throw CommandError(
            .network,
            "\(url(of: path)) did not answer the introspection query (introspection may be disabled): \(refusal ?? "")",
            hint: "load the schema from a file: `graphql --schema FILE` (SDL, or a saved introspection result)")
    }

    private func url(of path: String) -> String {
        guard let base = baseURL(), !path.contains("://") else { return path }
        return base + path
    }

    // MARK: - Checks

    /// The operation's problems by its API's schema: warnings to show, or (with `validate
    /// strict`) the reason it is not sent.
    func graphQLProblems(_ operation: GraphQLOperation, in scope: Scope) throws -> [String] {
        guard scope.graphQLValidation != .off, let schema = scope.graphQL?.schema else { return [] }
        let problems = schema.description.validate(operation).map(\.description)
        if scope.graphQLValidation == .strict, !problems.isEmpty { throw CommandError.notSent(problems) }
        return problems
    }

    /// A GraphQL response checked against the types its operation selects, when its API has a
    /// schema and checks are on (or `expect schema` asks).
    func graphQLCheck(
        for entry: ResponseHistory.Entry, _ operation: GraphQLOperation, evenWhenOff: Bool, sent: Scope?
    ) -> SchemaCheck? {
        let scope = scope(of: entry.response.request.url, sent: sent)
        guard let schema = scope.graphQL?.schema, scope.graphQLValidation != .off || evenWhenOff else { return nil }
        let title = operation.kind.rawValue + (operation.operationName.map { " " + $0 } ?? "")
        if operation.kind == .subscription, let stream = entry.stream {
            // Each result the subscription kept, at its place in the array of results (over
            // server-sent events, a `next` event's data; `complete` carries none).
            let violations = stream.events.enumerated().flatMap { index, event -> [SchemaViolation] in
                guard event.type == nil || event.type == "next" else { return [] }
                let result = (try? JSON(parsing: event.data)) ?? .string(event.data)
                let place = stream.format == .serverSentEvents ? "$[\(index)].data" : "$[\(index)]"
                return
                    schema.description.check(result, for: operation).map {
                        SchemaViolation(path: place + $0.path.dropFirst(), message: $0.message)
                    }
            }
            return SchemaCheck(operation: title, violations: violations)
        }
        guard let json = try? json(of: entry) else {
            return SchemaCheck(
                operation: title,
                violations: [
                    SchemaViolation(
                        path: "$",
                        message:
                            "expected a GraphQL response (JSON), got \(entry.response.contentType ?? "no Content-Type")"
                    )
                ])
        }
        let violations = schema.description.check(json, for: operation).map {
            SchemaViolation(path: $0.path, message: $0.message)
        }
        return SchemaCheck(operation: title, violations: violations)
    }

    /// How each result of a subscription over server-sent events is checked as it arrives: a
    /// `next` event's data against the selection's types.
    func graphQLItemCheck(_ operation: GraphQLOperation, in scope: Scope) -> StreamReader.ItemCheck? {
        guard operation.kind == .subscription, scope.graphQLValidation != .off, let schema = scope.graphQL?.schema
        else { return nil }
        let description = schema.description
        return { _, _ in
            { item in
                guard item["event"] == .string("next"), case .string(let text)? = item["data"],
                    let result = try? JSON(parsing: text)
                else { return [] }
                return description.check(result, for: operation).map {
                    SchemaViolation(path: "$.data" + $0.path.dropFirst(), message: $0.message)
                }
            }
        }
    }

    /// A subscription over server-sent events (GraphQL over SSE, its distinct connections
    /// mode): the operation POSTed asking for `text/event-stream`, its `next` events read as any
    /// stream's, live. What a server whose WebSocket refuses the subscription is asked next.
    /// `refused`: why the WebSocket did not open; when server-sent events do not come either,
    /// both answers are the error.
    func subscribeOverServerSentEvents(
        _ operation: GraphQLOperation, variables: [JSON.Member], after refused: NetworkError
    ) async throws -> CommandResult {
        let endpoint = try currentGraphQLEndpoint()
        var draft = Self.graphQLDraft(endpoint.path, body: operation.body(variables: variables))
        draft.apply(.set(name: "Accept", value: "text/event-stream"))
        var outgoing = try prepare(draft)
        outgoing.graphQL = operation
        let result = try await send(outgoing)
        let streamed = result.outputs.contains { output in
            if case .response(let response) = output { return response.stream?.format == .serverSentEvents }
            return false
        }
        guard streamed else {
            throw CommandError(
                .network,
                .stated(
                    "the subscription found no way in: neither a WebSocket (graphql-transport-ws, graphql-ws: \(refused)) nor server-sent events (\(endpoint.path) answered no text/event-stream)"
                ))
        }
        return result
    }

    /// The errors a GraphQL response carries, to show under it.
    func graphQLErrors(of entry: ResponseHistory.Entry) -> [GraphQLResponseError]? {
        guard entry.graphQL != nil, let json = try? json(of: entry) else { return nil }
        return GraphQLResponseError.errors(in: json)
    }
}
