import FathomTestSupport
import Foundation
import Testing

/// The binary against a gRPC server nobody here wrote — Python grpcio with grpcio-reflection
/// (`Tests/Servers/grpc_server.py`, reflection v1alpha only): descriptors by reflection and from a
/// `.proto` file, `ls` and `describe`, the four kinds of call, metadata both ways, a bearer token,
/// a rich error, `expect status`/`expect trailer`, a second server that gets nothing meant for
/// the first, save → replay, and a changed server failing the replay.
@Suite(.enabled(if: GraphQLServer.python != nil, "needs FATHOM_PYTHON with grpcio: run through `make test`"))
struct GRPCReplTests {
    @Test func aServerNobodyHereWroteWorksEndToEnd() throws {
        let token = "grpc-planted-\(UUID().uuidString.prefix(8))"
        let directory = NSTemporaryDirectory() + "fathom-grpc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try GRPCServer(["--token", token])
        let received = directory + "/second-received.txt"
        let second = try GRPCServer(["--record", received])
        let saved = directory + "/users.fathom"
        let script = """
            grpc 127.0.0.1:\(server.port) --plaintext
            auth bearer \(token)
            default header x-echo-team: blue
            ls
            describe GetUser
            describe fathom.test.Role
            record on
            call GetUser {"id": 1}
            expect $.displayName == "Ada Lovelace"
            expect $.id == "1"
            expect header x-echo-team == blue
            expect trailer x-trailer-team == blue
            call fathom.test.Users/GetUser id:=99
            expect status NOT_FOUND
            expect trailer grpc-status-details-bin exists
            call ListUsers limit:=2
            expect events == 2
            expect event $.displayName == "Alan Turing"
            call CreateUsers [{"displayName": "A"}, {"displayName": "B"}]
            expect $.created == 2
            call Shout [
              {"displayName": "quiet"}
            ]
            expect event $.displayName == "QUIET"
            call Shout
            send displayName=ada
            expect message $.displayName == "ADA"
            send {"displayName": "grace"}
            close
            expect status OK
            expect trailer x-trailer-team == blue
            expect events == 2
            save \(saved)
            grpc 127.0.0.1:\(second.port) --plaintext
            call GetUser {"id": 2}
            expect $.displayName == "Alan Turing"
            grpcurl -plaintext -H 'x-line: only' -d '{"id": 3}' 127.0.0.1:\(second.port) fathom.test.Users/GetUser
            expect $.displayName == "Grace Hopper"
            call GetUser {"id": 1}
            export grpcurl #1

            """
        let run = try FathomBinary.run([], script: script)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(
            run.stdout.contains("(from reflection (grpc.reflection.v1alpha)): 1 service, 4 methods"), "\(run.stdout)")
        #expect(run.stdout.contains("fathom.test.Users/Shout"), "\(run.stdout)")
        #expect(run.stdout.contains("bidirectional streaming"), "\(run.stdout)")
        #expect(run.stdout.contains("displayName"), "\(run.stdout)")
        #expect(run.stdout.contains("map<string, int64>"), "\(run.stdout)")
        #expect(run.stdout.contains("MEMBER"), "\(run.stdout)")
        #expect(run.stdout.contains("gRPC NOT_FOUND"), "\(run.stdout)")
        #expect(run.stdout.contains("✗ no user has id 99"), "\(run.stdout)")
        #expect(run.stdout.contains("google.rpc.BadRequest"), "\(run.stdout)")
        // The planted token is masked everywhere, and the second server got none of it.
        let file = try String(contentsOfFile: saved, encoding: .utf8)
        let recording = try String(contentsOfFile: directory + "/users.recording.json", encoding: .utf8)
        for text in [run.stdout, run.stderr, file, recording] {
            #expect(!text.contains(token), "the token leaked: \(text)")
        }
        // The file is made at the second server's first call (grpcio hands it no metadata of its own).
        #expect(FileManager.default.fileExists(atPath: received), "the second server was not called")
        let secondGot = (try? String(contentsOfFile: received, encoding: .utf8)) ?? ""
        #expect(!secondGot.contains(token) && !secondGot.contains("authorization"), "\(secondGot)")
        #expect(!secondGot.contains("x-echo-team"), "\(secondGot)")
        // A pasted grpcurl line's header is that call's alone.
        #expect(secondGot.components(separatedBy: "x-line: only").count == 2, "\(secondGot)")

        // `export grpcurl` writes the call with its token by name; pasted back, it makes the call again.
        let exported = try #require(
            run.stdout.components(separatedBy: "grpcurl \\\n").last?.components(
                separatedBy: "fathom.test.Users/GetUser"
            )
            .first)
        #expect(exported.contains("${FATHOM_SECRET_TOKEN}"), "\(run.stdout)")
        #expect(exported.contains("-H 'x-echo-team: blue'"), "\(exported)")
        let pasted =
            "grpcurl " + exported.replacingOccurrences(of: "${FATHOM_SECRET_TOKEN}", with: token)
            + "fathom.test.Users/GetUser"
        let again = try FathomBinary.run(["-c", pasted, "-c", "expect $.displayName == \"Ada Lovelace\""])
        #expect(again.status == 0, "\(pasted)\n\(again.stdout)\n\(again.stderr)")
        #expect(!again.stdout.contains(token))

