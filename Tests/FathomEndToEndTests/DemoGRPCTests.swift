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
            responses
            show session
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
        // The history lists a call as the call it was, and the session names the API's services.
        #expect(run.stdout.contains("#2 call fathom.demo.v1.Todos/GetUser NOT_FOUND"), "\(run.stdout)")
        #expect(run.stdout.contains("grpc    1 service (from reflection (grpc.reflection.v1))"), "\(run.stdout)")
        let file = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(file.contains("grpc {{grpc}} --plaintext"), "\(file)")
        let replay = try FathomBinary.run(["replay", "--demo", saved])
        #expect(replay.status == 0, "\(replay.stdout)\n\(replay.stderr)")
        #expect(replay.stdout.contains("6 requests: 6 passed"), "\(replay.stdout)")
    }

    /// A client or bidirectional stream called with no messages stays open for the lines that
    /// write it — `send` (JSON, an array, items), `expect message`, `close` — and is kept as a
    /// conversation and then as the call's response; its file replays, and `--output json`
    /// carries each message (checked against the schema by ``FathomBinary``).
    @Test func aStreamWrittenLineByLineSavesAndReplays() throws {
        let directory = NSTemporaryDirectory() + "fathom-demo-grpc-stream-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = directory + "/chat.fathom"
        let script = """
            grpc {{grpc}} --plaintext
            call Chat
            ws /ws
            call AddTodos
            ping
            close 4000
            send text=hello
            expect message $.text == "HELLO"
            send [{"text": "a"}, {"text": "b"}]
            expect message $.text == "B"
            send nope:=1
            inspect #1 $.messages[0].data.text
            close
            expect status OK
            expect events == 3
            expect event $.text == "A"
            call AddTodos
            send userId:=3 title="Ship it"
            send {"userId": 3, "title": "Rest"}
            close
            expect $.added == 2
            call AddTodos
            send title=orphan
            close
            expect status INVALID_ARGUMENT
            send title=late
            save \(saved)

            """
        let run = try FathomBinary.run(["--demo"], script: script)
        #expect(run.status != 0)
        #expect(run.stdout.contains("⇄ fathom.demo.v1.Todos/Chat open · #1"), "\(run.stdout)")
        #expect(
            run.stderr.contains("a gRPC stream of fathom.demo.v1.Todos/Chat is open — `close` it first"),
            "\(run.stderr)")
        #expect(run.stderr.contains("ping is a WebSocket's"), "\(run.stderr)")
        #expect(run.stderr.contains("a gRPC stream's close takes no code"), "\(run.stderr)")
        #expect(run.stdout.contains("→ {\"text\":\"hello\"}"), "\(run.stdout)")
        #expect(run.stderr.contains("has no field \"nope\""), "\(run.stderr)")
        #expect(run.stdout.contains("\"hello\""), "\(run.stdout)")
        #expect(run.stdout.contains("gRPC OK"), "\(run.stdout)")
        #expect(run.stdout.contains("3 events"), "\(run.stdout)")
        #expect(run.stdout.contains("\"added\": 2"), "\(run.stdout)")
        #expect(run.stdout.contains("gRPC INVALID_ARGUMENT"), "\(run.stdout)")
        #expect(
            run.stderr.contains("the gRPC stream of fathom.demo.v1.Todos/AddTodos has ended (INVALID_ARGUMENT)"),
            "\(run.stderr)")
        #expect(!run.stdout.contains("✗ expect") && !run.stderr.contains("✗ expect"), "\(run.stdout)\n\(run.stderr)")
        let file = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(file.contains("call Chat\nsend text=hello\nexpect message $.text == \"HELLO\"\n"), "\(file)")
        #expect(!file.contains("nope") && !file.contains("ping") && !file.contains("late"), "\(file)")

        let recorded = try FathomBinary.run(["replay", "--demo", "--record", saved])
        #expect(recorded.status == 0, "\(recorded.stdout)\n\(recorded.stderr)")
        #expect(recorded.stdout.contains("call fathom.demo.v1.Todos/Chat  OK"), "\(recorded.stdout)")
        #expect(recorded.stdout.contains("call fathom.demo.v1.Todos/AddTodos  INVALID_ARGUMENT"), "\(recorded.stdout)")
        // The server's answers are the same on the next run (the added todos' times aside).
        let compared = try FathomBinary.run([
            "replay", "--demo", "--compare", saved, "--volatile", "$.todos[*].created",
        ])
        #expect(
            compared.stdout.contains("call fathom.demo.v1.Todos/Chat  OK"), "\(compared.stdout)\n\(compared.stderr)")
        #expect(compared.status == 0, "\(compared.stdout)\n\(compared.stderr)")

        let json = try FathomBinary.run(
            ["--demo", "--output", "json"],
            script: """
                grpc {{grpc}} --plaintext
                call Chat
                send text=json
                expect message $.text == "JSON"
                close
                call AddTodos
                send title=orphan
                expect message $.added == 1

                """)
        for event in [
            "\"type\":\"grpc_stream\",\"version\":1,\"event\":\"open\"", "\"event\":\"sent\"", "\"event\":\"message\"",
        ] {
            #expect(json.stdout.contains(event), "\(json.stdout)")
        }
        #expect(json.stdout.contains("before the call ended"), "\(json.stdout)")
    }

    /// At the prompt: the stream's own sub-prompt, its messages as they come, Ctrl-D half-closes
    /// and shows the call's end, and the main prompt is back.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func aStreamAtThePromptIsASubPromptCtrlDCloses() throws {
        let state = NSTemporaryDirectory() + "fathom-state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try Tmux(
            "XDG_STATE_HOME=\(state) NO_COLOR=1 \(FathomBinary.binary) --demo; echo FATHOM-EXIT=$?")
        try terminal.waitFor("/>")
        try terminal.type("grpc {{grpc}} --plaintext")
        try terminal.send("Enter")
        try terminal.waitFor("4 methods")
        try terminal.type("call Chat")
        try terminal.send("Enter")
        try terminal.waitFor("grpc Todos/Chat>")
        try terminal.type("send text='hi there'")
        try terminal.send("Enter")
        try terminal.waitFor("\"HI THERE\"")
        try terminal.send("C-d")
        try terminal.waitFor("gRPC OK")
        let screen = try terminal.waitFor("1 event")
        #expect(screen.contains("→ {\"text\":\"hi there\"}"), "\(screen)")
        try terminal.waitForPrompt("/>")
        try terminal.send("C-d")
        try terminal.waitFor("FATHOM-EXIT=0")
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
