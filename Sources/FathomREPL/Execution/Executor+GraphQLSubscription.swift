import FathomGraphQL
@_spi(Fathom) import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation
import Synchronization

/// A GraphQL subscription: a WebSocket to the API's endpoint (the upgrade scoped as a `GET` of it,
/// so the API's credentials, defaults and cookies go with it), speaking whichever of the two
/// protocols the server accepts. Each result prints as it arrives, as a stream's events do; the
/// subscription ends when the server completes it, at `stream limit` results, after the
/// `timeout` with none, or at Ctrl-C — each sends `complete` (`stop`) and keeps what arrived.
/// What arrived is kept as a streamed response: its results as NDJSON, one per line, so
/// `inspect`, `let`, `expect events`, `expect event`, `diff`, save and replay read it as a stream.
extension Executor {
    /// How long a subscription waits for the server's answer to `connection_init`, and for its
    /// next result without a `timeout` set.
    static let subscriptionWait = Duration.seconds(30)

    func subscribe(_ operation: GraphQLOperation, variables: [JSON.Member]) async throws -> CommandResult {
        let endpoint = try currentGraphQLEndpoint()
        var draft = Draft()
        draft.target = endpoint.path
        var outgoing = try prepare(draft)
        outgoing.graphQL = operation
        let problems = try graphQLProblems(operation, in: outgoing.scope)
        let settings = session.settings
        let client = try await client(for: outgoing.scope)
        var headers = NetworkHeaders()
        headers.add(NetworkHeaders.Name("Sec-WebSocket-Protocol"), GraphQLOverWebSocket.offered)
        let configuration = WebSocketConnection.Configuration(
            headers: headers, verifyCertificates: !settings.insecure,
            proxy: try proxySettings().proxy(for: outgoing.request.url),
            connectTimeout: options.connectTimeout ?? settings.timeout ?? .seconds(10))
        let started = ContinuousClock.now
        let opened: Result<WebSocketConnection, NetworkError>
        do {
            opened = .success(
                try await client.webSocket(
                    outgoing.request, configuration: configuration, cookies: settings.cookies ? cookieJar : nil))
        } catch {
            opened = .failure(error)
        }
        let connection: WebSocketConnection
        switch opened {
        case .success(let open):
            connection = open
        case .failure(let refused):
            if GraphQLSubscriptionConversation.isUnreachable(refused) { throw refused }
            return try await subscribeOverServerSentEvents(operation, variables: variables, after: refused)
        }
        guard let chosen = connection.subprotocol.flatMap({ GraphQLOverWebSocket(rawValue: $0.lowercased()) }) else {
            // The WebSocket opened, speaking neither protocol: server-sent events may be the way.
            _ = await connection.close(code: 1002, reason: "no GraphQL subprotocol")
            return try await subscribeOverServerSentEvents(
                operation, variables: variables,
                after: .transport("the server accepted the WebSocket with neither subprotocol"))
        }
        let wait = settings.timeout ?? Self.subscriptionWait
        let results = Mutex<[String]>([])
        let firstResult = Mutex<ContinuousClock.Instant?>(nil)
        let live = feeds.live
        let showHeaders = settings.showHeaders
        let limit = settings.streamLimit
        let check = graphQLEventCheck(operation, in: outgoing.scope)
        var responseHeaders = NetworkHeaders()
        responseHeaders.add(NetworkHeaders.Name("Sec-WebSocket-Protocol"), chosen.rawValue)
        let shownHeaders = responseHeaders
        let ending: StreamWatch.Ending = try await withTaskCancellationHandler {
            try await GraphQLSubscriptionConversation.converse(
                connection, chosen, body: operation.body(variables: variables), wait: wait, limit: limit
            ) { payload in
                let text = payload.formatted(.compactText).trimmingCharacters(in: .newlines)
                firstResult.withLock { $0 = $0 ?? .now }
                let index = results.withLock { kept in
                    kept.append(text)
                    return kept.count
                }
                if index == 1 {
                    live.send(
                        .streamHead(
                            StreamHead(
                                status: HTTPStatus(code: 101), headers: shownHeaders, format: .jsonLines,
                                showHeaders: showHeaders)))
                }
                live.send(
                    .streamEvent(
                        StreamEventOutput(
                            index: index, event: StreamEvent(data: text), format: .jsonLines,
                            elapsed: ContinuousClock.now - started, violations: check?(payload))))
            }
        } onCancel: {
            // Ctrl-C: the subscription is stopped as the protocol says, then the connection closed.
            Task {
                try? await connection.send(
                    .text(
                        chosen.stop(id: GraphQLSubscriptionConversation.id).formatted(.compactText).trimmingCharacters(
                            in: .newlines)))
                _ = await connection.close(code: 1000, reason: "cancelled")
            }
        }
        // The kept results, as the stream of NDJSON a subscription is read as.
        let lines = results.withLock { $0 }
        responseHeaders.add(.contentType, "application/x-ndjson")
        let elapsed = ContinuousClock.now - started
        let response = NetworkResponse(
            status: HTTPStatus(code: 101), headers: responseHeaders,
            body: Data(lines.map { $0 + "\n" }.joined().utf8), request: outgoing.request,
            timing: ResponseTiming(
                firstByte: firstResult.withLock { $0 }.map { $0 - started } ?? elapsed, total: elapsed))
        let number = record.responses.append(response, graphQL: operation)
        let entry = try record.responses.entry(number)
        var output = responseOutput(entry, sent: outgoing.scope)
        output.target = outgoing.target
        output.stream = StreamSummary(
            format: .jsonLines, events: lines.count, ending: ending, shownLive: live.isListening)
        return CommandResult(.succeeded, problems.map { Output.event(.requestWarning($0)) } + [.response(output)])
    }

    /// How each result of a subscription is checked against the selection's types, as it arrives.
    private func graphQLEventCheck(
        _ operation: GraphQLOperation, in scope: Scope
    ) -> (
        @Sendable (JSON) -> [SchemaViolation]
    )? {
        guard scope.graphQLValidation != .off, let schema = scope.graphQL?.schema else { return nil }
        let description = schema.description
        return { payload in
            description.check(payload, for: operation).map { SchemaViolation(path: $0.path, message: $0.message) }
        }
    }
}
