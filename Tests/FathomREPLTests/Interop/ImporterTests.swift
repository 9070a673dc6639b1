import FathomHTTP
import FathomJSON
import FathomTestSupport
import Foundation
import Testing

@testable import FathomREPL

/// HAR logs and Postman collections from the corpora, each imported as a session file that reads
/// back whole, with one request per entry and no credential written.
@Suite struct ImporterTests {
    static let corpora = TestCorpora.root

    static var harFiles: [String] {
        ["har/mitmproxy/har_files", "har/mitmproxy/flows"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: corpora.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".har") }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    @Test func theCorporaAreHere() {
        #expect(Self.harFiles.count == 15)
    }

    @Test(arguments: harFiles)
    func aHARLogBecomesASessionFileWithAnEntryPerRequest(file: String) throws {
        let path = Self.corpora.appendingPathComponent(file).path
        let imported = try Importer.read(path)
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        guard case .array(let entries)? = try JSON(parsing: data)["log"]?["entries"] else {
            Issue.record("no entries")
            return
        }
        #expect(imported.requests == entries.count)
        let session = try SessionFile.parse(imported.text, path: file)
        #expect(session.entries.filter { $0.command.sendsRequest }.count == entries.count)
        for secret in imported.secrets {
            #expect(!imported.text.contains(secret.value), "\(file): a credential was written")
            #expect(imported.text.contains("secret \(secret.name)\n"))
        }
    }

    /// Found by fuzz-import: a header name no request can carry is left out and said so; every
    /// line an import writes parses back to its command.
    @Test func aHeaderNameNoRequestCanCarryIsLeftOut() throws {
        let imported = try Importer.read(
            Data(#"curl 'http://localhost/r' -H 'Connectoded"alhost:8080' -H 'X-Ok: 1'"#.utf8), name: "t", place: "t",
            format: .curl, readFile: { _ in Data() })
        #expect(imported.notes == [.header(name: #"Connectoded"alhost"#, scope: "GET http://localhost/r")])
        #expect(imported.commands.contains { $0.line == "header X-Ok: 1" })
        for command in imported.commands {
            #expect(try CommandParser.parse(command.line)?.isEqual(to: command) == true, "\(command.line)")
        }
    }

    /// Found by fuzz-import: a method no line can carry is refused in a curl line, and a HAR
    /// request with one is left out with a note.
    @Test func aMethodNoRequestCanCarryIsRefused() throws {
        #expect {
            try Importer.read(
                Data("curl -X '\u{95}POST' http://localhost/r".utf8), name: "t", place: "t", format: .curl,
                readFile: { _ in Data() })
        } throws: { error in
            (error as? CommandError)?.message == "curl option -X takes a method, not '\u{95}POST'"
        }
        let har =
            #"{"log": {"entries": [{"request": {"method": "G ET", "url": "http://a/"}}, {"request": {"method": "GET", "url": "http://a/ok"}}]}}"#
        let imported = try Importer.read(Data(har.utf8), name: "t.har", place: "t.har", format: .har)
        #expect(imported.notes == [.method(name: "G ET", scope: "http://a/")])
        #expect(imported.commands.contains { $0.line == "path http://a/ok" })
    }

