import FathomGRPC
import FathomHTTP
import FathomJSON
import FathomProtobuf
import Foundation
import Testing

/// FathomGRPC against a gRPC server nobody here wrote: Python grpcio with grpcio-reflection
/// (`Tests/Servers/grpc_server.py`, which serves reflection v1alpha only) — reflection falling back
/// from v1, the four kinds of call, metadata both ways, a bearer token, a status with details.
@Suite(.enabled(if: GraphQLServer.python != nil, "needs FATHOM_PYTHON with grpcio: run through `make test`"))
struct GRPCClientTests {
    struct Fixture {
        let server: GRPCServer
        let connection: GRPCConnection
        let reflection: ServerReflection.Result

        init(_ arguments: [String] = [], metadata: GRPCMetadata = GRPCMetadata()) async throws {
            server = try GRPCServer(arguments)
            connection = try GRPCConnection(target: GRPCTarget(host: "127.0.0.1", port: server.port, plaintext: true))
            reflection = try await ServerReflection(connection: connection, metadata: metadata).load()
        }

        func type(_ name: String) throws -> MessageID {
            try #require(reflection.pool.message(named: name))
        }

        func encode(_ json: String, as name: String) throws -> [UInt8] {
            let pool = reflection.pool
            return WireEncoder(pool: pool).encode(
                try ProtoJSON(pool: pool).message(from: JSON(parsing: json), as: type(name)))
        }

        func decode(_ bytes: [UInt8], as name: String) throws -> String {
            let pool = reflection.pool
            return try ProtoJSON(pool: pool).json(WireDecoder(pool: pool).decode(bytes, as: type(name)))
                .formatted(.compactText)
        }
    }

