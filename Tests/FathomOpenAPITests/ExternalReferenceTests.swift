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
        let folder = try Folder([
            "openapi.yaml": """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /pets:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {schema: {$ref: "schemas/pet.yaml#/Pet"}}}}
            """,
            "broken.yaml": "type: [unterminated",
        ])
        await #expect {
            try await folder.load()
        } throws: { error in
            "\(error)"
                == "openapi.yaml: cannot read schemas/pet.yaml (the $ref 'schemas/pet.yaml#/Pet' at paths./pets.get.responses.200.content.application/json.schema): no such file"
        }
        let broken = try Folder([
            "openapi.yaml": """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /pets:
                get:
                  responses:
                    "200": {description: ok, content: {application/json: {schema: {$ref: "broken.yaml"}}}}
            """,
            "broken.yaml": "type: [unterminated",
        ])
        await #expect {
            try await broken.load()
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