    /// Found by fuzz-import: a form field named with a separator (`-F 'passwo@rd=x'`) is written
    /// with the separator escaped, as HTTPie writes it, and reads back as the same field.
    @Test func aFieldNamedWithASeparatorRoundTrips() throws {
        let imported = try Importer.read(
            Data("curl -F 'username=ada' -F 'passwo@rd=something' -F 'a=b=c' http://localhost/p".utf8), name: "t",
            place: "t", format: .curl, readFile: { _ in Data() })
        let body = try #require(imported.commands.first { $0 is BodyCommand } as? BodyCommand)
        #expect(
            body.body
                == .multipart([
                    .field(name: "username", value: "ada"), .field(name: "passwo@rd", value: "something"),
                    .field(name: "a", value: "b=c"),
                ]))
        #expect(body.line == #"body multipart username=ada 'passwo\@rd=something' a=b=c"#)
        #expect(try CommandParser.parse(body.line)?.isEqual(to: body) == true)
        #expect(RequestItem(parsing: #"x\=y==1"#) == .query(name: "x=y", value: "1"))
        #expect(RequestItem(parsing: #"\@"#) == nil, "a name and no separator is no item")
    }

    /// Found by fuzz-import: `-X POsT` is sent as written, and its line says so (`method 'POsT'`).
    @Test func aKnownMethodInAnotherCaseRoundTrips() throws {
        let imported = try Importer.read(
            Data("curl -X POsT http://localhost/".utf8), name: "t", place: "t", format: .curl,
            readFile: { _ in Data() })
        let method = try #require(imported.commands.first { $0 is MethodCommand })
        #expect(method.line == "method 'POsT'")
        #expect(try CommandParser.parse(method.line)?.isEqual(to: method) == true)
        #expect(try CommandParser.parse("method post")?.line == "method POST")
    }

    @Test func aBOMIsTolerated() throws {
        let plain = try Importer.read(Self.corpora.appendingPathComponent("har/mitmproxy/har_files/postdata.har").path)
        let bom = try Importer.read(Self.corpora.appendingPathComponent("har/mitmproxy/har_files/with-bom.har").path)
        #expect(bom.requests == plain.requests)
    }

    @Test(arguments: [
        "collection-v2.json", "digest.json", "hawk.json", "nested-v2-collection.json",
        "nested-v2-collection-without-name.json", "oauth1.json",
    ])
    func aPostmanCollectionBecomesASessionFile(file: String) throws {
        let imported = try Importer.read(Self.corpora.appendingPathComponent("postman/\(file)").path)
        let session = try SessionFile.parse(imported.text, path: file)
        #expect(session.entries.filter { $0.command.sendsRequest }.count == imported.requests)
        #expect(imported.requests > 0)
        for secret in imported.secrets { #expect(!imported.text.contains(secret.value)) }
    }

    @Test func postmanFoldersVariablesAuthAndScriptsAreAccountedFor() throws {
        let collection = try Importer.read(Self.corpora.appendingPathComponent("postman/collection-v2.json").path)
        #expect(collection.text.contains("set var_1 = hello-world"))
        #expect(collection.text.contains("# folder: This is a folder"))
        #expect(collection.text.contains("auth draft basic yosam:{{password}}"))
        #expect(collection.notes.contains(.script(kind: "pre-request", scope: "the collection")))
        #expect(collection.notes.map(\.description).contains { $0.hasPrefix("hawk auth of request") })
        let digest = try Importer.read(Self.corpora.appendingPathComponent("postman/digest.json").path)
        #expect(digest.notes.map(\.description).contains { $0.hasPrefix("digest auth of") })
    }

    @Test func credentialsInAHARBecomeReferences() throws {
        let file = NSTemporaryDirectory() + "fathom-cred-\(UUID().uuidString).har"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try
            #"{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"http://api.test/me","headers":[{"name":"Authorization","value":"Bearer har-Secret-8c1d"},{"name":"Cookie","value":"sid=har-Cookie-51aa"},{"name":":authority","value":"api.test"}]}}]}}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try Importer.read(file)
        #expect(!imported.text.contains("har-Secret-8c1d") && !imported.text.contains("har-Cookie-51aa"))
        #expect(imported.text.contains("header Authorization: {{authorization}}"))
        #expect(imported.text.contains("header Cookie: {{cookie}}"))
        #expect(imported.text.contains("FATHOM_SECRET_AUTHORIZATION, FATHOM_SECRET_COOKIE"))
        #expect(!imported.text.contains(":authority"))
        #expect(imported.secrets.map(\.value) == ["Bearer har-Secret-8c1d", "sid=har-Cookie-51aa"])
    }

    /// Fields named like credentials — in the query, a form, a JSON body — are references too,
    /// as `save` writes a password typed into a request.
    @Test func credentialFieldsInBodiesAndQueriesBecomeReferences() throws {
        let file = NSTemporaryDirectory() + "fathom-fields-\(UUID().uuidString).har"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try
            #"{"log":{"version":"1.2","entries":[{"request":{"method":"POST","url":"http://api.test/login?api_key=k-3f9a21&page=2","headers":[],"postData":{"mimeType":"application/json","text":"{\"username\":\"ada\",\"password\":\"pw-71c2e9\"}"}}},{"request":{"method":"POST","url":"http://api.test/form","headers":[],"postData":{"mimeType":"application/x-www-form-urlencoded","params":[{"name":"client_secret","value":"cs-0a8b7c"},{"name":"scope","value":"read"}]}}}]}}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try Importer.read(file)
        for value in ["k-3f9a21", "pw-71c2e9", "cs-0a8b7c"] { #expect(!imported.text.contains(value)) }
        #expect(imported.text.contains("path http://api.test/login?api_key={{api_key}}&page=2"))
        #expect(imported.text.contains(#"{"username":"ada","password":"{{password}}"}"#))
        #expect(imported.text.contains("body form client_secret={{client_secret}} scope=read"))
        #expect(Set(imported.secrets.map(\.name)) == ["api_key", "password", "client_secret"])
    }

    /// The client settings a curl line asks for are the session's, as at the prompt; a proxy's
    /// password is a reference like any credential.
    @Test func curlsClientSettingsAreWritten() throws {
        let imported = try Importer.read(
            Data("curl -k -L --max-redirs 7 --max-time 2.5 -x me:prx-9d31@127.0.0.1:3128 https://api.test/a".utf8),
            name: "pasted", place: "the paste", format: .curl)
        #expect(!imported.text.contains("prx-9d31"))
        let lines = imported.text.split(separator: "\n").map(String.init)
        for line in [
            "insecure on", "redirects 7", "timeout 2500ms", "proxy http://me:{{proxy_password}}@127.0.0.1:3128",
        ] {
            #expect(lines.contains(line), "\(imported.text)")
        }
        #expect(imported.secrets.map(\.name) == ["proxy_password"])
        _ = try SessionFile.parse(imported.text, path: "pasted.fathom")
    }

    @Test func badInputIsOneClearError() throws {
        let broken = Self.corpora.appendingPathComponent("har/mitmproxy/corrupted_har/brokenfile.har").path
        let error = #expect(throws: CommandError.self) { try Importer.read(broken, format: .har) }
        #expect(error?.message.contains("brokenfile.har:") == true)
        #expect(error?.message.contains("not valid JSON") == true)
        let file = NSTemporaryDirectory() + "fathom-bad-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try #"{"info":{"schema":"https://schema.getpostman.com/json/collection/v1.0.0/"},"item":[]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let version = #expect(throws: CommandError.self) { try Importer.read(file) }
        #expect(version?.message.contains("another version") == true)
        try #"{"log":{"version":"1.2","entries":[{"request":{"url":"x"}}]"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        let truncated = #expect(throws: CommandError.self) { try Importer.read(file, format: .har) }
        #expect(truncated?.message.contains("not valid JSON") == true)
    }
}
