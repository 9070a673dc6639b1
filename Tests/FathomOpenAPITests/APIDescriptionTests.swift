import FathomJSON
import FathomTestSupport
import Foundation
import Testing

@testable import FathomOpenAPI

/// The OpenAPI corpus (Tests/Corpora/openapi): every OAI example, the Swagger Petstore v3 and
/// Twilio's API load; the path tree lists exactly their paths; every operation can be described.
@Suite struct APIDescriptionTests {
    static let root = TestCorpora.folder("openapi")

    static let files = [
        "oai-examples/v3.0/petstore.yaml", "oai-examples/v3.0/petstore.json",
        "oai-examples/v3.0/petstore-expanded.yaml",
        "oai-examples/v3.0/petstore-expanded.json", "oai-examples/v3.0/api-with-examples.yaml",
        "oai-examples/v3.0/api-with-examples.json", "oai-examples/v3.0/callback-example.yaml",
        "oai-examples/v3.0/callback-example.json", "oai-examples/v3.0/link-example.yaml",
        "oai-examples/v3.0/link-example.json", "oai-examples/v3.0/uspto.yaml", "oai-examples/v3.0/uspto.json",
        "oai-examples/v3.1/webhook-example.json", "oai-examples/v3.1/non-oauth-scopes.json",
        "swagger-petstore-v3/openapi.yaml", "twilio/twilio_api_v2010.json", "twilio/twilio_api_v2010.yaml",
    ]

    static func load(_ file: String) throws -> APIDescription {
        try APIDescription(data: try Data(contentsOf: root.appendingPathComponent(file)), name: file)
    }

    /// Every path template reachable by walking the tree from the root, as `ls` and `cd` would.
    static func walk(_ api: APIDescription, _ path: String = "") -> [String] {
        guard let listing = api.listing(at: path.isEmpty ? "/" : path) else { return [] }
        var found = listing.isDeclared ? [path.isEmpty ? "/" : path] : []
        for child in listing.children { found += walk(api, path + "/" + child.name) }
        return found
    }

