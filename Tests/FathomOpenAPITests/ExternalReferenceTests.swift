import FathomJSON
import Foundation
import Testing

@testable import FathomOpenAPI

/// Descriptions split over several files: the documents their `$ref`s name are read once each,
/// relative to the document that names them, and everything reads them as local components.
@Suite struct ExternalReferenceTests {
    /// A description in a temporary folder: `files` by relative path.
    final class Folder {
        let url: URL

        init(_ files: [String: String]) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-refs-\(UUID().uuidString)")
            for (path, text) in files {
                let file = url.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func load(_ root: String = "openapi.yaml") async throws -> APIDescription {
            let file = url.appendingPathComponent(root)
            return try await APIDescription(data: try Data(contentsOf: file), name: root, location: file)
        }
    }

    static let split: [String: String] = [
        "openapi.yaml": """
        openapi: 3.0.3
        info: {title: Split, version: "1"}
        paths:
          /users:
            $ref: paths/users.yaml
          /users/{id}:
            get:
              operationId: getUser
              parameters:
                - $ref: "parameters.yaml#/UserID"
              responses:
                "200":
                  description: A user
                  content:
                    application/json:
                      schema: {$ref: "schemas/user.yaml"}
        components:
          schemas:
            Error: {type: object, properties: {message: {type: string}}}
        """,
        "paths/users.yaml": """
        get:
          operationId: listUsers
          parameters:
            - {name: role, in: query, schema: {$ref: "../schemas/role.yaml"}}
          responses:
            "200":
              description: Users
              content:
                application/json:
                  schema: {type: array, items: {$ref: "../schemas/user.yaml"}}
            "400":
              description: Bad
              content:
                application/json:
                  schema: {$ref: "../openapi.yaml#/components/schemas/Error"}
        """,
        "parameters.yaml": """
        UserID: {name: id, in: path, required: true, schema: {type: integer}}
        """,
        "schemas/user.yaml": """
        type: object
        required: [id, name]
        properties:
          id: {type: integer}
          name: {type: string}
          role: {$ref: "role.yaml"}
          manager: {$ref: "#/properties/id"}
        """,
        "schemas/role.yaml": """
        type: string
        enum: [admin, member]
        """,
    ]

    @Test func operationsParametersAndSchemasComeFromTheFilesTheyName() async throws {
        let folder = try Folder(Self.split)
        let api = try await folder.load()
        #expect(api.operationIDs == ["listUsers", "getUser"])
        #expect(api.documents == ["paths/users.yaml", "parameters.yaml", "schemas/user.yaml", "schemas/role.yaml"])
        let list = try #require(api.operation(id: "listUsers"))
        #expect(list.parameters.map(\.name) == ["role"])
        #expect(api.enumValues(of: list.parameters[0]) == ["admin", "member"])
        let get = try #require(api.operation(id: "getUser"))
        #expect(get.parameters.map(\.name) == ["id"] && get.parameters[0].required)
        let summary = api.summary(of: get.responses.first?.content.first?.schema)
        #expect(summary == #"schemas/user.yaml { id: integer, name: string, role?: schemas/role.yaml, manager?: id }"#)
    }

    @Test func responsesAreCheckedAgainstSchemasInOtherFiles() async throws {
        let folder = try Folder(Self.split)
        let api = try await folder.load()
        let list = try #require(api.operation(id: "listUsers"))
        let body = Data(
            #"[{"id": 1, "name": "Ada", "role": "admin", "manager": 2}, {"id": 2, "role": "boss", "manager": "x"}]"#
                .utf8)
        let violations = api.validateResponse(status: 200, contentType: "application/json", body: body, for: list)
        #expect(
            violations.map(\.description).sorted() == [
                "$[1].manager: expected integer, got string",
                #"$[1].role: expected one of "admin", "member", got "boss""#,
                "$[1]: missing required property 'name'",
            ])
        // A `$ref` back into the root names the root's own component.
        let bad = Data(#"{"message": 7}"#.utf8)
        #expect(
            api.validateResponse(status: 400, contentType: "application/json", body: bad, for: list).map(\.description)
                == ["$.message: expected string, got integer 7"])
    }

