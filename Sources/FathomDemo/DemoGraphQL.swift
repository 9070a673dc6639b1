import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The demo's GraphQL endpoint, `/graphql`, over the same users and to-dos as the REST routes:
/// queries with arguments, a mutation that needs the login's token, a field that always fails
/// (an `errors` entry beside the data), and a nullable field nobody has set. Executed by
/// GraphQLSwift; its schema is answered by introspection like any server's.
enum DemoGraphQL {
    /// What each resolver reads: the store, and whether the request carried a valid token.
    struct Context: Sendable {
        let store: DemoStore
        let authorized: Bool
    }

    static let schema: GraphQLSchema = {
        do {
            return try makeSchema()
        } catch {
            preconditionFailure("the demo's GraphQL schema is invalid: \(error)")
        }
    }()

    private static func makeSchema() throws -> GraphQLSchema {
        let role = try GraphQLEnumType(
            name: "Role", description: "What a user may do.",
            values: [
                "ADMIN": GraphQLEnumValue(value: .string("ADMIN")),
                "MEMBER": GraphQLEnumValue(value: .string("MEMBER")),
            ])
        // Todo and User name each other: the fields are given as closures, read once the schema is built.
        var userType: GraphQLObjectType?
        let todo = try GraphQLObjectType(
            name: "Todo", description: "A to-do of one user.",
            fields: {
                [
                    "id": GraphQLField(type: GraphQLNonNull(GraphQLID)) { source, _, _, _ in
                        (source as? DemoTodo).map { String($0.id) }
                    },
                    "title": GraphQLField(type: GraphQLNonNull(GraphQLString)) { source, _, _, _ in
                        (source as? DemoTodo)?.title
                    },
                    "done": GraphQLField(type: GraphQLNonNull(GraphQLBoolean)) { source, _, _, _ in
                        (source as? DemoTodo)?.done
                    },
                    "user": GraphQLField(type: userType!) { source, _, context, _ in
                        guard let todo = source as? DemoTodo, let context = context as? Context else { return nil }
                        return await context.store.user(todo.userId)
                    },
                ]
            })
        let user = try GraphQLObjectType(
            name: "User", description: "A person with to-dos.",
            fields: [
                "id": GraphQLField(type: GraphQLNonNull(GraphQLID)) { source, _, _, _ in
                    (source as? DemoUser).map { String($0.id) }
                },
                "name": GraphQLField(type: GraphQLNonNull(GraphQLString)) { source, _, _, _ in
                    (source as? DemoUser)?.name
                },
                "email": GraphQLField(type: GraphQLNonNull(GraphQLString)) { source, _, _, _ in
                    (source as? DemoUser)?.email
                },
                // The store's roles are the REST API's words (`admin`); the enum's values are names.
                "role": GraphQLField(type: GraphQLNonNull(role)) { source, _, _, _ in
                    (source as? DemoUser)?.role.uppercased()
                },
                "active": GraphQLField(type: GraphQLNonNull(GraphQLBoolean)) { source, _, _, _ in
                    (source as? DemoUser)?.active
                },
                "nickname": GraphQLField(type: GraphQLString, description: "Nobody has one yet: always null.") {
                    _, _, _, _ in nil
                },
                "todos": GraphQLField(
                    type: GraphQLNonNull(GraphQLList(GraphQLNonNull(todo))),
                    args: [
                        "done": GraphQLArgument(type: GraphQLBoolean, description: "only the done ones, or the open")
                    ]
                ) { source, args, context, _ in
                    guard let user = source as? DemoUser, let context = context as? Context else { return nil }
                    let done = args["done"].bool
                    return await context.store.todos(of: user.id).filter { done == nil || $0.done == done }
                },
                "secret": GraphQLField(type: GraphQLString, description: "Always fails: the error path.") {
                    source, _, _, _ in
                    throw DemoGraphQLError(
                        message: "not allowed to read the secret of user \((source as? DemoUser)?.id ?? 0)")
                },
            ])
        userType = user
        let query = try GraphQLObjectType(
            name: "Query",
            fields: [
                "user": GraphQLField(type: user, args: ["id": GraphQLArgument(type: GraphQLNonNull(GraphQLID))]) {
                    _, args, context, _ in
                    guard let context = context as? Context, let id = Int(args["id"].string ?? "") else { return nil }
                    return await context.store.user(id)
                },
                "users": GraphQLField(
                    type: GraphQLNonNull(GraphQLList(GraphQLNonNull(user))), args: ["role": GraphQLArgument(type: role)]
                ) { _, args, context, _ in
                    guard let context = context as? Context else { return nil }
                    let role = args["role"].string?.lowercased()
                    return await context.store.users.filter { role == nil || $0.role == role }
                },
            ])
        let mutation = try GraphQLObjectType(
            name: "Mutation",
            fields: [
                "addTodo": GraphQLField(
                    type: GraphQLNonNull(todo),
                    description: "Adds a to-do; needs Authorization: Bearer <token> from POST /login.",
                    args: [
                        "userId": GraphQLArgument(type: GraphQLNonNull(GraphQLID)),
                        "title": GraphQLArgument(type: GraphQLNonNull(GraphQLString)),
                    ]
                ) { _, args, context, _ in
                    guard let context = context as? Context, context.authorized else {
                        throw DemoGraphQLError(message: "addTodo needs Authorization: Bearer <token> (POST /login)")
                    }
                    guard let id = Int(args["userId"].string ?? ""), await context.store.user(id) != nil else {
                        throw DemoGraphQLError(message: "no user with id \(args["userId"].string ?? "")")
                    }
                    return await context.store.addTodo(userID: id, title: args["title"].string ?? "")
                }
            ])
        let subscription = try GraphQLObjectType(
            name: "Subscription",
            fields: [
                "ticks": GraphQLField(
                    type: GraphQLNonNull(GraphQLInt), description: "Counts from 1 to `count`, one every `ms` ms.",
                    args: [
                        "count": GraphQLArgument(type: GraphQLInt, defaultValue: .number(3)),
                        "ms": GraphQLArgument(type: GraphQLInt, defaultValue: .number(100)),
                    ],
                    resolve: { source, _, _, _ in source },
                    subscribe: { _, args, _, _ in
                        let count = min(100_000, max(0, args["count"].int ?? 3))
                        let ms = min(60_000, max(0, args["ms"].int ?? 100))
                        return AsyncThrowingStream<Int, any Error> { continuation in
                            let task = Task {
                                for n in 1...max(1, count) where count > 0 {
                                    try await Task.sleep(for: .milliseconds(ms))
                                    continuation.yield(n)
                                }
                                continuation.finish()
                            }
                            continuation.onTermination = { _ in task.cancel() }
                        }
                    })
            ])
        return try GraphQLSchema(query: query, mutation: mutation, subscription: subscription)
    }