        // The saved file replays the same calls, the token asked for by name.
        #expect(file.contains("call GetUser {\"id\": 1}"), "\(file)")
        #expect(file.contains("# call fathom.test.Users/GetUser → NOT_FOUND"), "\(file)")
        let environment = ["FATHOM_SECRET_TOKEN": token]
        let replay = try FathomBinary.run(["replay", "--compare", saved], environment: environment)
        #expect(replay.status == 0, "\(replay.stdout)\n\(replay.stderr)")
        #expect(replay.stdout.contains("6 requests: 6 passed"), "\(replay.stdout)")
        #expect(replay.stdout.contains("6 compared with recordings"), "\(replay.stdout)")
        #expect(replay.stdout.contains("call fathom.test.Users/GetUser  NOT_FOUND"), "\(replay.stdout)")

        // Against a server whose answers changed: the replay fails, and says where.
        let changed = try GRPCServer(["--token", token, "--changed"])
        let moved = directory + "/changed.fathom"
        try file.replacingOccurrences(of: "127.0.0.1:\(server.port)", with: "127.0.0.1:\(changed.port)").write(
            toFile: moved, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: directory + "/users.recording.json", toPath: directory + "/changed.recording.json")
        let failing = try FathomBinary.run(
            ["replay", "--compare", "--continue-on-error", moved], environment: environment)
        #expect(failing.status == 1, "\(failing.stdout)\n\(failing.stderr)")
        #expect(failing.stdout.contains("\"Ada Lovelace\" → \"ADA LOVELACE\""), "\(failing.stdout)")
    }

    @Test func descriptorsFromAProtoFileAndJSONOutput() throws {
        let server = try GRPCServer(["--no-reflection"])
        let protos = FathomBinary.packageRoot + "/Tests/Servers/grpc"
        let python = GraphQLServer.python ?? "python3"
        let run = try FathomBinary.run(
            [
                "--output", "json", "-c", "grpc 127.0.0.1:\(server.port) --plaintext",
                "-c", "grpc 127.0.0.1:\(server.port) --plaintext --proto users.proto -I \(protos)",
                "-c", "describe fathom.test.Users", "-c", "call GetUser id:=3", "-c", "call GetUser {\"idd\": 3}",
            ], environment: ["FATHOM_PROTOC": "\(python) -m grpc_tools.protoc"])
        // Each line is checked against docs/output.schema.json by FathomBinary.run.
        // No reflection: one line saying so and the way around it.
        #expect(run.stdout.contains("server reflection failed"), "\(run.stdout)")
        #expect(run.stdout.contains("--proto FILE"), "\(run.stdout)")
        // From the file, comments and all.
        #expect(run.stdout.contains("Users, every kind of call."), "\(run.stdout)")
        #expect(run.stdout.contains("\"status_name\":\"OK\""), "\(run.stdout)")
        #expect(run.stdout.contains("Grace Hopper"), "\(run.stdout)")
        #expect(run.stdout.contains("did you mean \\\"id\\\"?"), "\(run.stdout)")
    }

    /// TLS by default: the server's certificate checked against the API's CA (`cert --ca`), one
    /// line when it cannot be, `insecure` taking any.
    @Test func tlsByDefaultWithTheAPIsCA() throws {
        let directory = NSTemporaryDirectory() + "fathom-grpc-tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try ClientCertificateTests.makeCertificates(in: directory)
        let server = try GRPCServer(["--tls", directory + "/server.pem", directory + "/server.key"])
        let untrusted = try FathomBinary.run(["-c", "grpc 127.0.0.1:\(server.port)"])
        #expect(untrusted.status != 0)
        #expect(untrusted.stderr.contains("server reflection failed"), "\(untrusted.stderr)")
        let script = """
            base https://127.0.0.1:\(server.port)
            cert --ca \(directory)/ca.pem
            grpc 127.0.0.1:\(server.port)
            call GetUser id:=3
            expect $.displayName == "Grace Hopper"
            export grpcurl

            """
        let trusted = try FathomBinary.run([], script: script)
        #expect(trusted.status == 0, "\(trusted.stdout)\n\(trusted.stderr)")
        #expect(trusted.stdout.contains("loaded gRPC https://127.0.0.1:\(server.port)"), "\(trusted.stdout)")
        #expect(trusted.stdout.contains("-cacert"), "\(trusted.stdout)")
        #expect(!trusted.stdout.contains("-plaintext"), "\(trusted.stdout)")
        let insecure = try FathomBinary.run([
            "-c", "insecure on", "-c", "grpc 127.0.0.1:\(server.port)", "-c", "call GetUser id:=1",
        ])
        #expect(insecure.status == 0, "\(insecure.stdout)\n\(insecure.stderr)")
        #expect(insecure.stdout.contains("Ada Lovelace"), "\(insecure.stdout)")
    }

    /// Mutual TLS on gRPC: a server that requires a client certificate gets the API's, its key
    /// decrypted with the passphrase from the environment, the server checked against a CA folder
    /// (OpenSSL's hashed name, as curl's --capath has it).
    @Test func aClientCertificateWithAnEncryptedKeyAndACAFolder() throws {
        let directory = NSTemporaryDirectory() + "fathom-grpc-mtls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/cas", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try ClientCertificateTests.makeCertificates(in: directory)
        let hashed = try ClientCertificateTests.caFolder(in: directory)
        let passphrase = "grpc-pass-\(UUID().uuidString.prefix(8))"
        let (status, output) = try Program.run([
            "openssl", "pkey", "-in", directory + "/client.key", "-aes256", "-passout", "pass:\(passphrase)", "-out",
            directory + "/client-encrypted.key",
        ])
        try #require(status == 0, "\(output)")
        let server = try GRPCServer([
            "--tls", directory + "/server.pem", directory + "/server.key", "--client-ca", directory + "/ca.pem",
        ])
        let script = { (key: String) in
            """
            base https://127.0.0.1:\(server.port)
            cert client.pem --key \(key) --ca cas
            grpc 127.0.0.1:\(server.port)
            call GetUser id:=2
            expect $.displayName == "Alan Turing"

            """
        }
        let answered = try FathomBinary.run(
            [], script: script("client-encrypted.key"), environment: ["FATHOM_SECRET_KEY_PASSPHRASE": passphrase],
            directory: directory)
        #expect(answered.status == 0, "\(answered.stdout)\n\(answered.stderr)")
        #expect(answered.stdout.contains("Alan Turing"), "\(answered.stdout)")
        for text in [answered.stdout, answered.stderr] { #expect(!text.contains(passphrase)) }
        #expect(hashed.hasSuffix(".0"))
        // Without a certificate the server refuses the handshake: one line, the script fails.
        let refused = try FathomBinary.run(
            [], script: "base https://127.0.0.1:\(server.port)\ncert --ca cas\ngrpc 127.0.0.1:\(server.port)\n",
            directory: directory)
        #expect(refused.status != 0, "\(refused.stdout)")
    }
}
