import FathomDemo
import FathomTestSupport
import Foundation
import Testing

/// Working from an API description with the built binary, against the demo API on loopback.
@Suite struct OpenAPITests {
    /// Every operation of the demo's own description, called for real: each response keeps its
    /// schema, and the coverage says all of them were called.
    @Test func theDemoAPIsRealResponsesKeepItsDescription() throws {
        let run = try FathomBinary.run(
            ["--demo", "--color", "never"],
            script: """
                get /
                expect schema
                post /login username=ada password=difference-engine
                expect schema
                let token = $.token
                post /login username=ada password=wrong
                expect schema
                method POST
                path /oauth/token
                body form grant_type=client_credentials client_id=fathom-demo client_secret=demo-client-secret
                send
                expect schema
                body form grant_type=password
                send
                expect schema
                get /me
                expect schema
                auth bearer {{token}}
                get /me
                expect schema
                get /users role==admin per_page==3
                expect schema
                post /users name=Grace email=grace@example.com
                expect schema
                post /users name=Nobody email=nowhere
                expect schema
                get /users/2
                expect schema
                get /users/9999
                expect schema
                put /users/2 name=Grace email=hopper@example.com
                expect schema
                patch /users/2 active:=false
                expect schema
                get /users/1/todos
                expect schema
                post /users/1/todos title=Write
                expect schema
                delete /users/3
                expect schema
                get /accounts/2
                expect schema
                post /accounts/2/withdraw amount:=60
                expect schema
                post /accounts/2/withdraw amount:=60
                expect status 409
                expect schema
                put /accounts/2 balance:=100
                expect schema
                get /events count==2 ms==0
                expect schema
                expect events == 2
                get /stream count==2 ms==0
                expect schema
                get /echo page==1
                expect schema
                post /echo note=hi
                expect schema
                put /echo note=hi
                expect schema
                patch /echo note=hi
                expect schema
                delete /echo
                expect schema
                get /slow ms==5
                expect schema
                get /status/204
                expect schema
                get /status/418
                expect schema
                get /redirect/2
                expect schema
                get /large mb==0.05
                expect schema
                get /gzip
                expect schema
                get /openapi.json
                expect schema
                post /logout
                expect schema
                put /upload data=streamed
                expect schema
                post /upload data=streamed
                expect schema
                ws /ws
                close
                spec coverage
                spec
                """)
        #expect(run.status == 0, "\(run.stdout.suffix(3000))\(run.stderr)")
        #expect(!run.stdout.contains("schema ✗"))
        #expect(run.stdout.contains("32 of 32 operations called"))
        #expect(run.stdout.contains("The demo's OpenAPI description is loaded"))
        #expect(run.stdout.contains("Fathom demo API 1.0.0 (OpenAPI 3.1.0, "))
    }

    /// A description that says otherwise than the server: the violations, by path, on the status
    /// line and in `expect schema`; `validate strict` sends nothing; replay fails and reports it.
    @Test func aResponseThatBreaksItsSchemaIsReportedAndFailsReplay() throws {
        let server = try DemoServerProcess(accessLog: true)
        let directory = NSTemporaryDirectory() + "fathom-openapi-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The demo's description with a user whose email is an integer and whose role is "owner".
        let strict = DemoOpenAPI.json
            .replacingOccurrences(
                of: #""email": {"type": "string", "format": "email", "examples": ["grace@example.com"]},"#,
                with: #""email": {"type": "integer"},"#, options: [], range: nil
            )
            .replacingOccurrences(
                of: #""role": {"type": "string", "enum": ["admin", "member"]},"#,
                with: #""role": {"type": "string", "enum": ["owner"]},"#)
        let spec = directory + "/api.yaml"
        try strict.write(toFile: spec, atomically: true, encoding: .utf8)

        let run = try FathomBinary.run(
            ["--spec", spec, "--color", "never", server.baseURL],
            script: """
                get /users/1
                expect schema
                validate strict
                get /users rle==admin
                """)
        #expect(run.status == 1)
        #expect(run.stdout.contains("· schema ✗ 2"), "\(run.stdout)")
        #expect(run.stdout.contains("  ✗ $.email: expected integer, got string"))
        #expect(run.stdout.contains(#"  ✗ $.role: expected one of "owner", got "admin""#))
        #expect(
            run.stderr.contains(
                "✗ expect schema — expected a response that keeps GET /users/{id}'s schema, got 2 violations: $.email: expected integer, got string; "
            ), "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "error: not sent: unknown query parameter 'rle' for GET /users — did you mean 'role'? — `validate warn` sends it anyway"
            ))
        #expect(server.takeRequests().count == 1, "strict validation sent nothing")

