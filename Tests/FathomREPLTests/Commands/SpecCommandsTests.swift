import FathomDemo
import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation
import Testing

@testable import FathomREPL

/// `spec`, `ls`, `describe`, `op`, `validate`, `expect schema`, `body example` and `spec
/// coverage` on a MockTransport, against the demo API's own description.
@Suite struct SpecCommandsTests {
    /// A session with the demo's description loaded and a transport that answers `/users/1` with
    /// `user` (a user, or something that breaks the schema).
    static func session(
        user: String = #"{"id": 1, "name": "Ada", "email": "ada@example.com", "role": "admin", "active": true}"#
    )
        throws -> (Executor, MockTransport, String)
    {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID()).json").path
        try Data(DemoOpenAPI.json.utf8).write(to: URL(fileURLWithPath: file))
        let transport = MockTransport()
        transport.register("/users/1", .json(user))
        transport.register("/users", .json(#"{"data": [], "page": 1, "per_page": 10, "total": 0, "total_pages": 1}"#))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        return (executor, transport, file)
    }

    /// A session with the base set and the demo's description loaded from `file`.
    static func loaded() async throws -> (Executor, MockTransport, String) {
        let (executor, transport, file) = try session()
        _ = await executor.run("base http://api.test")
        _ = await executor.run("spec \(file)")
        return (executor, transport, file)
    }

    /// The line a failed command's failure renders as, if it failed.
    static func failure(_ result: CommandResult) -> String? {
        guard case .failure(let failure)? = result.outputs.first else { return nil }
        return ErrorRenderer().line(failure)
    }

    static func texts(_ result: CommandResult) -> String {
        let renderer = OutputRenderer(palette: Palette(enabled: false), redactor: Redactor())
        return result.outputs.map { renderer.render($0).text }.joined()
    }

    @Test func loadsAndSaysWhatIsLoaded() async throws {
        let (executor, _, file) = try Self.session()
        _ = await executor.run("base http://api.test")
        let loaded = await executor.run("spec \(file)")
        #expect(loaded.outcome == .succeeded)
        #expect(Self.texts(loaded).hasPrefix("loaded Fathom demo API 1.0.0 (OpenAPI 3.1.0, "))
        #expect(Self.texts(await executor.run("spec")).contains("32 operations on 21 paths"))
        // A description that does not load leaves the loaded one in place.
        let broken = await executor.run("spec /nonexistent/api.yaml")
        #expect(broken.outcome == .failed)
        #expect(Self.texts(await executor.run("spec")).contains("Fathom demo API"))
    }

    @Test func lsWalksLikeADirectoryFromTheDraftsPath() async throws {
        let (executor, _, _) = try await Self.loaded()
        let top = Self.texts(await executor.run("ls"))
        #expect(top.contains("users/") && top.contains("openapi.json ") && top.contains("index"))
        _ = await executor.run("cd users")
        let users = Self.texts(await executor.run("ls"))
        #expect(users.contains("listUsers") && users.contains("createUser") && users.contains("{id}/"))
        #expect(Self.texts(await executor.run("ls {id}")).contains("getUser"))
        #expect(Self.texts(await executor.run("ls 42/todos")).contains("listTodos"), "a concrete id walks a template")
        #expect(await executor.run("ls /nowhere").outcome == .failed)
    }

    @Test func describeShowsParametersBodiesResponsesAndSecurity() async throws {
        let (executor, _, _) = try await Self.loaded()
        let text = Self.texts(await executor.run("describe createUser"))
        #expect(text.hasPrefix("POST /users  createUser\nAdd a user"))
        #expect(
            text.contains(
                #"application/json  NewUser { name: string, email: string(email), role?: "member"|"admin", active?: boolean }"#
            ))
        #expect(text.contains("  422  An RFC 9457 problem"))
        #expect(text.contains("security  bearer"))
        let listing = Self.texts(await executor.run("describe GET /users"))
        #expect(listing.contains("query  page      integer") && listing.contains("default 1"))
        // The draft's operation by default; an unknown id names the closest.
        _ = await executor.run("path /users/7")
        #expect(Self.texts(await executor.run("describe")).hasPrefix("GET /users/{id}  getUser"))
        let typo = await executor.run("describe getUsr")
        #expect(Self.failure(typo) == "error: no operation 'getUsr' — did you mean 'getUser'?")
    }

