import Foundation
import GraphQL
import Testing

@testable import FathomGraphQL

/// The scanner that indexes SDL without GraphQLSwift's parser, beside the index read from
/// GraphQLSwift's syntax tree: the same types, fields, arguments, defaults, descriptions,
/// deprecations, members, interfaces, roots and directives, on every schema the suite has.
@Suite struct SDLScannerTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpora/graphql")

    /// An index as one text: what the two readings must agree on.
    static func canonical(_ index: SchemaIndex) -> String {
        var lines = ["roots \(index.query ?? "-") \(index.mutation ?? "-") \(index.subscription ?? "-")"]
        for name in index.types.keys.sorted() {
            let type = index.types[name]!
            lines.append(
                "\(type.kind) \(name) \(type.description ?? "") implements \(type.interfaces) members \(type.possibleTypes.sorted())"
            )
            for field in type.fields {
                let arguments = field.arguments.map {
                    "\($0.name): \($0.type) = \($0.defaultValue ?? "-") \($0.description ?? "")"
                }
                lines.append(
                    "  \(field.name)(\(arguments.joined(separator: ", "))): \(field.type) \(field.description ?? "") \(field.deprecationReason ?? "")"
                )
            }
            for value in type.enumValues {
                lines.append("  \(value.name) \(value.description ?? "") \(value.deprecationReason ?? "")")
            }
        }
        for directive in index.directives.sorted(by: { $0.name < $1.name }) {
            lines.append("@\(directive.name) \(directive.locations) \(directive.arguments.map(\.name))")
        }
        return lines.joined(separator: "\n")
    }

    static func schemas() throws -> [(String, String)] {
        var schemas = [("library", librarySDL)]
        for file in ["swapi.graphql", "validation-harness.graphql"] {
            schemas.append((file, try String(contentsOf: corpus.appendingPathComponent(file), encoding: .utf8)))
        }
        schemas.append(
            (
                "strings and extensions",
                #"""
                """
                  A block description
                    indented, with \""" inside.

                """
                type Query { "esc\n\t\"q\" \u00e9" a(x: [Int!] = [1, 2], y: In = {b: "c", d: [true, null]}, z: E = V): Int @deprecated }
                input In { b: String = "x\"y" d: [Boolean] }
                enum E { V @deprecated(reason: "no") W }
                extend type Query { b: String }
                directive @d(a: Int = 1) repeatable on FIELD | QUERY
                """#
            ))
        return schemas
    }

    @Test func theScannerReadsWhatTheParserReads() throws {
        for (name, sdl) in try Self.schemas() {
            let scanned = try #require(SDLScanner.definitions(sdl), "\(name): the scanner gave up")
            let parsed = SchemaIndex(try parse(source: sdl))
            #expect(Self.canonical(SchemaIndex(definitions: scanned)) == Self.canonical(parsed), "\(name)")
        }
    }

    /// What it does not read — an operation, a syntax error — it leaves to the parser, so the
    /// error is said where it is.
    @Test func itGivesUpOnWhatItDoesNotRead() throws {
        #expect(SDLScanner.definitions("type Query { a: Int } query { a }") == nil)
        #expect(SDLScanner.definitions("type Query { a: }") == nil)
        #expect(SDLScanner.definitions("type Query { a: Int") == nil)
        #expect(SDLScanner.definitions("\"unterminated\ntype Query { a: Int }") == nil)
        #expect(throws: GraphQLSchemaError.self) {
            try GraphQLDescription(sdl: "type Query { a: }", deferringBuild: true)
        }
    }
}