        // Replay with the description: the broken schema fails the request (its `expect schema`
        // says nothing more), JUnit says why, and --coverage lists what was called.
        let session = directory + "/users.fathom"
        try "base \(server.baseURL)\nget /users/1\nexpect schema\nget /users\nexpect schema\n".write(
            toFile: session, atomically: true, encoding: .utf8)
        let replay = try FathomBinary.run(
            [
                "replay", "--spec", spec, "--coverage", "--continue-on-error", "--junit", directory + "/junit.xml",
                session,
            ])
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("the response breaks the schema of GET /users/{id} (2 violations):"))
        #expect(!replay.stdout.contains("expect schema — expected"), "said once")
        #expect(replay.stdout.contains("✗ GET /users/1  200 OK") && replay.stdout.contains("schema ✗ 2"))
        #expect(replay.stdout.contains("✓ GET /users/{id}") && replay.stdout.contains("2 of 32 operations called"))
        let junit = try String(contentsOfFile: directory + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("$.email: expected integer, got string"))
        // FILE:LINE first, as every failure's message has it.
        #expect(
            junit.contains(
                #".fathom:2: the response breaks the schema of GET /users/{id} (2 violations):" type="schema">"#)
        )

        // No `expect schema` in the file: the description alone fails it — unless `--schema warn`,
        // where the line says `!`, never ✓, and every violation still shows.
        let plain = directory + "/plain.fathom"
        try "base \(server.baseURL)\nget /users/1\n".write(toFile: plain, atomically: true, encoding: .utf8)
        let failing = try FathomBinary.run(["replay", "--spec", spec, plain])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("✗ GET /users/1") && failing.stdout.contains("$.email: expected integer"))
        let warned = try FathomBinary.run(["replay", "--spec", spec, "--schema", "warn", plain])
        #expect(warned.status == 0)
        #expect(warned.stdout.contains("! GET /users/1") && !warned.stdout.contains("✓ GET /users/1"))
        #expect(warned.stdout.contains("$.email: expected integer, got string"))

        let json = try FathomBinary.run(["--spec", spec, "--output", "json", server.baseURL], script: "get /users/1\n")
        let line = json.stdout.split(separator: "\n").first { $0.contains(#""type":"response""#) } ?? ""
        #expect(
            line.contains(#""schema":{"operation":"GET /users/{id}","valid":false,"violations":[{"path":"$.email""#))
    }

    /// A description split over files: read from disk or over HTTP, each `$ref` relative to the
    /// document that writes it; the schemas in other files check the demo's real responses.
    @Test func aDescriptionSplitOverFilesIsReadWholeFromDiskOrOverHTTP() throws {
        let demo = try DemoServerProcess()
        let files = [
            "api/openapi.yaml": """
            openapi: 3.0.3
            info: {title: Split demo, version: "1"}
            paths:
              /users/{id}:
                $ref: "paths/user.yaml"
            """,
            "api/paths/user.yaml": """
            get:
              operationId: getUser
              parameters:
                - $ref: "../common.yaml#/components/parameters/UserID"
              responses:
                "200":
                  description: A user
                  content:
                    application/json:
                      schema: {$ref: "../schemas/user.yaml"}
            """,
            "api/common.yaml": """
            components:
              parameters:
                UserID: {name: id, in: path, required: true, schema: {type: integer}}
            """,
            "api/schemas/user.yaml": """
            type: object
            required: [id, name]
            properties:
              id: {type: integer}
              name: {type: string}
              role: {$ref: "role.yaml"}
            """,
            "api/schemas/role.yaml": "type: string\nenum: [owner]\n",
        ]
        let directory = NSTemporaryDirectory() + "fathom-openapi-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (path, text) in files {
            let file = directory + "/" + path
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let server = try FaultServer { path, _ in
            guard let text = files[String(path.dropFirst())] else { return .response("404 Not Found") }
            return .response(headers: ["Content-Type: application/yaml"], body: text)
        }
        defer { server.stop() }

        for source in ["\(directory)/api/openapi.yaml", "http://127.0.0.1:\(server.port)/api/openapi.yaml"] {
            let run = try FathomBinary.run(
                ["--color", "never", demo.baseURL],
                script: "spec \(source)\ndescribe getUser\nget /users/1\nexpect schema\n")
            #expect(
                run.stdout.contains("loaded Split demo 1 (OpenAPI 3.0.3, \(source) and 4 documents it names)"),
                "\(run.stdout)\(run.stderr)")
            #expect(run.stdout.contains("path   id*  integer"))
            #expect(run.stdout.contains(#"schemas/user.yaml { id: integer, name: string, role?: schemas/role.yaml }"#))
            #expect(run.stdout.contains(#"  ✗ $.role: expected one of "owner", got "admin""#), "\(run.stdout)")
            #expect(run.status == 1 && run.stderr.contains("✗ expect schema"))
        }
        #expect(server.requests.count == 5, "each document fetched once")

        // The session's credentials go to the server the description came from, not to another
        // one it names; and a description from a server reads no local file.
        let other = try FaultServer { path, _ in
            path == "/role.yaml" ? .response(body: "type: string\n") : .response("404 Not Found")
        }
        defer { other.stop() }
        let elsewhere = try FaultServer { path, _ in
            switch path {
            case "/openapi.yaml":
                return .response(
                    body: files["api/openapi.yaml"]!.replacingOccurrences(of: "Split demo", with: "Elsewhere"))
            case "/paths/user.yaml": return .response(body: files["api/paths/user.yaml"]!)
            case "/common.yaml": return .response(body: files["api/common.yaml"]!)
            case "/schemas/user.yaml":
                return .response(
                    body: files["api/schemas/user.yaml"]!.replacingOccurrences(
                        of: "role.yaml", with: "http://127.0.0.1:\(other.port)/role.yaml"))
            case "/local.yaml":
                return .response(
                    body:
                        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a: {$ref: 'file://\(directory)/api/paths/user.yaml'}\n"
                )
            default: return .response("404 Not Found")
            }
        }
        defer { elsewhere.stop() }
        let credentials = try FathomBinary.run(
            ["--color", "never"],
            script: """
                base http://127.0.0.1:\(elsewhere.port)
                auth bearer planted-token-8812
                spec http://127.0.0.1:\(elsewhere.port)/openapi.yaml
                spec http://127.0.0.1:\(elsewhere.port)/local.yaml
                """)
        #expect(credentials.stdout.contains("loaded Elsewhere 1"), "\(credentials.stdout)\(credentials.stderr)")
        #expect(elsewhere.requests.count == 5 && elsewhere.requests.allSatisfy { $0.contains("planted-token-8812") })
        #expect(other.requests.count == 1 && !other.requests[0].lowercased().contains("authorization"))
        #expect(
            credentials.stderr.contains(
                "error: local.yaml: cannot read \(directory)/api/paths/user.yaml (the $ref 'file://")
                && credentials.stderr.contains("at paths./a): a description read over HTTP reads no local file"),
            "\(credentials.stderr)")

        // A document that is not there: one error naming the $ref and its place; the session goes on.
        try FileManager.default.removeItem(atPath: directory + "/api/schemas/role.yaml")
        let missing = try FathomBinary.run(
            ["--color", "never"], script: "spec \(directory)/api/openapi.yaml\nset still here\nvars\n")
        #expect(
            missing.stderr.contains(
                "error: openapi.yaml: cannot read schemas/role.yaml (the $ref 'role.yaml' at properties.role in schemas/user.yaml): no such file"
            ), "\(missing.stderr)")
        #expect(missing.stdout.contains("still = here"))
    }

    /// A description with structure problems loads, and `spec problems` names each place; what is
    /// no OpenAPI description is one error, and the session goes on.
    @Test func aBrokenDescriptionLoadsAndItsProblemsAreListed() throws {
        let directory = NSTemporaryDirectory() + "fathom-openapi-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    get:\n      summary: s\n".write(
            toFile: directory + "/broken.yaml", atomically: true, encoding: .utf8)
        try #"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#.write(
            toFile: directory + "/old.json", atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(
            ["--color", "never"],
            script:
                "spec \(directory)/broken.yaml\nspec problems\nspec \(directory)/old.json\nspec\nset still here\nvars\n"
        )
        #expect(run.stdout.contains("broken.yaml): 1 operation on 1 path"), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "paths./pets: Expected to find `responses` key for the GET endpoint under `/pets` but it is missing"),
            "\(run.stdout)")
        #expect(run.stdout.contains("1 structure problem in \(directory)/broken.yaml, in its order"))
        #expect(run.stderr.contains("error: old.json is a Swagger 2.0 description: Fathom reads OpenAPI 3.0 and 3.1"))
        #expect(
            run.stdout.contains("t 1 (OpenAPI 3.0.3, \(directory)/broken.yaml)") && run.stdout.contains("still = here"))

        // A script that does not ask still hears of the problems: at its end, without failing.
        let quiet = try FathomBinary.run(["--color", "never", "-c", "spec \(directory)/broken.yaml"])
        #expect(quiet.status == 0)
        #expect(
            quiet.stdout.hasSuffix(
                "t: OpenAPIKit's structure check found 1 problem, the first at paths./pets: Expected to find `responses` key for the GET endpoint under `/pets` but it is missing — `spec problems` lists them; `validate strict` refuses the operations they touch\n"
            ), "\(quiet.stdout)")

        // 3.1's boolean schemas, which OpenAPIKit refuses in places, load and are checked.
        try
            #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/users/{id}": {"get": {"operationId": "pair", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": true, "email": false}, "allOf": [true], "not": false}}}}}}}}}"#
            .write(toFile: directory + "/booleans.json", atomically: true, encoding: .utf8)
        let demo = try DemoServerProcess()
        let booleans = try FathomBinary.run(
            ["--color", "never", demo.baseURL], script: "spec \(directory)/booleans.json\nget /users/1\n")
        #expect(booleans.stdout.contains("loaded t 1 (OpenAPI 3.1.0"), "\(booleans.stderr)")
        #expect(
            booleans.stdout.contains("schema ✗ 1") && booleans.stdout.contains("  ✗ $.email: "), "\(booleans.stdout)")

        // One OpenAPIKit refuses that Fathom can read (a server variable with no `default`): it
        // loads, and the check says why; `--lenient` is still taken.
        try
            #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "servers": [{"url": "http://127.0.0.1:{port}", "variables": {"port": {"enum": ["8080"]}}}], "paths": {"/pairs": {"get": {"operationId": "pairs", "responses": {"200": {"description": "ok"}}}}}}"#
            .write(toFile: directory + "/pairs.json", atomically: true, encoding: .utf8)
        let lenient = try FathomBinary.run(
            ["--color", "never"],
            script:
                "spec \(directory)/pairs.json\nspec problems\nspec --lenient \(directory)/pairs.json\ndescribe pairs\n")
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(
            lenient.stdout.contains(
                "servers.0.variables.port: Expected to find `default` key in Document.servers[0].variables.port but it is missing"
            ), "\(lenient.stdout)")
        #expect(lenient.stdout.contains("loaded t 1 (OpenAPI 3.1.0") && lenient.stdout.contains("GET /pairs  pairs"))
        #expect(lenient.stdout.contains("base http://127.0.0.1:8080 (from the description's servers, until you set"))
    }
}