    @Test func documentsThatNameEachOtherAreReadOnceAndEnd() async throws {
        let folder = try Folder([
            "openapi.json": """
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
             "paths": {"/a": {"get": {"responses": {"200": {"description": "ok",
               "content": {"application/json": {"schema": {"$ref": "a.json"}}}}}}}}}
            """,
            "a.json": #"{"type": "object", "properties": {"b": {"$ref": "b.json"}}}"#,
            "b.json": #"{"type": "object", "properties": {"a": {"$ref": "./a.json"}, "n": {"type": "integer"}}}"#,
        ])
        let counter = Counter()
        let file = folder.url.appendingPathComponent("openapi.json")
        let api = try await APIDescription(data: try Data(contentsOf: file), name: "openapi.json", location: file) {
            url in
            counter.add(url.lastPathComponent)
            return try Data(contentsOf: url)
        }
        #expect(counter.names == ["a.json", "b.json"])
        let operation = try #require(api.operations.first)
        let body = Data(#"{"b": {"a": {"b": {"n": "deep"}}}}"#.utf8)
        #expect(
            api.validateResponse(status: 200, contentType: "application/json", body: body, for: operation).map(
                \.description) == ["$.b.a.b.n: expected integer, got string"])
        let summary = api.summary(of: operation.responses.first?.content.first?.schema, expand: 3)
        #expect(summary.contains("n?: integer"), "\(summary)")
    }