    /// `POST /graphql` (`{"query", "variables", "operationName"}`) and `GET /graphql?query=…`.
    static func addRoutes(_ router: Router<BasicRequestContext>, store: DemoStore) {
        router.post("/graphql") { request, _ -> Response in
            guard let body = try? await request.body.collect(upTo: 1 << 20),
                let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(buffer: body))
            else {
                return DemoResponse.problem(
                    400, title: "Bad Request", detail: "a GraphQL request is JSON: {\"query\": …, \"variables\": {…}}")
            }
            return await execute(envelope, request: request, store: store)
        }
        router.get("/graphql") { request, _ -> Response in
            guard let query = request.uri.queryParameters["query"] else {
                return DemoResponse.problem(400, title: "Bad Request", detail: "GET /graphql?query={ users { name } }")
            }
            let envelope = Envelope(query: String(query), variables: nil, operationName: nil)
            return await execute(envelope, request: request, store: store)
        }
    }

    /// A subscription over `graphql-transport-ws`: `connection_init` is acknowledged, each
    /// `subscribe` runs until its stream ends (`complete`) or the client's `complete` stops it,
    /// a `ping` is answered.
    static func serveSubscriptions(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, store: DemoStore, authorized: Bool
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running: [String: Task<Void, Never>] = [:]
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message,
                    let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                    let type = object["type"] as? String
                else { continue }
                let id = object["id"] as? String ?? ""
                switch type {
                case "connection_init":
                    try await outbound.write(.text(#"{"type":"connection_ack"}"#))
                case "ping":
                    try await outbound.write(.text(#"{"type":"pong"}"#))
                case "complete":
                    running.removeValue(forKey: id)?.cancel()
                case "subscribe":
                    let payload = object["payload"] as? [String: Any] ?? [:]
                    let query = payload["query"] as? String ?? ""
                    let variables =
                        (try? JSONSerialization.data(withJSONObject: payload["variables"] ?? [:]))
                        .flatMap { try? JSONDecoder().decode([String: Map].self, from: $0) } ?? [:]
                    let operationName = payload["operationName"] as? String
                    let context = Context(store: store, authorized: authorized)
                    running[id] = Task {
                        await stream(
                            query: query, variables: variables, operationName: operationName, id: id, context: context,
                            outbound: outbound)
                    }
                default:
                    continue
                }
            }
            for task in running.values { task.cancel() }
            group.cancelAll()
        }
    }

    /// Runs one subscription and writes its results, then `complete` (or its `error`).
    private static func stream(
        query: String, variables: [String: Map], operationName: String?, id: String, context: Context,
        outbound: WebSocketOutboundWriter
    ) async {
        func write(_ type: String, _ payload: Data?) async {
            var text = #"{"id":"# + DemoJSON.serialize(id) + #","type":"# + DemoJSON.serialize(type)
            if let payload { text += #","payload":"# + String(decoding: payload, as: UTF8.self) }
            try? await outbound.write(.text(text + "}"))
        }
        do {
            let result = try await graphqlSubscribe(
                schema: schema, request: query, context: context, variableValues: variables,
                operationName: operationName)
            switch result {
            case .success(let results):
                for try await next in results {
                    await write("next", try JSONEncoder().encode(next))
                }
                await write("complete", nil)
            case .failure(let errors):
                await write("error", try JSONEncoder().encode(errors.errors))
            }
        } catch {
            await write("error", try? JSONEncoder().encode([GraphQLError(message: "\(error)")]))
        }
    }

    struct Envelope: Decodable {
        var query: String
        var variables: [String: Map]?
        var operationName: String?
    }

    private static func execute(_ envelope: Envelope, request: Request, store: DemoStore) async -> Response {
        var authorized = false
        if let token = DemoAPI.bearerToken(request) { authorized = await store.isValid(token) }
        let result: GraphQLResult
        do {
            result = try await graphql(
                schema: schema, request: envelope.query, context: Context(store: store, authorized: authorized),
                variableValues: envelope.variables ?? [:], operationName: envelope.operationName)
        } catch let error as GraphQLError {
            result = GraphQLResult(errors: [error])
        } catch {
            result = GraphQLResult(errors: [GraphQLError(message: "\(error)")])
        }
        let data = (try? JSONEncoder().encode(result)) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data)))
    }
}

/// An error a resolver throws: its message is what the response's `errors` entry says.
struct DemoGraphQLError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
