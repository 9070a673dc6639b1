import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

@Suite struct SessionWriterTests {
    static let planted = "planted-Secret-value-7f3a9c"

    func writer(
        _ lines: [(String, SessionLog.Kind)], variables: Variables = Variables(environment: [:]),
        secrets: [String] = [], requestsOnly: Bool = false
    ) -> SessionWriter.Output {
        var log = SessionLog()
        for (text, kind) in lines {
            log.append(command(text), kind: kind, summary: kind == .request ? "GET /x → 200 OK" : nil)
        }
        return SessionWriter(log: log, variables: variables, secretValues: secrets, requestsOnly: requestsOnly)
            .write(fileName: "s.fathom", redactor: Redactor())
    }

    func command(_ text: String) -> any Command {
        do {
            guard let command = try CommandParser.parse(text) else { fatalError("no command in '\(text)'") }
            return command
        } catch {
            fatalError("'\(text)': \(error)")
        }
    }

    @Test func writesSettingsThenRequestBlocks() {
        let output = writer([
            ("base http://a.test", .setting), ("path /x", .draft), ("send", .request), ("expect status 200", .followUp),
            ("let id = $.id", .followUp), ("set page = 2", .setting), ("get /y/{{id}}", .request),
            ("path /unsent", .draft),
        ])
        #expect(
            output.text == """
                # Fathom session. Replay it with: fathom replay s.fathom
                base http://a.test

                # GET /x → 200 OK
                path /x
                send
                expect status 200
                let id = $.id
                set page = 2

                # GET /x → 200 OK
                get /y/{{id}}

                """)
        #expect(output.requests == 2)
        let requestsOnly = writer([("base http://a.test", .setting), ("get /x", .request)], requestsOnly: true)
        #expect(!requestsOnly.text.contains("base"))
    }

    @Test func secretsAreWrittenAsReferences() {
        var variables = Variables(environment: [:])
        variables.set("token", Self.planted, secret: true)
        let output = writer(
            [
                ("secret token", .setting), ("auth bearer \(Self.planted)", .setting),
                ("auth basic ada:hunter2!", .setting), ("header Authorization: Bearer \(Self.planted)x", .draft),
                ("get /x?t=\(Self.planted)", .request),
            ], variables: variables, secrets: [Self.planted, "hunter2!", Self.planted + "x"])
        #expect(!output.text.contains(Self.planted))
        #expect(!output.text.contains("hunter2"))
        #expect(output.text.contains("auth bearer {{token}}"))
        #expect(output.text.contains("auth basic ada:{{password}}"))
        #expect(output.text.contains("header Authorization: Bearer {{authorization}}"))
        #expect(output.text.contains("secret password\n"))
        #expect(output.namedSecrets == ["password", "authorization"])
    }

    /// AWS keys typed into `auth aws-sigv4` are written as references, the access key ID as it is.
    @Test func awsKeysAreWrittenAsReferences() {
        let output = writer(
            [("auth aws-sigv4 --region eu-west-1 AKIDEXAMPLE \(Self.planted) token-\(Self.planted)", .setting)],
            secrets: [Self.planted, "token-" + Self.planted])
        #expect(!output.text.contains(Self.planted), "\(output.text)")
        #expect(
            output.text.contains(
                "auth aws-sigv4 --region eu-west-1 AKIDEXAMPLE {{aws_secret_access_key}} {{aws_session_token}}"),
            "\(output.text)")
    }

    @Test func theFirstLineSaysHowToReplay() {
        var log = SessionLog()
        log.append(command("base {{demo}}"), kind: .setting)
        log.append(command("get /users/{{id}}"), kind: .request)
        let writer = SessionWriter(
            log: log, variables: Variables(environment: [:]), secretValues: [], requestsOnly: false,
            externalNames: ["demo", "id", "unused"])
        #expect(
            writer.write(fileName: "s.fathom", redactor: Redactor()).text.hasPrefix(
                "# Fathom session. Replay it with: fathom replay --demo --var id=… s.fathom\n"))
    }

    @Test func shortSecretsReplaceOnlyWholeWords() {
        let output = writer([("set a = 1", .setting), ("get /x?pin=1234&page=12345", .request)], secrets: ["1234"])
        #expect(output.text.contains("pin={{pin}}&page=12345"))
    }
}
