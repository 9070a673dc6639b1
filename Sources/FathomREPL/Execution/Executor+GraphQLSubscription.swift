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
    /// The one subscription a connection carries.
    static let subscriptionID = "1"

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
            if Self.isUnreachable(refused) { throw refused }
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
            try await Self.converse(
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
                        chosen.stop(id: Self.subscriptionID).formatted(.compactText).trimmingCharacters(in: .newlines)))
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

    /// The conversation: `connection_init`, its acknowledgement, the subscription, its results
    /// (each to `result`), until it completes or is stopped; then the WebSocket is closed.
    private static func converse(
        _ connection: WebSocketConnection, _ chosen: GraphQLOverWebSocket, body: JSON, wait: Duration, limit: Int?,
        result: @escaping @Sendable (JSON) -> Void
    ) async throws -> StreamWatch.Ending {
        func send(_ message: JSON) async throws {
            try await connection.send(.text(message.formatted(.compactText).trimmingCharacters(in: .newlines)))
        }
        try await send(chosen.connectionInit)
        let id = subscriptionID
        var acknowledged = false
        var count = 0
        var ending: StreamWatch.Ending = .complete
        var failure: CommandError?
        // A timer closes the connection when nothing came for `wait`: every wait has a bound.
        let lastActivity = Mutex(ContinuousClock.now)
        let timedOut = Mutex(false)
        let watchdog = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(200))
                if ContinuousClock.now - lastActivity.withLock({ $0 }) > wait {
                    timedOut.withLock { $0 = true }
                    _ = await connection.close(code: 1000, reason: "no result for \(wait)")
                    return
                }
            }
        }
        defer { watchdog.cancel() }
        reading: for await event in connection.events {
            lastActivity.withLock { $0 = .now }
            guard case .message(let message, _) = event else {
                if case .closed = event { break reading }
                continue
            }
            guard case .text(let text) = message else { continue }
            switch chosen.read(text) {
            case .acknowledged:
                guard !acknowledged else { continue }
                acknowledged = true
                try await send(chosen.subscribe(id: id, body: body))
            case .next(_, let payload):
                count += 1
                result(payload)
                if let limit, count >= limit {
                    ending = .stopped
                    try? await send(chosen.stop(id: id))
                    break reading
                }
            case .error(_, let payload):
                let errors = GraphQLResponseError.errors(in: .object([.init(key: "errors", value: Self.list(payload))]))
                failure = CommandError(
                    .network, .stated("the subscription failed: " + errors.map(\.message).joined(separator: "; ")))
                break reading
            case .complete:
                break reading
            case .ping:
                try? await send(chosen.pong)
            case .keepAlive, .unknown:
                continue
            }
        }
        if Task.isCancelled { ending = .cancelled } else if timedOut.withLock({ $0 }) { ending = .timedOut }
        _ = await connection.close(code: 1000)
        if let failure { throw failure }
        if !acknowledged, ending != .cancelled {
            throw CommandError(
                .network, "the server did not acknowledge connection_init (\(chosen.rawValue)) within \(wait)")
        }
        return ending
    }

    /// Whether the WebSocket failed because the server cannot be reached at all (then server-sent
    /// events cannot reach it either).
    private static func isUnreachable(_ error: NetworkError) -> Bool {
        switch error {
        case .connectionRefused, .timeout, .dnsFailure, .cancelled: true
        default: false
        }
    }

    /// An error payload as a list of errors (`graphql-ws` sends one object).
    private static func list(_ payload: JSON) -> JSON {
        if case .array = payload { return payload }
        return .array([payload])
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
