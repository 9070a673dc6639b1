import FathomJSON
import FathomTestSupport
import Foundation
import Testing

@testable import FathomOpenAPI

/// What `body example` makes is valid against the schema it is made from: a property over every
/// schema in the OpenAPI corpus (each request body and each component schema), and over schemas
/// written to break a generator (deep `$ref` chains, bounds, patterns, `allOf`).
@Suite struct GeneratedExampleTests {
    /// Each schema of a description a generated example is checked against: request bodies by
    /// their operation and media type, component schemas by name.
    static func schemas(of api: APIDescription) -> [(place: String, schema: JSON)] {
        var found: [(String, JSON)] = []
        for operation in api.operations {
            for media in operation.requestBody?.content ?? [] {
                if let schema = media.schema { found.append(("\(operation.title) \(media.name)", schema)) }
            }
        }
        if case .object(let schemas)? = api.document["components"]?["schemas"] {
            for schema in schemas { found.append(("#/components/schemas/\(schema.key)", schema.value)) }
        }
        return found
    }

    static func violations(_ api: APIDescription, _ schema: JSON) -> [String] {
        let example = api.example(of: schema)
        return api.validator.with(direction: .request).validate(example, against: schema).map(\.description)
    }

    @Test(arguments: APIDescriptionTests.files)
    func everyGeneratedExampleIsValid(file: String) throws {
        let api = try APIDescriptionTests.load(file)
        var failures: [String] = []
        for (place, schema) in Self.schemas(of: api) {
            let found = Self.violations(api, schema)
            if !found.isEmpty { failures.append("\(place): \(found.joined(separator: "; "))") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Schemas each written to break a generator as real descriptions did: a value past six
    /// `$ref`s, `"string"` against a pattern or `maxLength`, `""` against `minLength`, `{}`
    /// against `minProperties`, `allOf` beside the schema's own properties, an enum wrapped in
    /// `allOf`, bounds, counts, and an author's example that breaks its own schema.
    static let hostile: [String: String] = [
        "chain": ##"{"$ref": "#/components/schemas/L1"}"##,
        "pattern": ##"{"type": "string", "pattern": "^(ac|AC)[0-9a-f]{32}$"}"##,
        "shortMax": ##"{"type": "string", "maxLength": 3}"##,
        "growablePattern": ##"{"type": "string", "pattern": "^[a-z]+$", "minLength": 8}"##,
        "longMin": ##"{"type": "string", "minLength": 70}"##,
        "minProperties": ##"{"type": "object", "minProperties": 2, "properties": {"a": {"type": "integer"}}}"##,
        "allOfOwn": ##"""
        {"allOf": [{"$ref": "#/components/schemas/Base"}], "type": "object", "required": ["own"],
         "properties": {"own": {"type": "string", "minLength": 1}}}
        """##,
        "wrappedEnum": ##"{"allOf": [{"$ref": "#/components/schemas/Color"}], "description": "a color"}"##,
        "bounds": ##"""
        {"type": "object", "required": ["a", "b", "c", "d", "e"], "properties": {
          "a": {"type": "integer", "minimum": 5, "exclusiveMinimum": true},
          "b": {"type": "integer", "maximum": -3},
          "c": {"type": "number", "multipleOf": 0.25, "minimum": 1.1},
          "d": {"type": "integer", "multipleOf": 7, "minimum": 1, "maximum": 20},
          "e": {"type": "array", "minItems": 5, "uniqueItems": true, "items": {"type": "string"}}}}
        """##,
        "staleExample":
            ##"{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}, "example": {"id": "seven"}}"##,
        "oneOf":
            ##"{"oneOf": [{"type": "string", "maxLength": 2, "minLength": 3}, {"type": "integer", "minimum": 2}]}"##,
    ]

    static let hostileDescription: String = {
        var schemas = hostile.map { "\"\($0.key)\": \($0.value)" }
        for level in 1..<12 {
            schemas.append(
                ##""L\##(level)": {"type": "object", "required": ["next"], "properties": {"next": {"$ref": "#/components/schemas/L\##(level + 1)"}}}"##
            )
        }
        schemas.append(##""L12": {"type": "string", "pattern": "^deep-[0-9]+$"}"##)
        schemas.append(
            ##""Base": {"type": "object", "required": ["base"], "properties": {"base": {"type": "boolean"}}}"##)
        schemas.append(##""Color": {"type": "string", "enum": ["red", "green"]}"##)
        return
            ##"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {"##
            + schemas.joined(separator: ",\n") + "}}}"
    }()

    @Test func schemasThatBrokeTheGeneratorDoNot() throws {
        let api = try APIDescription(data: Data(Self.hostileDescription.utf8), name: "hostile.json")
        for name in Self.hostile.keys.sorted() {
            let schema = try #require(api.document["components"]?["schemas"]?[name])
            #expect(Self.violations(api, schema).isEmpty, "\(name): \(api.example(of: schema).formatted(.compactText))")
        }
        let chain = api.example(of: try #require(api.document["components"]?["schemas"]?["chain"]))
        var deepest = chain
        for _ in 1..<12 { deepest = deepest["next"] ?? .null }
        #expect(deepest == .string("deep-0"), "twelve $refs down, a value, not null")
        let wrapped = api.example(of: try #require(api.document["components"]?["schemas"]?["wrappedEnum"]))
        #expect(wrapped == .string("red"))
        let own = api.example(of: try #require(api.document["components"]?["schemas"]?["allOfOwn"]))
        #expect(own["own"] != nil && own["base"] != nil)
        let stale = api.example(of: try #require(api.document["components"]?["schemas"]?["staleExample"]))
        #expect(stale["id"] == .number("0"), "the author's example breaks the schema: made instead")
    }
}