    @Test func reflectionFallsBackToV1alphaAndLinksWhatTheServerSent() async throws {
        let fixture = try await Fixture()
        #expect(fixture.reflection.version == "v1alpha")
        #expect(fixture.reflection.services.contains("fathom.test.Users"))
        let users = try #require(fixture.reflection.pool.service(named: "fathom.test.Users"))
        #expect(
            users.methods.map(\.kind) == ["unary", "server streaming", "client streaming", "bidirectional streaming"])
        // grpcio's reflection serves the descriptors compiled into the Python module, which keep no
        // source information: no comments.
        #expect(users.comment == nil)
        #expect(fixture.reflection.pool.files.contains("google/protobuf/timestamp.proto"))
        await fixture.connection.close()
    }

    @Test func theFourKindsOfCall() async throws {
        let fixture = try await Fixture()
        let unary = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/GetUser"),
            request: try fixture.encode(#"{"id": 1}"#, as: "fathom.test.GetUserRequest"))
        #expect(unary.outcome.status.isOK)
        #expect(
            try fixture.decode(try #require(unary.messages.first), as: "fathom.test.User")
                == #"{"id":"1","displayName":"Ada Lovelace","role":"ADMIN","tags":["math"],"created":"2023-11-14T22:13:20Z","email":"ada@example.com"}"#
                + "\n")

        let listed = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/ListUsers"),
            request: try fixture.encode(#"{"role": "MEMBER"}"#, as: "fathom.test.ListUsersRequest"))
        #expect(listed.outcome.status.isOK)
        #expect(try listed.messages.map { try fixture.decode($0, as: "fathom.test.User") }.count == 2)

        let users = try [#"{"displayName": "a"}"#, #"{"displayName": "b"}"#, #"{"displayName": "c"}"#].map {
            try fixture.encode($0, as: "fathom.test.User")
        }
        let created = Messages()
        let createdOutcome = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/CreateUsers"), requests: Self.stream(users)
        ) { event in if case .message(let bytes) = event { await created.append(bytes) } }
        #expect(createdOutcome.status.isOK)
        #expect(
            try fixture.decode(try #require(await created.all.first), as: "fathom.test.CreateUsersReply")
                == #"{"created":3,"ids":["100","101","102"]}"# + "\n")

        let shouted = Messages()
        let shoutOutcome = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/Shout"), requests: Self.stream(users)
        ) { event in if case .message(let bytes) = event { await shouted.append(bytes) } }
        #expect(shoutOutcome.status.isOK)
        #expect(
            try await shouted.all.map { try fixture.decode($0, as: "fathom.test.User") }
                == [#"{"displayName":"A"}"#, #"{"displayName":"B"}"#, #"{"displayName":"C"}"#].map { $0 + "\n" })
        await fixture.connection.close()
    }

    @Test func metadataGoesBothWaysAndAFailureHasItsStatusAndDetails() async throws {
        let fixture = try await Fixture()
        var metadata = GRPCMetadata()
        metadata.add("x-echo-request", "abc")
        let call = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/GetUser", metadata: metadata),
            request: try fixture.encode(#"{"id": 2}"#, as: "fathom.test.GetUserRequest"))
        #expect(call.outcome.headers["x-echo-request"] == ["abc"])
        #expect(call.outcome.trailers["x-trailer-request"] == ["abc"])

        let missing = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/GetUser"),
            request: try fixture.encode(#"{"id": 9}"#, as: "fathom.test.GetUserRequest"))
        #expect(missing.outcome.status.codeName == "NOT_FOUND")
        #expect(missing.outcome.status.message == "no user has id 9")
        #expect(
            missing.outcome.trailers.bytes("grpc-status-details-bin").count == 1,
            "\(missing.outcome.trailers.entries.map(\.name)) \(missing.outcome.headers.entries.map(\.name))")

        let unknown = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/Nope"), request: [])
        #expect(unknown.outcome.status.codeName == "UNIMPLEMENTED")
        await fixture.connection.close()
    }

    @Test func aBearerTokenIsMetadata() async throws {
        let secret = "grpc-planted-secret-1234"
        var metadata = GRPCMetadata()
        metadata.add("authorization", "Bearer \(secret)")
        let fixture = try await Fixture(["--token", secret], metadata: metadata)
        let request = try fixture.encode(#"{"id": 1}"#, as: "fathom.test.GetUserRequest")
        let without = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/GetUser"), request: request)
        #expect(without.outcome.status == GRPCStatus(code: 16, message: "a bearer token is needed"))
        let with = await fixture.connection.call(
            GRPCConnection.Call(method: "fathom.test.Users/GetUser", metadata: metadata), request: request)
        #expect(with.outcome.status.isOK)
        await fixture.connection.close()
    }

    @Test func aServerThatIsNotThereIsUnavailableAtOnce() async throws {
        let port = try GRPCServer.unusedPort()
        let connection = try GRPCConnection(target: GRPCTarget(host: "127.0.0.1", port: port, plaintext: true))
        let started = ContinuousClock.now
        let call = await connection.call(GRPCConnection.Call(method: "a.B/C", timeout: .seconds(20)), request: [])
        #expect(call.outcome.status.codeName == "UNAVAILABLE")
        #expect(ContinuousClock.now - started < .seconds(10))
        await #expect(throws: GRPCError.self) { try await ServerReflection(connection: connection).load() }
        await connection.close()
    }

    /// Through a NetworkClient: a refreshing authenticator whose first token is refused gets
    /// UNAUTHENTICATED as a 401 and the unary call is made again with a fresh token; a stream
    /// written a message at a time is answered message by message (each answer comes before the
    /// next is written), and is made once — its second try gets the first answer back.
    @Test func throughAClientARefusedTokenIsRenewedAndAStreamIsWrittenAMessageAtATime() async throws {
        let secret = "grpc-stream-secret-5678"
        let fixture = try await Fixture(["--token", secret], metadata: Self.bearer(secret))
        let base = "http://127.0.0.1:\(fixture.server.port)/fathom.test.Users/"
        func client(_ fetched: Counter) -> NetworkClient {
            NetworkClient(interceptors: [
                .authenticator(BearerTokenAuthenticator { await fetched.next() == 1 ? "stale" : secret })
            ])
        }

        let unaryTokens = Counter()
        let unary = try await client(unaryTokens).grpc(
            try NetworkRequest.post(base + "GetUser").prepared(), on: fixture.connection,
            messages: [try fixture.encode(#"{"id": 1}"#, as: "fathom.test.GetUserRequest")])
        #expect(unary.status.isOK, "\(unary.status)")
        #expect(await unaryTokens.count == 2)
        #expect(unary.sent?.headers[.authorization] == "Bearer \(secret)")

        // A token that is good from the start: the stream, a message at a time.
        let streamTokens = Counter()
        _ = await streamTokens.next()
        let (requests, writer) = AsyncStream.makeStream(of: [UInt8].self)
        let (answers, answered) = AsyncStream.makeStream(of: [UInt8].self)
        let (streaming, shout, connection) = (
            client(streamTokens), try NetworkRequest.post(base + "Shout").prepared(), fixture.connection
        )
        let call = Task {
            try await streaming.grpc(shout, on: connection, streaming: requests) { event in
                if case .message(let bytes) = event { answered.yield(bytes) }
            }
        }
        var iterator = answers.makeAsyncIterator()
        for name in ["ada", "grace"] {
            writer.yield(try fixture.encode(#"{"displayName": "\#(name)"}"#, as: "fathom.test.User"))
            let answer = try #require(await iterator.next())
            #expect(
                try fixture.decode(answer, as: "fathom.test.User") == #"{"displayName":"\#(name.uppercased())"}"# + "\n"
            )
        }
        writer.finish()
        #expect(try await call.value.status.isOK)

        // A stale token on a stream: refused, renewed, and not sent again — the messages were.
        let staleTokens = Counter()
        let (once, onceWriter) = AsyncStream.makeStream(of: [UInt8].self)
        onceWriter.yield(try fixture.encode(#"{"displayName": "x"}"#, as: "fathom.test.User"))
        onceWriter.finish()
        let refused = try await client(staleTokens).grpc(
            try NetworkRequest.post(base + "Shout").prepared(), on: fixture.connection, streaming: once)
        #expect(refused.status == GRPCStatus(code: 16, message: "a bearer token is needed"))
        #expect(await staleTokens.count == 2)
        await fixture.connection.close()
    }

    static func bearer(_ token: String) -> GRPCMetadata {
        var metadata = GRPCMetadata()
        metadata.add("authorization", "Bearer \(token)")
        return metadata
    }

    actor Counter {
        private(set) var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    static func stream(_ messages: [[UInt8]]) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            for message in messages { continuation.yield(message) }
            continuation.finish()
        }
    }

    actor Messages {
        var all: [[UInt8]] = []
        func append(_ bytes: [UInt8]) { all.append(bytes) }
    }
}

/// `Tests/Servers/grpc_server.py` in its own process: the port it prints, killed when done.
final class GRPCServer {
    static let script = FathomBinary.packageRoot + "/Tests/Servers/grpc_server.py"
    let server: PythonServer
    var port: Int { server.port }

    init(_ arguments: [String] = []) throws {
        server = try PythonServer(script: Self.script, arguments: arguments)
    }

    /// A port nothing listens on (bound, then closed).
    static func unusedPort() throws -> Int {
        let run = try Program.run([
            "python3", "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])",
        ])
        return Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1
    }
}

/// `.proto` files through protoc (grpcio-tools' here): descriptors with their comments, and what
/// protoc says when it fails as one line.
@Suite(.enabled(if: GraphQLServer.python != nil, "needs FATHOM_PYTHON with grpcio-tools: run through `make test`"))
struct ProtoCompilerTests {
    static var protoc: [String] { [GraphQLServer.python ?? "python3", "-m", "grpc_tools.protoc"] }

    /// grpcio-tools keeps the well-known types' files beside itself.
    static func wellKnownTypes() throws -> String {
        let run = try Program.run([
            GraphQLServer.python ?? "python3", "-c",
            "import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), '_proto'))",
        ])
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aProtoFileCompilesWithItsCommentsAndImports() throws {
        let directory = FathomBinary.packageRoot + "/Tests/Servers/grpc"
        let pool = try ProtoCompiler(command: Self.protoc, importPaths: [directory, try Self.wellKnownTypes()])
            .compile(["users.proto"])
        let users = try #require(pool.service(named: "fathom.test.Users"))
        #expect(users.comment == "Users, every kind of call.")
        #expect(
            users.method(named: "GetUser")?.comment
                == "One user by id; NOT_FOUND with a BadRequest detail when there is none.")
        let user = pool[try #require(pool.message(named: "fathom.test.User"))]
        #expect(user.field(named: "displayName")?.comment == "The name shown to others.")
        #expect(pool.files.contains("google/protobuf/timestamp.proto"))
    }

    @Test func aProtocThatDoesNotFinishIsStopped() {
        let hanging = ProtoCompiler(command: ["sh", "-c", "exec sleep 30", "protoc"], timeout: .milliseconds(300))
        let started = ContinuousClock.now
        #expect(throws: ProtobufError("sh did not finish within 0.3 seconds")) { try hanging.compile(["a.proto"]) }
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test func whatProtocRefusesIsOneLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-protoc-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"syntax = "proto3"; import "missing/b.proto"; message A { B b = 1; }"#.write(
            toFile: directory + "/a.proto", atomically: true, encoding: .utf8)
        try #"syntax = "proto3"; message A { int32 x = 1 }"#.write(
            toFile: directory + "/bad.proto", atomically: true, encoding: .utf8)
        let compiler = ProtoCompiler(command: Self.protoc, importPaths: [directory])
        #expect(
            throws: ProtobufError(
                "\(directory)/a.proto imports missing/b.proto, which is in none of the import directories (\(directory)): add -I DIR"
            )
        ) {
            try compiler.compile(["a.proto"])
        }
        let syntax = ProtobufError("\(directory)/bad.proto:1:44: Expected \";\".")
        #expect(throws: syntax) { try compiler.compile(["bad.proto"]) }
        // Without -I, the file's own directory.
        #expect(throws: ProtobufError.self) {
            try ProtoCompiler(command: Self.protoc).compile([directory + "/bad.proto"])
        }
        #expect(
            throws: ProtobufError(
                "no-such-protoc is not installed: apt-get install protobuf-compiler (or give descriptors with --protoset)"
            )
        ) {
            try ProtoCompiler(command: ["no-such-protoc"]).compile(["a.proto"])
        }
    }
}
