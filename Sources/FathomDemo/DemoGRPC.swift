import FathomGRPC
@_spi(Fathom) import FathomJSON
@_spi(Fathom) import FathomProtobuf
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2

/// The demo's gRPC service (`Protos/todos.proto`): the HTTP API's users and todos over gRPC —
/// a unary call with a rich error, a server stream, a client stream and a bidirectional one — with
/// server reflection (v1 and v1alpha), in plaintext (h2c) on 127.0.0.1.
public final class DemoGRPCServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let server: GRPCServer<HTTP2ServerTransport.Posix>
    private let task: Task<Void, any Error>

    /// `127.0.0.1:PORT`, as `grpc` takes it.
    public var target: String { "127.0.0.1:\(port)" }

    private init(port: Int, server: GRPCServer<HTTP2ServerTransport.Posix>, task: Task<Void, any Error>) {
        self.port = port
        self.server = server
        self.task = task
    }

    /// Starts serving `store`'s users and todos; returns once it listens.
    static func start(store: DemoStore, port: Int = 0) async throws -> DemoGRPCServer {
        let descriptors = try DemoTodosService.descriptors()
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: "127.0.0.1", port: port), transportSecurity: .plaintext)
        let server = GRPCServer(
            transport: transport,
            services: [
                DemoTodosService(store: store, pool: try DescriptorPool(fileDescriptorSet: descriptors)),
                try ReflectionService(fileDescriptorSet: descriptors, services: [DemoTodosService.name]),
            ])
        let task = Task { try await server.serve() }
        guard let address = try await transport.listeningAddress.ipv4 else {
            server.beginGracefulShutdown()
            throw LoopbackServer.ServerError.didNotStart
        }
        return DemoGRPCServer(port: address.port, server: server, task: task)
    }

    /// Stops serving once the calls in flight are done.
    public func stop() async {
        server.beginGracefulShutdown()
        _ = try? await task.value
    }
}

/// `fathom.demo.v1.Todos`, its messages read and written as JSON by the compiled descriptors.
struct DemoTodosService: RegistrableRPCService {
    static let name = "fathom.demo.v1.Todos"
    /// How far apart a server stream's messages go, so they are seen arriving.
    static let streamGap = Duration.milliseconds(50)

    let store: DemoStore
    let pool: DescriptorPool

