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

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ name: String) { lock.withLock { list.append(name) } }
        var names: [String] { lock.withLock { list } }
    }
}