    @Test func opFillsPathParametersAndRoutesItems() async throws {
        let (executor, transport, _) = try await Self.loaded()
        let sent = await executor.run("op getUser id=1")
        #expect(sent.outcome == .succeeded)
        #expect(transport.requests.last?.url.path == "/users/1")
        _ = await executor.run("op listUsers role=admin per_page=5")
        #expect(transport.requests.last?.url.query == "role=admin&per_page=5")
        // A path parameter from a variable of the same name.
        _ = await executor.run("set id 1")
        _ = await executor.run("op getUser")
        #expect(transport.requests.last?.url.path == "/users/1")
        _ = await executor.run("unset id")
        let missing = await executor.run("op getUser")
        #expect(missing.outcome == .failed)
        #expect(Self.texts(missing) == "error: getUser needs path parameter 'id' — give id=VALUE, or `set id VALUE`\n")
    }

    @Test func everyResponseIsCheckedAndExpectSchemaAssertsIt() async throws {
        let (executor, _, file) = try Self.session(
            user: #"{"id": 1, "name": "Ada", "email": null, "role": "queen", "active": true, "extra": 1}"#)
        _ = await executor.run("base http://api.test")
        _ = await executor.run("spec \(file)")
        let response = await executor.run("get /users/1")
        let text = Self.texts(response)
        #expect(text.contains("· schema ✗ 3"))
        #expect(text.contains("  ✗ $.email: expected string, got null"))
        #expect(text.contains(#"  ✗ $.role: expected one of "admin", "member", got "queen""#))
        #expect(text.contains("  ✗ $.extra: unexpected property: the schema allows no other properties"))
        let expectation = await executor.run("expect schema")
        #expect(expectation.outcome == .checkFailed)
        guard case .expectation(let output)? = expectation.outputs.first else {
            Issue.record("expected an expectation")
            return
        }
        #expect(output.result.expected == "a response that keeps GET /users/{id}'s schema")
        #expect(output.result.actual.hasPrefix("3 violations: $.email: expected string, got null; "))
        // A good response passes, and `--output json` carries the check.
        let good = await executor.run("get /users")
        #expect(Self.texts(good).contains("· schema ✓"))
        #expect(await executor.run("expect schema").outcome == .succeeded)
        guard case .response(let output)? = good.outputs.last else {
            Issue.record("expected a response")
            return
        }
        let json = JSONOutputRenderer(redactor: Redactor()).render(.response(output))
        #expect(json.contains(#""schema":{"operation":"GET /users","valid":true,"violations":[]}"#))
    }

    @Test func requestsAreCheckedBeforeTheyGo() async throws {
        let (executor, transport, _) = try await Self.loaded()
        let warned = Self.texts(await executor.run("get /users rle==admin page==0"))
        #expect(warned.contains("warning: unknown query parameter 'rle' for GET /users — did you mean 'role'?"))
        #expect(warned.contains("warning: query parameter 'page' is '0': expected ≥ 1, got 0"))
        #expect(transport.requests.count == 1, "warnings send")
        _ = await executor.run("validate strict")
        let refused = await executor.run("get /users role=king")
        #expect(refused.outcome == .failed)
        let strict = await executor.run("get /users role==king")
        #expect(strict.outcome == .failed)
        #expect(transport.requests.count == 1, "strict sends nothing")
        let anonymous = await executor.run("post /users name=Grace email=grace@example.com")
        #expect(
            Self.texts(anonymous).contains(
                "error: not sent: POST /users needs credentials (bearer) and the request sends none"))
        _ = await executor.run("auth bearer t0ken-for-spec")
        let body = await executor.run("post /users name=Grace")
        #expect(
            Self.failure(body)
                == "error: not sent: body $: missing required property 'email' — `validate warn` sends it anyway")
        _ = await executor.run("validate off")
        #expect(await executor.run("get /users rle==x").outcome == .succeeded)
    }

    /// `validate strict` names every problem (up to 20), not the first "and 2 more".
    @Test func strictNamesEveryProblem() async throws {
        let (executor, transport, _) = try await Self.loaded()
        _ = await executor.run("validate strict")
        let refused = await executor.run("get /users rle==admin page==0 per_page==0")
        let line = try #require(Self.failure(refused))
        #expect(line.contains("unknown query parameter 'rle'"))
        #expect(line.contains("query parameter 'page' is '0'"))
        #expect(line.contains("query parameter 'per_page' is '0'"))
        #expect(!line.contains("more"))
        #expect(transport.requests.isEmpty)
        #expect(CommandError.notSent((1...25).map { "p\($0)" }).message.hasSuffix("p20; and 5 more"))
    }

    /// `op` with a parameter the operation does not take says so, with the closest one.
    @Test func anUnknownOpParameterIsNamed() async throws {
        let (executor, transport, _) = try await Self.loaded()
        let result = await executor.run("op getUser idd=2")
        #expect(result.outcome == .failed)
        #expect(Self.failure(result)?.contains("getUser has no parameter 'idd' — did you mean 'id'?") == true)
        #expect(transport.requests.isEmpty)
    }

    /// The description checks requests to its API only: another origin is neither refused nor marked.
    @Test func anotherOriginIsNotChecked() async throws {
        let (executor, transport, _) = try await Self.loaded()
        transport.register("/anything", .json("{}"))
        _ = await executor.run("validate strict")
        let elsewhere = await executor.run("get http://other.test/anything")
        #expect(elsewhere.outcome == .succeeded, "\(elsewhere.outputs)")
        #expect(!Self.texts(elsewhere).contains("schema"))
    }

    @Test func bodyExampleFillsTheDraftFromTheOperation() async throws {
        let (executor, _, _) = try await Self.loaded()
        _ = await executor.run("method POST")
        _ = await executor.run("path /login")
        _ = await executor.run("body example")
        #expect(Self.texts(await executor.run("body")).contains(#""username": "ada""#), "the operation's own example")
        _ = await executor.run("path /users")
        _ = await executor.run("body example")
        let made = Self.texts(await executor.run("body"))
        #expect(made.contains(#""name": "Grace Hopper""#) && made.contains(#""email": "grace@example.com""#))
        #expect(!made.contains("role"), "only the required fields")
        _ = await executor.run("path /echo/x")
        #expect(await executor.run("body example").outcome == .failed)
    }

    /// A body `body example` made is a placeholder, not a credential: sent, its `password`
    /// becomes no secret, so the word is not masked in later output. One the person types is.
    @Test func anExampleBodyMakesNoSecret() async throws {
        let (executor, transport, _) = try await Self.loaded()
        transport.register("/login", .json(#"{"token": "t"}"#))
        _ = await executor.run("method POST")
        _ = await executor.run("path /login")
        _ = await executor.run("body example")
        #expect(await executor.run("send").outcome != .failed)
        #expect(executor.redactor.redact("difference-engine") == "difference-engine")
        _ = await executor.run("post /login username=ada password=typed-by-hand")
        #expect(!executor.redactor.redact("typed-by-hand").contains("typed-by-hand"))
    }

    /// A description read from a file causes no network traffic: a `$ref` to a URL in it is one
    /// error saying how to allow it, and the line changes nothing; `spec --remote` reads it.
    @Test func aFileDescriptionReadsNoURLUnlessAsked() async throws {
        let (executor, transport, _) = try Self.session()
        transport.register("/schemas/pet.json", .json(#"{"type": "object", "required": ["id"]}"#))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("remote-\(UUID()).yaml").path
        try Data(
            """
            openapi: 3.0.3
            info: {title: Remote, version: "1"}
            paths:
              /pets:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {schema: {$ref: "http://api.test/schemas/pet.json"}}}}
            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = await executor.run("base http://api.test")
        let refused = await executor.run("spec \(file)")
        #expect(refused.outcome == .failed)
        #expect(Self.texts(refused).contains("spec --remote FILE"))
        #expect(transport.requests.isEmpty, "nothing was sent")
        #expect(
            Self.texts(await executor.run("spec")).hasPrefix("no description loaded"), "the failed line loaded nothing")
        let allowed = await executor.run("spec --remote \(file)")
        #expect(allowed.outcome != .failed, "\(Self.texts(allowed))")
        #expect(transport.requests.map(\.url.path) == ["/schemas/pet.json"])
        #expect(
            SpecCommand(action: .load(file, .init(remote: true, maxDocuments: 3))).line.hasPrefix(
                "spec --remote --max-documents 3 "))
        #expect(await executor.run("spec --max-documents 0 \(file)").outcome == .failed)
    }

    @Test func coverageListsCalledAndNotCalled() async throws {
        let (executor, _, _) = try await Self.loaded()
        _ = await executor.run("get /users/1")
        _ = await executor.run("get /users")
        let text = Self.texts(await executor.run("spec coverage"))
        // Paths are padded to the longest (`/accounts/{id}/withdraw`).
        #expect(text.contains("✓ GET /users/{id}               seen 200  (declared 200, 404)"))
        #expect(text.contains("· DELETE /users/{id}            not called"))
        #expect(text.contains("2 of 32 operations called"))
    }

    @Test func completionKnowsTheDescription() async throws {
        let (executor, _, _) = try await Self.loaded()
        await executor.updateSnapshot(after: await executor.run("set id 3"))
        let completer = Completer(values: executor.feeds.snapshot.current, listFiles: { _ in [] })
        #expect(completer.complete("get /users/").candidates.contains("/users/{{id}}"))
        #expect(completer.complete("op getU").candidates == ["getUser "])
        #expect(Set(completer.complete("op get").candidates) == ["getUser ", "getAccount "])
        #expect(completer.complete("spec --r").candidates == ["--remote "])
        #expect(Set(completer.complete("get /users ").candidates).isSuperset(of: ["page==", "per_page==", "role=="]))
        #expect(completer.complete("get /users role==a").candidates == ["role==admin "])
        #expect(Set(completer.complete("post /users ").candidates).isSuperset(of: ["name=", "email=", "active:="]))
        #expect(completer.complete("op getUser ").candidates.contains("id="))
        #expect(completer.complete("post /users role=m").candidates == ["role=member "])
    }

    /// An environment's `"spec"` (relative to its file) is loaded by `env use`; one that does not
    /// load leaves the session as it was.
    @Test func anEnvironmentLoadsItsDescription() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(DemoOpenAPI.json.utf8).write(to: URL(fileURLWithPath: directory + "/api.json"))
        try Data(
            #"{"dev": {"base": "http://api.test", "spec": "api.json"}, "bad": {"base": "http://b.test", "spec": "missing.yaml"}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: directory + "/fathom.env.json"))
        let executor = Executor(
            options: .init(
                environmentPaths: [directory + "/fathom.env.json"], dotEnvPath: nil, environment: [:],
                transport: MockTransport()))
        #expect(await executor.run("env use dev").outcome == .succeeded)
        #expect(Self.texts(await executor.run("spec")).contains("Fathom demo API"))
        #expect(await executor.run("env use bad").outcome == .failed)
        #expect(Self.texts(await executor.run("base")).contains("http://api.test"), "the failed switch changed nothing")
    }

    /// A secret that comes back in a value breaking the schema is masked in the violation too:
    /// on the status line, in `expect schema`, and in `--output json`.
    @Test func aSecretInAViolationIsMasked() async throws {
        let planted = "sk-planted-in-schema-9f2c"
        let (executor, _, file) = try Self.session(
            user: #"{"id": 1, "name": "Ada", "email": 7, "role": "\#(planted)", "active": true}"#)
        _ = await executor.run("base http://api.test")
        _ = await executor.run("spec \(file)")
        _ = await executor.run("secret key = \(planted)")
        let response = await executor.run("get /users/1")
        let expectation = await executor.run("expect schema")
        let renderer = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor)
        let text = (response.outputs + expectation.outputs).map { renderer.render($0).text }.joined()
        #expect(text.contains("$.role: expected one of"))
        let json = (response.outputs + expectation.outputs).map {
            JSONOutputRenderer(redactor: executor.redactor).render($0)
        }
        .joined()
        #expect(!text.contains(planted) && !json.contains(planted))
    }

    /// A key in a description's URL is a secret: masked in the notice and saved by name.
    @Test func aKeyInTheDescriptionsURLIsNeverShownOrSaved() async throws {
        let planted = "planted-spec-key-5e1d"
        let (executor, transport, _) = try Self.session()
        transport.register("/openapi.json", .json(DemoOpenAPI.json))
        _ = await executor.run("base http://api.test")
        let loaded = await executor.run("spec http://api.test/openapi.json?api_key=\(planted)")
        #expect(loaded.outcome == .succeeded)
        let renderer = OutputRenderer(palette: Palette(enabled: false), redactor: executor.redactor)
        let text = loaded.outputs.map { renderer.render($0).text }.joined()
        #expect(text.hasPrefix("loaded Fathom demo API") && !text.contains(planted))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID()).fathom").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = await executor.run("save \(file)")
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.contains("spec http://api.test/openapi.json?api_key=") && !saved.contains(planted))
    }

    /// A description with structure problems loads at once; the check's findings come as one
    /// notice, `spec problems` lists them in order, and `validate strict` refuses only the
    /// operations they touch.
    @Test func structureProblemsAreANoticeAListAndStrictRefusesWhatTheyTouch() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).yaml").path
        try Data(
            """
            openapi: 3.0.3
            info: {title: Broken, version: "1"}
            paths:
              /a:
                get:
                  parameters:
                    - {name: q}
                  responses: {"200": {description: ok}}
              /b:
                get:
                  responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Bad"}}}}}
              /c:
                get:
                  responses: {"200": {description: ok}}
            components:
              schemas:
                Bad: {type: 12}
            """.utf8
        ).write(to: URL(fileURLWithPath: file))
        let transport = MockTransport()
        transport.register("/", .json("{}"))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        _ = await executor.run("base http://api.test")
        let loaded = await executor.run("spec \(file)")
        #expect(loaded.outcome == .succeeded, "it loads: \(Self.texts(loaded))")

        let listed = Self.texts(await executor.run("spec problems"))
        #expect(listed.contains("paths./a.get.parameters.0: Expected to find `in` key but it is missing"), "\(listed)")
        #expect(listed.contains("components.schemas.Bad.type:"))
        #expect(listed.contains("2 structure problems in"))

        _ = await executor.run("spec \(file)")
        await executor.finishStructureChecks()
        let notices = await executor.takeNotices()
        #expect(notices.count == 1)
        let rendered = notices.map {
            OutputRenderer(palette: Palette(enabled: false), redactor: Redactor()).render($0).text
        }
        #expect(
            rendered.first?.contains(
                "Broken: OpenAPIKit's structure check found 2 problems, the first at paths./a.get.parameters.0") == true
        )

        _ = await executor.run("validate strict")
        let refusedA = await executor.run("get /a")
        #expect(refusedA.outcome == .failed)
        #expect(Self.texts(refusedA).contains("the description's structure has problems at GET /a"))
        #expect(await executor.run("get /b").outcome == .failed, "its schema $ref reaches the broken one")
        #expect(await executor.run("get /c").outcome == .succeeded)
    }
}
