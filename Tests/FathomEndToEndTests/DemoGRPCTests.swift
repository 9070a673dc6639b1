import FathomProtobuf
import FathomTestSupport
import Foundation
import Testing

/// The demo's gRPC service: at the prompt by reflection (its comments with it), every kind of
/// call, save → `fathom replay --demo`; read by a reflection client nobody here wrote (Python
/// grpcio-reflection's); and its compiled descriptors in step with `Protos/todos.proto`.
@Suite struct DemoGRPCTests {
    @Test func theDemoServesEveryKindOfCallAndAFileReplaysThem() throws {
        let directory = NSTemporaryDirectory() + "fathom-demo-grpc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = directory + "/todos.fathom"
        let script = """
            grpc {{grpc}} --plaintext
            ls
            describe GetUserRequest
            call GetUser id:=2
            expect $.name == "Grace Hopper"
            expect $.role == "ADMIN"
            call GetUser id:=99
            expect status NOT_FOUND
            call ListTodos userId:=1
            expect events == 4
            expect event $.title == "Plan the sprint"
            call AddTodos [{"userId": 3, "title": "Ship it"}, {"userId": 3, "title": "Rest"}]
            expect $.added == 2
            call Chat [{"text": "hello"}, {"text": "again"}]
            expect events == 2
            expect event $.text == "AGAIN"
            timeout 100ms
            call ListTodos userId:=1
            expect status DEADLINE_EXCEEDED
            timeout off
            save \(saved)
            base {{demo}}
            get /users/3/todos
            expect $[-1].title == "Rest"

            """
        let run = try FathomBinary.run(["--demo"], script: script)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("gRPC: grpc {{grpc}} --plaintext"), "\(run.stdout)")
        #expect(run.stdout.contains("(from reflection (grpc.reflection.v1)): 1 service, 4 methods"), "\(run.stdout)")
        #expect(run.stdout.contains("One user by id."), "\(run.stdout)")
        #expect(run.stdout.contains("The user's id: 1 to 25 exist."), "\(run.stdout)")
        #expect(run.stdout.contains("users are numbered 1 and up"), "\(run.stdout)")
        let file = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(file.contains("grpc {{grpc}} --plaintext"), "\(file)")
        let replay = try FathomBinary.run(["replay", "--demo", saved])
        #expect(replay.status == 0, "\(replay.stdout)\n\(replay.stderr)")
        #expect(replay.stdout.contains("6 requests: 6 passed"), "\(replay.stdout)")
    }

    /// A gRPC call exports as grpcurl, never as a curl line that would POST its JSON; a batch of
    /// calls names each status as gRPC does.
    @Test func aCallExportsAsGRPCurlNotCurl() throws {
        let run = try FathomBinary.run([
            "--demo", "-c", "grpc {{grpc}} --plaintext", "-c", "call GetUser id:=1",
            "-c", "call GetUser id:={{$i}} --repeat 27 -c 3", "-c", "export grpcurl", "-c", "export curl #1",
        ])
        #expect(run.status != 0)
        #expect(run.stdout.contains("200 OK × 25 · 404 NOT_FOUND × 2"), "\(run.stdout)")
        #expect(run.stdout.contains("-d '{\"id\":1}'"), "\(run.stdout)")
        #expect(run.stderr.contains("#1 is a gRPC call, not an HTTP request — `export grpcurl #1`"), "\(run.stderr)")
    }

    @Test(.enabled(if: GraphQLServer.python != nil, "needs FATHOM_PYTHON with grpcio-reflection"))
    func aReflectionClientNobodyHereWroteReadsTheDemo() throws {
        let server = try DemoServerProcess()
        let script = FathomBinary.packageRoot + "/Tests/Servers/grpc_reflect_client.py"
        for (request, expected) in [
            (#"{"id": "3"}"#, #""answer": {"active": true, "email": "turing@example.com", "id": "3""#),
            (#"{"id": "99"}"#, #""status": "NOT_FOUND""#),
        ] {
            let run = try Program.run([
                GraphQLServer.python ?? "python3", script, server.grpcTarget, "fathom.demo.v1.Todos", "GetUser",
                request,
            ])
            #expect(run.output.contains(expected), "\(run.output)")
            #expect(run.output.contains(#""services": ["fathom.demo.v1.Todos"]"#), "\(run.output)")
            #expect(
                run.output.contains(#""output_fields": ["id", "name", "email", "role", "active"]"#), "\(run.output)")
        }
    }

    /// `DemoGRPCDescriptors.swift` is `Protos/todos.proto` compiled: the same messages, fields,
    /// enums and methods (scripts/demo-descriptors.sh writes it again after a change).
    @Test(.enabled(if: GraphQLServer.python != nil, "needs FATHOM_PYTHON with grpcio-tools"))
    func theCompiledDescriptorsAreTheProtoFile() throws {
        let protos = FathomBinary.packageRoot + "/Sources/FathomDemo/Protos"
        let compiled = try ProtoCompiler(
            command: [GraphQLServer.python ?? "python3", "-m", "grpc_tools.protoc"], importPaths: [protos]
        ).compile(["todos.proto"])
        let source = try String(
            contentsOfFile: FathomBinary.packageRoot + "/Sources/FathomDemo/DemoGRPCDescriptors.swift", encoding: .utf8)
        let base64 = source.components(separatedBy: "\"\"\"")[1].replacingOccurrences(of: "\\\n", with: "")
            .replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "")
        let embedded = try DescriptorPool(fileDescriptorSet: [UInt8](try #require(Data(base64Encoded: base64))))
        func shape(_ pool: DescriptorPool) -> [String] {
            pool.messages.map { message in
                message.fullName + "{"
                    + message.fields.map { "\($0.name)=\($0.number):\($0.type.name(in: pool))" }
                    .joined(separator: ",") + "}" + (message.comment ?? "")
            }
                + pool.enums.map { $0.fullName + $0.values.map(\.name).joined(separator: ",") }
                + pool.services.flatMap { service in
                    service.methods.map { "\(service.fullName)/\($0.name) \($0.kind) \($0.comment ?? "")" }
                }
        }
        #expect(shape(embedded).sorted() == shape(compiled).sorted(), "run scripts/demo-descriptors.sh")
    }
}