    /// `$ref` keys in examples, defaults, enums and consts are data (an API that serves JSON
    /// Schemas has them): not read, not rewritten. A member *named* `default` — a response, a
    /// property — is not data.
    @Test func refsInExampleDataAreLeftAloneAndMembersNamedDefaultAreNot() async throws {
        let folder = try Folder([
            "openapi.yaml": """
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /schemas/{id}:
                get:
                  responses:
                    "200":
                      description: A stored schema
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              default: {$ref: "common.yaml#/Flag"}
                              body:
                                type: object
                                default: {$ref: "missing-default.json"}
                                enum: [{$ref: "missing-enum.json"}]
                                example: {$ref: "missing-example.json"}
                            examples: [{body: {$ref: "missing-schema-example.json"}}]
                          examples:
                            stored: {value: {body: {$ref: "missing-value.json"}}}
                            shared: {$ref: "common.yaml#/Example"}
                    default: {$ref: "common.yaml#/Error"}
            """,
            "common.yaml": """
            Flag: {type: boolean}
            Error: {description: An error, content: {application/json: {schema: {type: object, required: [message]}}}}
            Example: {value: {$ref: "missing-shared-value.json"}}
            """,
        ])
        let api = try await folder.load()
        #expect(api.documents == ["common.yaml"])
        let operation = try #require(api.operations.first)
        #expect(operation.responses.map(\.status) == ["200", "default"])
        #expect(operation.responses.last?.description == "An error")
        func check(_ status: Int, _ body: String) -> [String] {
            api.validateResponse(status: status, contentType: "application/json", body: Data(body.utf8), for: operation)
                .map(\.description)
        }
        #expect(check(200, #"{"default": "yes"}"#) == ["$.default: expected boolean, got string"])
        #expect(check(500, "{}") == ["$: missing required property 'message'"])
        let media = api.document["paths"]?["/schemas/{id}"]?["get"]?["responses"]?["200"]?["content"]?[
            "application/json"]
        #expect(
            media?["schema"]?["properties"]?["body"]?["example"]?["$ref"]?.string == "missing-example.json",
            "data stays as written")
        #expect(media?["examples"]?["stored"]?["value"]?["body"]?["$ref"]?.string == "missing-value.json")
    }

    /// A discriminator's mapping may name files too (split descriptions write it so): those are
    /// read and pointed at like any `$ref`, and the discriminator picks the schema they hold.
    @Test func aDiscriminatorsMappingToOtherFilesIsFollowed() async throws {
        let folder = try Folder([
            "openapi.yaml": """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /pets/{id}:
                get:
                  responses:
                    "200":
                      description: A pet
                      content:
                        application/json:
                          schema:
                            oneOf: [{$ref: "pets/dog.yaml"}, {$ref: "pets/cat.yaml"}]
                            discriminator:
                              propertyName: kind
                              mapping: {dog: pets/dog.yaml, cat: "./pets/cat.yaml", bird: "#/components/schemas/Bird"}
            components:
              schemas:
                Bird: {type: object, required: [kind, wings], properties: {kind: {type: string}, wings: {type: integer}}}
            """,
            "pets/dog.yaml":
                "{type: object, required: [kind, bark], properties: {kind: {type: string}, bark: {type: boolean}}}",
            "pets/cat.yaml":
                "{type: object, required: [kind, meow], properties: {kind: {type: string}, meow: {type: boolean}}}",
        ])
        let api = try await folder.load()
        let operation = try #require(api.operations.first)
        func check(_ body: String) -> [String] {
            api.validateResponse(status: 200, contentType: "application/json", body: Data(body.utf8), for: operation)
                .map(\.description)
        }
        #expect(check(#"{"kind": "dog", "bark": true}"#).isEmpty)
        #expect(check(#"{"kind": "cat", "meow": false}"#).isEmpty)
        #expect(check(#"{"kind": "bird", "wings": 2}"#).isEmpty)
        #expect(check(#"{"kind": "dog", "bark": "loud"}"#) == ["$.bark: expected boolean, got string"])
        #expect(ExternalReferences.isMappingReference("Dog") == false)
    }

    @Test func filesWithTheSameNameInDifferentFoldersStayApart() async throws {
        let folder = try Folder([
            "openapi.yaml": """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /a:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {schema: {$ref: "v1/item.yaml"}}}}
              /b:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {schema: {$ref: "v2/item.yaml"}}}}
            """,
            "v1/item.yaml": "type: integer",
            "v2/item.yaml": "type: string",
        ])
        let api = try await folder.load()
        let a = try #require(api.operation(method: "GET", path: "/a"))
        let b = try #require(api.operation(method: "GET", path: "/b"))
        #expect(
            api.validateResponse(status: 200, contentType: "application/json", body: Data("1".utf8), for: a).isEmpty)
        #expect(
            api.validateResponse(status: 200, contentType: "application/json", body: Data("1".utf8), for: b).count == 1)
    }

    @Test func aDocumentThatCannotBeReadIsOneErrorNamingTheRefAndItsPlace() async throws {
        // A root whose one response schema is `reference`, beside `files`.
        func folder(_ reference: String, _ files: [String: String] = [:]) throws -> Folder {
            try Folder(
                files.merging([
                    "openapi.yaml": """
                    openapi: 3.0.3
                    info: {title: t, version: "1"}
                    paths:
                      /pets:
                        get:
                          responses:
                            "200": {description: ok, content: {application/json: {schema: {$ref: "\(reference)"}}}}
                    """
                ]) { $1 })
        }
        await #expect {
            try await folder("schemas/pet.yaml#/Pet").load()
        } throws: { error in
            "\(error)"
                == "openapi.yaml: cannot read schemas/pet.yaml (the $ref 'schemas/pet.yaml#/Pet' at paths./pets.get.responses.200.content.application/json.schema): no such file"
        }
        await #expect {
            try await folder("broken.yaml", ["broken.yaml": "type: [unterminated"]).load()
        } throws: { error in
            "\(error)".hasPrefix("broken.yaml is not valid YAML")
        }
    }

    @Test func withoutALocationOtherDocumentsAreNotRead() throws {
        let text = #"""
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
             "paths": {"/a": {"$ref": "paths/a.json"}}}
            """#
        let api = try APIDescription(data: Data(text.utf8), name: "t.json")
        #expect(api.operations.isEmpty)
        #expect(api.document[ExternalReferences.member] == nil)
    }

    /// Example data anywhere — a media type's `examples`, `components.examples`, a schema's
    /// `example` — is data: a `$ref` in it naming a URL is never fetched, and a schema *named*
    /// `example` in `components.schemas` is a schema, whose `$ref`s are followed.
    @Test func exampleDataIsNeverFetched() async throws {
        let folder = try Folder([
            "openapi.yaml": """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /a:
                get:
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: {$ref: "#/components/schemas/example"}
                          examples: {inline: {value: {$ref: "https://example.invalid/inline.json"}}}
            components:
              schemas:
                example: {$ref: "common.yaml#/Thing"}
              examples:
                shared:
                  value: {$ref: "https://example.invalid/shared.json"}
                another:
                  summary: data that looks like a reference
                  value: {nested: [{$ref: "http://127.0.0.1:9/never"}]}
            """,
            "common.yaml": "Thing: {type: object, required: [id]}",
        ])
        let counter = Counter()
        let file = folder.url.appendingPathComponent("openapi.yaml")
        let api = try await APIDescription(data: try Data(contentsOf: file), name: "openapi.yaml", location: file) {
            url in
            counter.add(url.absoluteString)
            return try await ExternalReferences.readFile(url)
        }
        #expect(counter.names.map { URL(string: $0)!.lastPathComponent } == ["common.yaml"])
        let operation = try #require(api.operations.first)
        #expect(
            api.validateResponse(status: 200, contentType: "application/json", body: Data("{}".utf8), for: operation)
                .map(\.description) == ["$: missing required property 'id'"])
    }

    /// An operation written as a `$ref` to another file (DigitalOcean's layout), or to a part of
    /// this one, is the operation it names: its responses, body and parameters, checked by the
    /// structure check where it is used, with no problem for the `$ref` itself.
    @Test func anOperationByRefIsTheOperationItNames() async throws {
        let folder = try Folder([
            "openapi.yaml": """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /droplets:
                get: {$ref: "resources/droplets/list.yml"}
                post: {$ref: "resources/droplets/create.yml"}
              /volumes: {$ref: "paths/volumes.yml"}
              /local:
                get: {$ref: "#/x-operations/local"}
            x-operations:
              local: {operationId: local, responses: {"204": {description: none}}}
            """,
            "resources/droplets/list.yml": """
            operationId: droplets_list
            parameters: [{$ref: "../../common/parameters.yml#/per_page"}]
            responses:
              "200":
                description: Droplets
                content: {application/json: {schema: {$ref: "models/droplet.yml"}}}
            """,
            "resources/droplets/create.yml": """
            operationId: droplets_create
            requestBody:
              required: true
              content: {application/json: {schema: {$ref: "models/droplet.yml"}}}
            responses: {"202": {description: Accepted}}
            """,
            "resources/droplets/models/droplet.yml": """
            type: object
            required: [name]
            properties: {name: {type: string, examples: [web-1]}, status: {type: string, enum: [new, active, off]}}
            """,
            "common/parameters.yml": "per_page: {name: per_page, in: query, schema: {type: integer, minimum: 1}}",
            "paths/volumes.yml": """
            get: {$ref: "../resources/volumes/list.yml"}
            """,
            "resources/volumes/list.yml": """
            operationId: volumes_list
            responses: {"200": {description: Volumes}}
            """,
        ])
        let api = try await folder.load()
        #expect(api.operationIDs == ["droplets_list", "droplets_create", "volumes_list", "local"])
        let list = try #require(api.operation(id: "droplets_list"))
        #expect(list.parameters.map(\.name) == ["per_page"])
        #expect(list.responses.map(\.status) == ["200"])
        #expect(
            api.validateResponse(
                status: 200, contentType: "application/json", body: Data(#"{"status": "off"}"#.utf8), for: list
            ).map(\.description) == ["$: missing required property 'name'"])
        let create = try #require(api.operation(id: "droplets_create"))
        #expect(api.exampleBody(for: create)?.value.formatted(.compactText) == #"{"name":"web-1"}"# + "\n")
        #expect(api.structureProblems().isEmpty)
    }

    /// How many documents a description may bring in is a bound the caller sets; the default
    /// takes DigitalOcean's 2,850.
    @Test func theDocumentBoundIsTheCallers() async throws {
        let folder = try Folder([
            "openapi.yaml": """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths: {/a: {$ref: "a.yaml"}}
            """,
            "a.yaml":
                #"get: {responses: {"200": {description: ok, content: {application/json: {schema: {$ref: "b.yaml"}}}}}}"#,
            "b.yaml": "type: integer",
        ])
        let file = folder.url.appendingPathComponent("openapi.yaml")
        await #expect {
            try await APIDescription(
                data: try Data(contentsOf: file), name: "openapi.yaml", location: file, documentLimit: 2)
        } throws: { error in
            "\(error)" == "openapi.yaml: its $refs reach more than 2 documents (`spec --max-documents N` allows more)"
        }
        let api = try await APIDescription(
            data: try Data(contentsOf: file), name: "openapi.yaml", location: file, documentLimit: 3)
        #expect(api.documents == ["a.yaml", "b.yaml"])
        #expect(APIDescription.defaultDocumentLimit >= 2_850)
    }

    /// A split description the size of DigitalOcean's: 3,000 files, every operation by `$ref`,
    /// loads whole, and the structure check finds nothing to say.
    @Test func aSplitDescriptionOfThreeThousandFilesLoadsWhole() async throws {
        var files: [String: String] = [:]
        var paths = ""
        for n in 0..<1_000 {
            paths += "  /things\(n)/{id}: {$ref: \"paths/things\(n).yml\"}\n"
            files["paths/things\(n).yml"] = """
                get: {$ref: "../operations/get\(n).yml"}
                """
            files["operations/get\(n).yml"] = """
                operationId: get\(n)
                parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                responses:
                  "200": {description: ok, content: {application/json: {schema: {$ref: "../models/thing\(n).yml"}}}}
                """
            files["models/thing\(n).yml"] = """
                type: object
                required: [id]
                properties: {id: {type: integer}, next: {$ref: "thing\((n + 1) % 1_000).yml"}}
                """
        }
        files["openapi.yaml"] = "openapi: 3.0.3\ninfo: {title: Big, version: \"1\"}\npaths:\n" + paths
        let folder = try Folder(files)
        let api = try await folder.load()
        #expect(api.documents.count == 3_000)
        #expect(api.operations.count == 1_000)
        let last = try #require(api.operation(method: "GET", path: "/things999/7"))
        #expect(last.operationID == "get999")
        #expect(
            api.validateResponse(
                status: 200, contentType: "application/json", body: Data(#"{"id": 1, "next": {}}"#.utf8), for: last
            ).map(\.description) == ["$.next: missing required property 'id'"])
        #expect(api.structureProblems().isEmpty)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ name: String) { lock.withLock { list.append(name) } }
        var names: [String] { lock.withLock { list } }
    }
}
