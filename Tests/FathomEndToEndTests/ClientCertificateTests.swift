import FathomTestSupport
import Foundation
import Testing

/// `cert` against `openssl s_server` requiring a client certificate (`-Verify 1
/// -verify_return_error`): answered with the API's certificate, refused without it or with one
/// its CA did not issue, each in one clear line; a second server that also wants one gets nothing
/// of the first API's; the saved file replays.
@Suite struct ClientCertificateTests {
    /// A CA, a server certificate for 127.0.0.1 and two client certificates — one from the CA, one
    /// self-signed — in `directory`.
    static func makeCertificates(in directory: String) throws {
        func openssl(_ arguments: [String]) throws {
            let (status, output) = try Program.run(["openssl"] + arguments)
            try #require(status == 0, "openssl \(arguments.joined(separator: " ")): \(output)")
        }
        let path = { (name: String) in directory + "/" + name }
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"),
            "-days", "2", "-subj", "/CN=Fathom Test CA",
        ])
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: path("san.ext"), atomically: true, encoding: .utf8)
        for (name, subject, extensions) in [("server", "/CN=127.0.0.1", true), ("client", "/CN=fathom-client", false)] {
            try openssl([
                "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("\(name).key"), "-out", path("\(name).csr"),
                "-subj", subject,
            ])
            try openssl(
                [
                    "x509", "-req", "-in", path("\(name).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                    "-CAcreateserial", "-out", path("\(name).pem"), "-days", "2",
                ] + (extensions ? ["-extfile", path("san.ext")] : []))
        }
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("stranger.key"), "-out",
            path("stranger.pem"), "-days", "2", "-subj", "/CN=stranger",
        ])
    }

    /// `DIRECTORY/cas`: the CA under OpenSSL's hashed name (`5ed36f99.0`, as `c_rehash` leaves it),
    /// beside a file that holds no certificate — a folder as curl's `--capath` takes it. Returns
    /// the hashed name.
    static func caFolder(in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory + "/cas", withIntermediateDirectories: true)
        let (status, hash) = try Program.run(["openssl", "x509", "-hash", "-noout", "-in", directory + "/ca.pem"])
        try #require(status == 0, "\(hash)")
        let name = hash.trimmingCharacters(in: .whitespacesAndNewlines) + ".0"
        try FileManager.default.copyItem(atPath: directory + "/ca.pem", toPath: directory + "/cas/" + name)
        try "not a certificate\n".write(toFile: directory + "/cas/README", atomically: true, encoding: .utf8)
        return name
    }

    /// `openssl s_server` on a free loopback port, wanting a client certificate from the CA.
    static func server(in directory: String) throws -> (process: Process, port: Int) {
        let port = try Sockets.closedPort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", directory + "/server.pem", "-key",
            directory + "/server.key", "-CAfile", directory + "/ca.pem", "-Verify", "1", "-verify_return_error",
            "-www", "-quiet",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !Sockets.isListening(port), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        try #require(Sockets.isListening(port), "s_server did not start")
        return (process, port)
    }

    @Test func aServerThatWantsACertificateGetsTheAPIsOnly() throws {
        let directory = NSTemporaryDirectory() + "fathom-mtls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.makeCertificates(in: directory)
        let first = try Self.server(in: directory)
        let second = try Self.server(in: directory)
        defer {
            first.process.terminate()
            second.process.terminate()
        }
        let a = "https://127.0.0.1:\(first.port)"
        let b = "https://127.0.0.1:\(second.port)"

        let without = try FathomBinary.run([a, "-c", "cert --ca \(directory)/ca.pem", "-c", "get /"])
        #expect(without.status != 0)
        #expect(
            without.stderr.contains(
                "TLS handshake with 127.0.0.1 failed: the server asks for a client certificate, and none was given — give the API one with `cert FILE --key FILE`"
            ), "\(without.stderr)")

        let stranger = try FathomBinary.run([
            a, "-c", "cert \(directory)/stranger.pem --key \(directory)/stranger.key --ca \(directory)/ca.pem",
            "-c", "get /",
        ])
        #expect(stranger.stderr.contains("the server refused the client certificate"), "\(stranger.stderr)")

        let result = try FathomBinary.run(
            [a],
            script: """
                cert client.pem --key client.key --ca ca.pem
                get /
                cert
                insecure on
                get \(b)/
                save \(directory)/mtls.fathom
                """, directory: directory)
        #expect(result.stdout.contains("HTTP/1.0 200 OK"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("client.pem --key client.key --ca ca.pem"), "\(result.stdout)")
        // The second server wants a certificate too, and gets none of the first API's.
        #expect(
            result.stderr.contains("the server asks for a client certificate, and none was given"), "\(result.stderr)")
        let saved = try String(contentsOfFile: directory + "/mtls.fathom", encoding: .utf8)
        #expect(saved.contains("cert client.pem --key client.key --ca ca.pem"), "\(saved)")
        let replayed = try FathomBinary.run(["replay", directory + "/mtls.fathom"])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")

        // curl's --cert, --key and --cacert: the request's own (`cert draft`), sent, and exported
        // back to a curl line that bash runs to the same answer.
        let pasted = try FathomBinary.run(
            [],
            script: "curl --cert client.pem --key client.key --cacert ca.pem \(a)/\nexport curl\nget \(b)/\n",
            directory: directory)
        #expect(pasted.stdout.contains("HTTP/1.0 200 OK"), "\(pasted.stdout)\(pasted.stderr)")
        #expect(
            pasted.stdout.contains("--cert client.pem") && pasted.stdout.contains("--cacert ca.pem"),
            "\(pasted.stdout)")
        // The next request is a new draft: it goes without the curl line's CA (and certificate).
        #expect(pasted.stderr.contains("certificate not trusted"), "\(pasted.stderr)")
        // The exported command: from its first line to the one that does not continue.
        var command: [Substring] = []
        for line in pasted.stdout.split(separator: "\n") where !command.isEmpty || line.hasPrefix("curl https://") {
            command.append(line)
            if !line.hasSuffix("\\") { break }
        }
        let exported = command.joined(separator: "\n")
        #expect(exported.contains("--key client.key"), "\(pasted.stdout)")
        let (status, answer) = try Program.run([
            "bash", "-c", "cd \(directory) && " + exported + " -s -o /dev/null -w '%{http_code}'",
        ])
        #expect(status == 0 && answer.hasSuffix("200"), "\(exported)\n\(answer)")
    }

    /// curl's `--capath DIR`: the folder's certificates are trusted, the line sends, and `export
    /// curl` writes `--capath` back; a folder with no certificate is one line at the `cert` line.
    @Test func aCAFolderAsCurlsCapathHasIt() throws {
        let directory = NSTemporaryDirectory() + "fathom-capath-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/empty", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.makeCertificates(in: directory)
        _ = try Self.caFolder(in: directory)
        let server = try Self.server(in: directory)
        defer { server.process.terminate() }
        let api = "https://127.0.0.1:\(server.port)"
        let pasted = try FathomBinary.run(
            [], script: "curl --cert client.pem --key client.key --capath cas \(api)/\nexport curl\n",
            directory: directory)
        #expect(pasted.stdout.contains("HTTP/1.0 200 OK"), "\(pasted.stdout)\(pasted.stderr)")
        #expect(pasted.stdout.contains("--capath cas"), "\(pasted.stdout)")
        var command: [Substring] = []
        for line in pasted.stdout.split(separator: "\n") where !command.isEmpty || line.hasPrefix("curl https://") {
            command.append(line)
            if !line.hasSuffix("\\") { break }
        }
        let (status, answer) = try Program.run([
            "bash", "-c",
            "cd \(directory) && " + command.joined(separator: "\n") + " -s -o /dev/null -w '%{http_code}'",
        ])
        #expect(status == 0 && answer.hasSuffix("200"), "\(command)\n\(answer)")
        // At an API: `cert … --ca DIR`, and a folder that holds no certificate refused where it is given.
        let api2 = try FathomBinary.run(
            [api],
            script: "cert client.pem --key client.key --ca cas\nget /\ncert client.pem --key client.key --ca empty\n",
            directory: directory)
        #expect(api2.stdout.contains("HTTP/1.0 200 OK"), "\(api2.stdout)\(api2.stderr)")
        #expect(api2.stderr.contains("holds no file with a PEM certificate"), "\(api2.stderr)")
    }

    /// An encrypted key takes its passphrase from the environment (or the terminal, asked without
    /// echo): a wrong one fails the `cert` line, none at all is the environment's fault in a replay,
    /// and the passphrase is in no output and not in the saved file.
    @Test func anEncryptedKeyTakesItsPassphraseFromTheEnvironment() throws {
        let directory = NSTemporaryDirectory() + "fathom-mtls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.makeCertificates(in: directory)
        let passphrase = "pass-\(UUID().uuidString.prefix(8))"
        let (status, output) = try Program.run([
            "openssl", "pkey", "-in", directory + "/client.key", "-aes256", "-passout", "pass:\(passphrase)", "-out",
            directory + "/client-encrypted.key",
        ])
        try #require(status == 0, "\(output)")
        let server = try Self.server(in: directory)
        defer { server.process.terminate() }
        let api = "https://127.0.0.1:\(server.port)"
        let line = "cert client.pem --key client-encrypted.key --ca ca.pem"

        let answered = try FathomBinary.run(
            [api], script: "\(line)\nget /\nsave \(directory)/encrypted.fathom\n",
            environment: ["FATHOM_SECRET_KEY_PASSPHRASE": passphrase], directory: directory)
        #expect(answered.stdout.contains("HTTP/1.0 200 OK"), "\(answered.stdout)\(answered.stderr)")
        let wrong = try FathomBinary.run(
            [api, "-c", line, "-c", "get /"], environment: ["FATHOM_SECRET_KEY_PASSPHRASE": "not-it"],
            directory: directory)
        #expect(wrong.status != 0)
        #expect(
            wrong.stderr.contains("the passphrase does not decrypt the PEM private key in it"), "\(wrong.stderr)")
        #expect(!wrong.stdout.contains("200 OK"), "a request went after the cert line failed")

        let saved = try String(contentsOfFile: directory + "/encrypted.fathom", encoding: .utf8)
        #expect(saved.contains(line), "\(saved)")
        let without = try FathomBinary.run(["replay", directory + "/encrypted.fathom"])
        #expect(without.status == 3, "\(without.stdout)\(without.stderr)")
        #expect((without.stdout + without.stderr).contains("FATHOM_SECRET_KEY_PASSPHRASE"))
        let replayed = try FathomBinary.run(
            ["replay", directory + "/encrypted.fathom"], environment: ["FATHOM_SECRET_KEY_PASSPHRASE": passphrase])
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        for run in [answered, wrong, without, replayed] {
            #expect(!(run.stdout + run.stderr).contains(passphrase), "the passphrase was shown")
        }
        #expect(!saved.contains(passphrase))
    }

    /// A `wss` server that wants a client certificate (Python's `websockets` with CERT_REQUIRED)
    /// gets the API's, and trusts its CA: the upgrade goes through the same TLS identity as the
    /// API's HTTP requests; without `cert` the upgrade fails in one line.
    @Test(.enabled(if: PythonServer.python != nil, "needs FATHOM_PYTHON with websockets"))
    func aWebSocketShowsTheAPIsCertificate() throws {
        let directory = NSTemporaryDirectory() + "fathom-mtls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.makeCertificates(in: directory)
        let server = try PythonServer(
            script: FathomBinary.packageRoot + "/Tests/Servers/wss_server.py",
            arguments: [directory + "/server.pem", directory + "/server.key", directory + "/ca.pem"])
        let api = "https://127.0.0.1:\(server.port)"
        let run = try FathomBinary.run(
            [api],
            script: """
                cert client.pem --key client.key --ca ca.pem
                ws /
                send hello
                expect message $ == "fathom-client: hello"
                close
                """, directory: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("✓ expect message"), "\(run.stdout)")
        let without = try FathomBinary.run([api, "-c", "cert --ca \(directory)/ca.pem", "-c", "ws /"])
        #expect(without.status != 0)
        // Refused for want of a certificate: Python's server resets the connection after TLS 1.3's
        // handshake, which is all the client learns (the HTTP transport names the alert when it
        // arrives first).
        #expect(without.stderr.hasPrefix("error: "), "\(without.stderr)")
        #expect(!without.stdout.contains("open ·"), "\(without.stdout)")
    }
}