    @Test(arguments: files)
    func loadsListsAndDescribes(file: String) throws {
        let api = try Self.load(file)
        let declared =
            api.document["paths"].map { paths -> [String] in
                if case .object(let members) = paths { return members.map(\.key) }
                return []
            } ?? []
        let walked = Self.walk(api)
        #expect(
            walked.count == declared.count && Set(walked) == Set(declared), "ls walks to exactly the declared paths")
        for operation in api.operations {
            #expect(api.operation(method: operation.method, path: operation.path) != nil)
            for parameter in operation.parameters { _ = api.summary(of: parameter.schema) }
            for media in operation.requestBody?.content ?? [] { #expect(!api.summary(of: media.schema).isEmpty) }
            for response in operation.responses {
                for media in response.content { #expect(!api.summary(of: media.schema).isEmpty) }
            }
            _ = api.exampleBody(for: operation)
        }
    }

    @Test func countsWhatTheCorpusSays() throws {
        #expect(try Self.load("oai-examples/v3.0/petstore.yaml").operations.count == 3)
        #expect(try Self.load("swagger-petstore-v3/openapi.yaml").operations.count == 19)
        let twilio = try Self.load("twilio/twilio_api_v2010.json")
        #expect(twilio.operations.count == 197)
        #expect(twilio.paths.count == 121)
        #expect(try Self.load("twilio/twilio_api_v2010.yaml").operations.count == 197)
        let petstore = try Self.load("oai-examples/v3.0/petstore.yaml")
        #expect(petstore.title == "Swagger Petstore" && petstore.servers == ["http://petstore.swagger.io/v1"])
        #expect(petstore.operation(method: "GET", path: "/pets/42")?.operationID == "showPetById")
        #expect(petstore.operation(id: "listPets")?.title == "GET /pets")
        #expect(petstore.relativePath("/v1/pets/42") == "/pets/42")
        // Server variables at their defaults.
        #expect(try Self.load("oai-examples/v3.0/uspto.yaml").servers.first == "https://developer.uspto.gov/ds-api")
    }

    @Test func refusesWhatItCannotReadNamingThePlace() throws {
        let swagger = #expect(throws: DescriptionError.self) {
            try APIDescription(data: Data(#"{"swagger": "2.0", "paths": {}}"#.utf8), name: "old.json")
        }
        #expect(swagger?.message.hasPrefix("old.json is a Swagger 2.0 description") == true)
        let broken = #expect(throws: DescriptionError.self) {
            try APIDescription(
                data: Data(
                    """
                    openapi: 3.0.3
                    info: {title: t, version: "1"}
                    paths:
                      /pets:
                        get:
                          summary: no responses
                    """.utf8), name: "broken.yaml")
        }
        #expect(
            broken?.message
                == "broken.yaml: paths./pets: Expected to find `responses` key for the GET endpoint under `/pets` but it is missing",
            "\(String(describing: broken))")
        #expect(broken?.isStructural == true && swagger?.isStructural == false)
        let cut = #expect(throws: DescriptionError.self) {
            try APIDescription(data: Data("{\"openapi\": ".utf8), name: "cut.json")
        }
        #expect(cut?.message.hasPrefix("cut.json is not valid JSON: ") == true, "\(String(describing: cut))")
        #expect(throws: DescriptionError.self) { try APIDescription(data: Data("a: [".utf8), name: "cut.yaml") }
        // YAML's flow style opens with `{` too, and is read as the YAML it is.
        let flow = try APIDescription(
            data: Data(#"{openapi: 3.0.3, info: {title: flow, version: "1"}, paths: {}}"#.utf8), name: "flow.yaml")
        #expect(flow.title == "flow")
    }

    /// 3.1's boolean schemas pass the structure check wherever JSON Schema allows them (OpenAPIKit
    /// alone refuses some), and mean what they say when responses are checked.
    @Test func booleanSchemasLoadAndValidate() throws {
        let text = #"""
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
             "paths": {"/a": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
               {"type": "object", "properties": {"any": true, "never": false}, "patternProperties": {"^x-": false},
                "allOf": [true, {"$ref": "#/components/schemas/Anything"}], "$defs": {"d": true}, "not": false}}}}}}}},
             "components": {"schemas": {"Anything": true}}}
            """#
        let api = try APIDescription(data: Data(text.utf8), name: "booleans.json")
        let operation = try #require(api.operations.first)
        func check(_ body: String) -> [String] {
            api.validateResponse(status: 200, contentType: "application/json", body: Data(body.utf8), for: operation)
                .map(\.description)
        }
        #expect(check(#"{"any": [1, {"b": null}]}"#).isEmpty)
        #expect(check(#"{"never": 1}"#).count == 1)
        #expect(check(#"{"x-y": 1}"#).count == 1)
        // 3.0 has no boolean schemas: the structure check still says so.
        let thirty = text.replacingOccurrences(of: "3.1.0", with: "3.0.3")
        #expect(throws: DescriptionError.self) { try APIDescription(data: Data(thirty.utf8), name: "booleans.json") }
        #expect(BooleanSchemas.asObjects(in: try JSON(parsing: Data(#"{"paths": {}}"#.utf8))) == nil)
    }

    /// Bodies are read as their media type has them: JSON parsed, text as a string (or the number
    /// it holds), XML as a string only for a schema of strings; XML against an object schema,
    /// binary and forms are not read, so they break nothing.
    @Test func bodiesAreReadAsTheirMediaTypeHasThem() throws {
        let api = try Self.load("swagger-petstore-v3/openapi.yaml")
        let getPet = try #require(api.operation(id: "getPetById"))
        func check(_ type: String, _ body: String, _ operation: APIOperation) -> [String] {
            api.validateResponse(status: 200, contentType: type, body: Data(body.utf8), for: operation).map(
                \.description)
        }
        #expect(check("application/xml", "<pet><id>1</id><name>x</name></pet>", getPet).isEmpty)
        #expect(check("application/json", #"{"id": 1, "photoUrls": []}"#, getPet).count == 1)
        #expect(check("application/json", "<pet/>", getPet) == ["$: the body is not valid JSON"])
        #expect(check("application/json; charset=utf-8", "", getPet) == ["$: expected a body, got none"])

        let text = try APIDescription(
            data: Data(
                #"""
                {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/count": {"post": {
                  "requestBody": {"content": {"application/octet-stream": {"schema": {"type": "object"}},
                                              "application/x-www-form-urlencoded": {"schema": {"type": "object", "required": ["a"],
                                                "properties": {"n": {"type": "integer", "minimum": 1}, "on": {"type": "boolean"},
                                                               "tags": {"type": "array", "items": {"type": "integer"}}}}}}},
                  "responses": {"200": {"description": "ok", "content": {
                    "text/plain": {"schema": {"type": "integer"}},
                    "application/xml": {"schema": {"type": "string", "maxLength": 5}}}}}}}}}
                """#.utf8), name: "text.json")
        let count = try #require(text.operations.first)
        #expect(check("text/plain", "42", count).isEmpty)
        #expect(check("text/plain", "many", count) == ["$: expected integer, got string"])
        #expect(check("application/xml", "<a>long text</a>", count).count == 1)
        func request(_ type: String, _ body: Data) -> [String] {
            text.checkRequest(count, path: "/count", query: [], headers: [], contentType: type, body: body)
        }
        #expect(request("application/octet-stream", Data([0xFF, 0x00, 0x7B])).isEmpty)
        // A form is the object of its fields, each read as its property's type says.
        let form = "application/x-www-form-urlencoded"
        #expect(request(form, Data("a=x+y&n=3&on=true&tags=1&tags=2".utf8)).isEmpty)
        #expect(
            request(form, Data("n=0&on=maybe&tags=one".utf8)).sorted() == [
                "body $.n: expected ≥ 1, got 0",
                "body $.on: expected boolean, got string",
                "body $.tags[0]: expected integer, got string",
                "body $: missing required property 'a'",
            ])
    }

    /// A media type is matched by type and subtype, parameters ignored on either side (RFC 9110):
    /// a description that declares `application/json; charset=utf-8` checks what is sent and what
    /// answers as `application/json`, and a body of a type it does not declare is a problem.
    @Test func mediaTypesMatchWithoutTheirParameters() throws {
        let api = try APIDescription(
            data: Data(
                """
                openapi: 3.0.3
                info: {title: t, version: "1"}
                paths:
                  /items:
                    post:
                      requestBody:
                        content:
                          application/json; charset=utf-8:
                            schema: {type: object, required: [name], properties: {name: {type: string}}}
                      responses:
                        "200":
                          description: ok
                          content:
                            Application/JSON; charset=utf-8:
                              schema: {type: object, required: [id]}
                """.utf8), name: "params.yaml")
        let post = try #require(api.operations.first)
        let answer = { (type: String, body: String) in
            api.validateResponse(status: 200, contentType: type, body: Data(body.utf8), for: post).map(\.description)
        }
        #expect(answer("application/json", #"{"id": 1}"#).isEmpty)
        #expect(answer("application/json;charset=UTF-8", "{}") == ["$: missing required property 'id'"])
        let sent = { (type: String, body: String) in
            api.checkRequest(post, path: "/items", query: [], headers: [], contentType: type, body: Data(body.utf8))
        }
        #expect(sent("application/json", #"{"name": "x"}"#).isEmpty)
        #expect(sent("application/json", "{}") == ["body $: missing required property 'name'"])
        #expect(
            sent("text/plain", "x") == [
                "content type text/plain is not declared for the body (declared: application/json; charset=utf-8)"
            ])
        let example = try #require(api.exampleBody(for: post))
        #expect(example.value.formatted(.compactText) == #"{"name":"string"}"# + "\n")
    }

    /// Integer bounds beyond Int64 (OpenAI's `seed`) are valid JSON Schema: the description loads
    /// with no structure problem, in YAML and JSON, and they are compared exactly.
    @Test(arguments: ["json", "yaml"])
    func integersBeyondInt64AreKeptExact(format: String) throws {
        let schema = #"{"type": "integer", "minimum": -18446744073709552000, "maximum": 18446744073709552000}"#
        let text =
            format == "json"
            ? #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/seed": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": \#(schema)}}}}}}}}"#
            : """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /seed: {get: {responses: {"200": {description: ok, content: {application/json: {schema: \(schema)}}}}}}
            """
        let api = try APIDescription(data: Data(text.utf8), name: "big.\(format)", checkStructure: false)
        #expect(api.structureProblems().isEmpty)
        let operation = try #require(api.operations.first)
        let check = { (body: String) in
            api.validateResponse(status: 200, contentType: "application/json", body: Data(body.utf8), for: operation)
                .map(\.description)
        }
        #expect(check("18446744073709551999").isEmpty)
        #expect(check("-18446744073709552000").isEmpty)
        #expect(check("18446744073709552001") == ["$: expected ≤ 18446744073709552000, got 18446744073709552001"])
    }

    /// The most specific template wins, whatever the order the description declares them in: a
    /// literal segment before a template, `{id}.json` before `{id}`.
    @Test func theMostSpecificTemplateWins() throws {
        let api = try APIDescription(
            data: Data(
                """
                openapi: 3.0.3
                info: {title: t, version: "1"}
                paths:
                  /files/{id}: {get: {operationId: bare, responses: {"200": {description: ok}}}}
                  /files/{id}.json: {get: {operationId: suffixed, responses: {"200": {description: ok}}}}
                  /{kind}/latest: {get: {operationId: anyLatest, responses: {"200": {description: ok}}}}
                  /files/latest: {get: {operationId: latest, responses: {"200": {description: ok}}}}
                  /v{major}/files: {get: {operationId: versioned, responses: {"200": {description: ok}}}}
                  /{a}/{b}: {get: {operationId: two, responses: {"200": {description: ok}}}}
                """.utf8), name: "templates.yaml")
        let id = { (path: String) in api.operation(method: "GET", path: path)?.operationID }
        #expect(id("/files/7.json") == "suffixed")
        #expect(id("/files/7") == "bare")
        #expect(id("/files/latest") == "latest")
        #expect(id("/users/latest") == "anyLatest")
        #expect(id("/v2/files") == "versioned")
        #expect(id("/x/y") == "two")
        #expect(id("/files/{id}.json") == "suffixed")
        #expect(api.listing(at: "/files/7.json") != nil)
    }

    /// An array parameter's items are checked one by one: each value of a repeated query
    /// parameter, each comma-separated part of a path or header value.
    @Test func arrayParametersAreCheckedItemByItem() throws {
        let api = try APIDescription(
            data: Data(
                #"""
                {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/items/{ids}": {"get": {
                  "parameters": [
                    {"name": "ids", "in": "path", "required": true, "schema": {"type": "array", "items": {"type": "integer"}}},
                    {"name": "state", "in": "query", "schema": {"type": "array", "items": {"type": "string", "enum": ["open", "shut"]}}}],
                  "responses": {"200": {"description": "ok"}}}}}}
                """#.utf8), name: "arrays.json")
        let operation = try #require(api.operations.first)
        func problems(_ path: String, _ query: [(name: String, value: String?)]) -> [String] {
            api.checkRequest(operation, path: path, query: query, headers: [], contentType: nil, body: nil)
        }
        #expect(problems("/items/1,2,3", [("state", "open"), ("state", "shut")]).isEmpty)
        #expect(problems("/items/1,x", []) == ["path parameter 'ids' is 'x', expected an integer"])
        #expect(
            problems("/items/1", [("state", "open"), ("state", "ajar")]) == [
                "query parameter 'state' is 'ajar', expected one of open, shut"
            ])
    }

    /// A schema that contains itself: summaries, examples and validation all end.
    @Test func circularReferencesEnd() throws {
        let api = try APIDescription(
            data: Data(
                #"""
                {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                 "paths": {"/nodes": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}},
                   "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}}},
                 "components": {"schemas": {"Node": {"type": "object", "required": ["name"],
                   "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}}}
                """#.utf8), name: "tree.json")
        let operation = try #require(api.operations.first)
        let schema = operation.requestBody?.content.first?.schema
        let summary = api.summary(of: schema)
        #expect(summary.hasPrefix("Node { name: string"), "\(summary)")
        #expect(api.exampleBody(for: operation)?.value == .object([JSON.Member(key: "name", value: .string("string"))]))
        let body = Data(#"{"name": "a", "children": [{"name": "b", "children": [{"name": 3}]}]}"#.utf8)
        let violations = api.validateResponse(status: 200, contentType: "application/json", body: body, for: operation)
        #expect(violations.map(\.description) == ["$.children[0].children[0].name: expected string, got integer 3"])
        #expect(
            api.validateResponse(status: 404, contentType: nil, body: Data(), for: operation).map(\.description) == [
                "$: status 404 is not declared for POST /nodes (declared: 200)"
            ])
    }
}