    /// The compiled `todos.proto` (with `google/protobuf/timestamp.proto`), a serialized FileDescriptorSet.
    static func descriptors() throws -> [UInt8] {
        guard let data = Data(base64Encoded: DemoGRPCDescriptors.base64) else {
            throw LoopbackServer.ServerError.didNotStart
        }
        return [UInt8](data)
    }

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        register("GetUser", with: &router) { requests, writer in
            guard let request = try await Self.first(of: requests) else { return }
            let id = request["id"]?.intValue ?? 0
            guard let user = await store.user(id) else {
                let message = "no user has id \(id)"
                let details = try GRPCStatusDetails.bytes(
                    .object([
                        JSON.Member(key: "code", value: .number("5")),
                        JSON.Member(key: "message", value: .string(message)),
                        JSON.Member(
                            key: "details",
                            value: .array([
                                .object([
                                    JSON.Member(
                                        key: "@type", value: .string("type.googleapis.com/google.rpc.BadRequest")),
                                    JSON.Member(
                                        key: "fieldViolations",
                                        value: .array([
                                            .object([
                                                JSON.Member(key: "field", value: .string("id")),
                                                JSON.Member(
                                                    key: "description", value: .string("users are numbered 1 and up")),
                                            ])
                                        ])),
                                ])
                            ])),
                    ]))
                var metadata = Metadata()
                metadata.addBinary(details, forKey: "grpc-status-details-bin")
                throw RPCError(code: .notFound, message: message, metadata: metadata)
            }
            try await writer(Self.json(user))
        }
        register("ListTodos", with: &router) { requests, writer in
            guard let request = try await Self.first(of: requests) else { return }
            let userID = request["userId"]?.intValue ?? 0
            guard await store.user(userID) != nil else {
                throw RPCError(code: .notFound, message: "no user has id \(userID)")
            }
            var todos = await store.todos(of: userID)
            if case .bool(let done)? = request["done"] { todos = todos.filter { $0.done == done } }
            for (index, todo) in todos.enumerated() {
                if index > 0 { try await Task.sleep(for: Self.streamGap) }
                try await writer(Self.json(todo))
            }
        }
        register("AddTodos", with: &router) { requests, writer in
            var added: [JSON] = []
            for try await request in requests {
                let userID = request["userId"]?.intValue ?? 0
                guard await store.user(userID) != nil else {
                    throw RPCError(code: .invalidArgument, message: "todo \(added.count + 1): no user has id \(userID)")
                }
                guard case .string(let title)? = request["title"], !title.isEmpty else {
                    throw RPCError(code: .invalidArgument, message: "todo \(added.count + 1) has no title")
                }
                added.append(Self.json(await store.addTodo(userID: userID, title: title)))
            }
            try await writer(
                .object([
                    JSON.Member(key: "added", value: .number(String(added.count))),
                    JSON.Member(key: "todos", value: .array(added)),
                ]))
        }
        register("Chat", with: &router) { requests, writer in
            for try await request in requests {
                var members: [JSON.Member] = []
                if case .string(let text)? = request["text"] {
                    members.append(JSON.Member(key: "text", value: .string(text.uppercased())))
                }
                if let labels = request["labels"] { members.append(JSON.Member(key: "labels", value: labels)) }
                try await writer(.object(members))
            }
        }
    }

    /// Registers `method`: its requests come decoded as JSON, what `handle` writes goes encoded.
    private func register<Transport: ServerTransport>(
        _ method: String, with router: inout RPCRouter<Transport>,
        _ handle:
            @escaping @Sendable (
                _ requests: AsyncThrowingMapSequence<RPCAsyncSequence<[UInt8], any Error>, JSON>,
                _ write: @escaping @Sendable (JSON) async throws -> Void
            ) async throws -> Void
    ) {
        guard let service = pool.service(named: Self.name), let descriptor = service.method(named: method) else {
            return
        }
        let pool = self.pool
        router.registerHandler(
            forMethod: GRPCCore.MethodDescriptor(fullyQualifiedService: Self.name, method: method),
            deserializer: RawDeserializer(), serializer: RawSerializer()
        ) { request, _ in
            StreamingServerResponse { writer in
                let requests = request.messages.map { bytes throws -> JSON in
                    do throws(ProtobufError) {
                        return try ProtoJSON(pool: pool).json(
                            WireDecoder(pool: pool).decode(bytes, as: descriptor.input))
                    } catch {
                        throw RPCError(code: .invalidArgument, message: error.message)
                    }
                }
                try await handle(requests) { json in
                    let message = try ProtoJSON(pool: pool).message(from: json, as: descriptor.output)
                    try await writer.write(WireEncoder(pool: pool).encode(message))
                }
                return [:]
            }
        }
    }

    /// A unary or server-streaming call's one request.
    private static func first<Requests: AsyncSequence>(of requests: Requests) async throws -> JSON?
    where Requests.Element == JSON {
        for try await request in requests { return request }
        return nil
    }

    static func json(_ user: DemoUser) -> JSON {
        .object([
            JSON.Member(key: "id", value: .number(String(user.id))),
            JSON.Member(key: "name", value: .string(user.name)),
            JSON.Member(key: "email", value: .string(user.email)),
            JSON.Member(key: "role", value: .string(user.role.uppercased())),
            JSON.Member(key: "active", value: .bool(user.active)),
        ])
    }

    static func json(_ todo: DemoTodo) -> JSON {
        var members = [
            JSON.Member(key: "id", value: .number(String(todo.id))),
            JSON.Member(key: "userId", value: .number(String(todo.userId))),
            JSON.Member(key: "title", value: .string(todo.title)), JSON.Member(key: "done", value: .bool(todo.done)),
        ]
        if let created = todo.createdAt { members.append(JSON.Member(key: "created", value: .string(created))) }
        return .object(members)
    }
}

extension JSON {
    /// A number or a numeric string (proto3 JSON's int64) as an Int.
    fileprivate var intValue: Int? {
        switch self {
        case .number(let text): Int(text)
        case .string(let text): Int(text)
        default: nil
        }
    }
}
