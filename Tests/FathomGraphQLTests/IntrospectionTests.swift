import FathomJSON
import Foundation
import GraphQL
import Testing

@testable import FathomGraphQL

@Suite struct IntrospectionTests {
    /// The introspection query's result for `sdl`, as a server running GraphQLSwift answers it.
    static func introspect(_ sdl: String) async throws -> JSON {
        let schema = try GraphQLDescription(sdl: sdl).graphQLSwiftSchema()
        let result = try await graphql(schema: schema, request: GraphQLDescription.introspectionQueries[0])
        #expect(result.errors.isEmpty, "\(result.errors)")
        return try JSON(parsing: try JSONEncoder().encode(result))
    }

    @Test func anIntrospectionResultBuildsTheSameSchema() async throws {
        let original = try GraphQLDescription(sdl: librarySDL)
        let rebuilt = try GraphQLDescription(introspection: try await Self.introspect(librarySDL))
        // The same lines, in the order the server lists types and fields.
        #expect(Self.lines(rebuilt.printed) == Self.lines(original.printed))
        #expect(rebuilt.counts == original.counts)
    }

    static func lines(_ sdl: String) -> [String] {
        sdl.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "}" }
            .sorted()
    }

    @Test func aResultMayBeTheWholeResponseOrItsData() async throws {
        let result = try await Self.introspect(librarySDL)
        let data = try #require(result["data"])
        #expect(
            try GraphQLDescription(introspection: data).printed == GraphQLDescription(introspection: result).printed)
    }

    /// A minimal introspection result with one field whose name, default and description are given.
    static func result(name: String = "a", defaultValue: String = "1", description: String = "") -> String {
        let quoted = { (text: String) in JSON.string(text).formatted(.compactText).trimmingCharacters(in: .newlines) }
        return """
            {"__schema": {"queryType": {"name": "Query"}, "directives": [], "types": [
              {"kind": "OBJECT", "name": "Query", "description": \(quoted(description)), "interfaces": [],
               "fields": [{"name": \(quoted(name)), "type": {"kind": "SCALAR", "name": "Int"},
                 "args": [{"name": "x", "type": {"kind": "SCALAR", "name": "Int"}, "defaultValue": \(quoted(defaultValue))}]}]}]}}
            """
    }

    /// Text from a server never becomes SDL of its own: names, defaults and descriptions that try
    /// to add a type are refused or written as strings.
    @Test func textInAResultCannotAddToTheSchema() throws {
        let plain = try GraphQLDescription(introspection: try JSON(parsing: Self.result()))
        #expect(plain.index["Query"]?.field("a")?.arguments.first?.defaultValue == "1")
        for hostile in [Self.result(name: "a: Int } type Evil { b"), Self.result(defaultValue: "1) b(y: Int = 2")] {
            #expect(throws: GraphQLSchemaError.self) {
                try GraphQLDescription(introspection: try JSON(parsing: hostile))
            }
        }
        let described = try GraphQLDescription(
            introspection: try JSON(parsing: Self.result(description: "\"\"\" type Evil { b: Int } \"\"\"\n\\")))
        #expect(described.index["Evil"] == nil)
        #expect(described.index["Query"]?.description == "\"\"\" type Evil { b: Int } \"\"\"\n\\")
    }

    @Test func aResultWithoutASchemaIsOneLine() {
        #expect(throws: GraphQLSchemaError("the introspection result has no __schema")) {
            try GraphQLDescription(
                introspection: try JSON(
                    parsing: #"{"data": null, "errors": [{"message": "introspection is disabled"}]}"#))
        }
    }
}
