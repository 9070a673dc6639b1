import FathomGraphQL
import FathomJSON
import FathomTestSupport
import Foundation
import Testing

/// FathomGraphQL beside graphql-core (the reference implementation's Python port): the same
/// verdict on thousands of generated operations, valid and mutated; and the schema an
/// introspection result builds printing as graphql-core's `build_client_schema` prints it.
@Suite(.enabled(if: GraphQLServer.python != nil, "needs FATHOM_PYTHON with graphql-core: run through `make test`"))
struct GraphQLOracleTests {
    /// Interfaces, a union, enums, input objects (one `@oneOf`), lists, non-nulls, defaults.
    static let sdl = """
        type Query {
          book(id: ID!): Book
          books(first: Int = 10, genre: Genre, filter: BookFilter, tags: [String!]): [Book!]!
          search(text: String!, limit: Int): [SearchResult!]!
          node(id: ID!): Node
          library(where: Place!): Library
        }
        type Mutation { borrow(id: ID!, days: Int = 14, note: String): Loan! review(input: ReviewInput!): Book }
        type Subscription { returned(genre: Genre): Book! }
        interface Node { id: ID! }
        interface Titled { title: String! }
        type Book implements Node & Titled {
          id: ID! title: String! pages: Int rating: Float available: Boolean! genre: Genre!
          author: Author tags: [String!]! related(limit: Int!): [Book!]
        }
        type Author implements Node { id: ID! name: String! books(genre: Genre): [Book!] born: Int }
        type Loan { book: Book! days: Int! due: String }
        type Library { name: String! shelves: [Shelf!]! }
        type Shelf { label: String! books: [Book]! }
        union SearchResult = Book | Author
        enum Genre { FICTION NONFICTION POETRY }
        input BookFilter @oneOf { title: String genre: Genre }
        input Place { city: String! country: String = "FR" }
        input ReviewInput { book: ID! stars: Int! text: String tags: [String!] }
        """

    /// Builds operations from the schema, valid ones and ones with one mistake put in.
    struct Generator {
        let index: SchemaIndex
        var random: SeededGenerator
        /// Variables declared by the operation being built: `name` → type.
        var variables: [(String, String)] = []
        var fragments: [String] = []
        var mistake: Mistake?

        enum Mistake: CaseIterable {
            case typoField, wrongArgumentType, missingSelection, selectionOnLeaf, unknownEnumValue, undefinedVariable,
                unusedVariable, fragmentCycle, unknownArgument, missingArgument, unknownFragment, wrongVariableType,
                unknownType, duplicateOperation, oneOfTwoFields
        }

        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

        /// Takes the mistake if it is still to be made here.
        mutating func take(_ kind: Mistake) -> Bool {
            guard mistake == kind else { return false }
            mistake = nil
            return true
        }

        mutating func operation() -> String {
            variables = []
            fragments = []
            let kinds: [OperationKind] = [.query, .query, .query, .mutation, .subscription]
            let kind = kinds.randomElement(using: &random)!
            let root = index.root(kind)!
            var body: String
            if kind == .subscription {
                body = "{ " + field(root.fields.randomElement(using: &random)!, depth: 0) + " }"
            } else {
                body = selection(root, depth: 0)
            }
            if take(.unusedVariable) { variables.append(("unused", "Int")) }
            if take(.fragmentCycle) {
                fragments += [
                    "fragment CycleA on Book { title ...CycleB }", "fragment CycleB on Book { id ...CycleA }",
                ]
                body = "{ book(id: 1) { ...CycleA } }"
                if kind != .query { body = "{ book(id: 1) { ...CycleA } }" }
                return "query Cycle " + body + "\n" + fragments.joined(separator: "\n")
            }
            let name = "Op\(Int.random(in: 0..<1000, using: &random))"
            let declared =
                variables.isEmpty ? "" : "(" + variables.map { "$\($0.0): \($0.1)" }.joined(separator: ", ") + ")"
            var text = "\(kind.rawValue) \(name)\(declared) \(body)"
            if !fragments.isEmpty { text += "\n" + fragments.joined(separator: "\n") }
            if take(.duplicateOperation) { text += "\nquery \(name) { __typename }" }
            return text
        }

        mutating func selection(_ type: SchemaIndex.NamedType, depth: Int) -> String {
            var parts: [String] = []
            if type.kind == .union {
                parts.append("__typename")
                for member in type.possibleTypes.shuffled(using: &random).prefix(2) {
                    parts.append("... on \(member) " + selection(index[member]!, depth: depth + 1))
                }
                return "{ " + parts.joined(separator: " ") + " }"
            }
            let fields = type.fields.filter { !$0.name.hasPrefix("__") }.shuffled(using: &random)
            let count = depth >= 2 ? 1 : Int.random(in: 1...3, using: &random)
            for candidate in fields.prefix(count) { parts.append(field(candidate, depth: depth)) }
            if type.kind == .interface, chance(50), let member = type.possibleTypes.randomElement(using: &random) {
                let typeName = take(.unknownType) ? member + "z" : member
                parts.append("... on \(typeName) { __typename }")
            }
            if type.kind == .object, depth < 2, chance(20) {
                let name = "F\(fragments.count)\(type.name)"
                if take(.unknownFragment) {
                    parts.append("...Missing\(name)")
                } else {
                    fragments.append("fragment \(name) on \(type.name) { __typename }")
                    parts.append("...\(name)")
                }
            }
            return "{ " + parts.joined(separator: " ") + " }"
        }

        mutating func field(_ field: SchemaIndex.Field, depth: Int) -> String {
            var name = field.name
            if take(.typoField) { name = String(name.dropLast()) + "q" }
            var arguments: [String] = []
            for argument in field.arguments {
                let required = argument.type.isNonNull && argument.defaultValue == nil
                if required, take(.missingArgument) { continue }
                guard required || chance(40) else { continue }
                arguments.append("\(argument.name): " + value(for: argument.name, argument.type, depth: 0))
            }
            if take(.unknownArgument) { arguments.append("bogus: 1") }
            var text = name + (arguments.isEmpty ? "" : "(" + arguments.joined(separator: ", ") + ")")
            let named = index[field.type.namedType]!
            if named.isComposite {
                if take(.missingSelection) { return text }
                text += " " + selection(named, depth: depth + 1)
            } else if take(.selectionOnLeaf) {
                text += " { id }"
            }
            return text
        }

        mutating func value(for argument: String, _ type: TypeReference, depth: Int) -> String {
            if depth == 0, chance(25) {
                let variable = "v\(variables.count)"
                if take(.undefinedVariable) { return "$undeclared" }
                var declared = type.description
                if take(.wrongVariableType) { declared = type.namedType == "String" ? "Int" : "String" }
                variables.append((variable, declared))
                return "$" + variable
            }
            switch type {
            case .nonNull(let inner): return value(for: argument, inner, depth: depth)
            case .list(let inner):
                return "["
                    + (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        value(for: argument, inner, depth: depth + 1)
                    }
                    .joined(separator: ", ") + "]"
            case .named(let name):
                let named = index[name]!
                switch named.kind {
                case .enum:
                    if take(.unknownEnumValue) { return "OPERA" }
                    return named.enumValues.randomElement(using: &random)!.name
                case .inputObject:
                    var members: [String] = []
                    let isOneOf = name == "BookFilter"
                    for field in named.fields.shuffled(using: &random) {
                        let required = field.type.isNonNull
                        if isOneOf ? members.isEmpty || take(.oneOfTwoFields) : (required || chance(40)) {
                            members.append("\(field.name): " + value(for: field.name, field.type, depth: depth + 1))
                        }
                    }
                    return "{" + members.joined(separator: ", ") + "}"
                default:
                    if take(.wrongArgumentType) { return name == "String" ? "12" : "\"twelve\"" }
                    switch name {
                    case "Int": return String(Int.random(in: -5...500, using: &random))
                    case "Float": return "1.5"
                    case "Boolean": return chance(50) ? "true" : "false"
                    case "ID": return chance(50) ? "7" : "\"b7\""
                    default: return "\"text\""
                    }
                }
            }
        }
    }

    /// graphql-core's verdict on each operation: the number of errors `validate` finds (−1 when it
    /// does not parse).
    static func oracleVerdicts(sdl: String, operations: [String], in directory: String) throws -> [Int] {
        let input = directory + "/cases.json"
        let cases = JSON.object([
            .init(key: "sdl", value: .string(sdl)),
            .init(key: "operations", value: .array(operations.map(JSON.string))),
        ])
        try Data(cases.formatted(.compactText).utf8).write(to: URL(fileURLWithPath: input))
        let script = """
            import json, sys
            from graphql import build_schema, parse, validate, GraphQLSyntaxError
            given = json.load(open(sys.argv[1]))
            schema = build_schema(given["sdl"])
            out = []
            for text in given["operations"]:
                try:
                    out.append(len(validate(schema, parse(text))))
                except GraphQLSyntaxError:
                    out.append(-1)
            print(json.dumps(out))
            """
        let run = try Program.run([GraphQLServer.python ?? "python3", "-c", script, input])
        guard run.status == 0, case .array(let verdicts) = try JSON(parsing: run.output) else {
            Issue.record("graphql-core failed: \(run.output)")
            return []
        }
        return verdicts.map { if case .number(let text) = $0 { Int(text) ?? -2 } else { -2 } }
    }

    @Test func validationAgreesWithGraphQLCore() throws {
        let schema = try GraphQLDescription(sdl: Self.sdl)
        var generator = Generator(index: schema.index, random: SeededGenerator(seed: 32_5))
        var operations: [String] = []
        for index in 0..<2_400 {
            // Half valid, half with one mistake of each kind in turn.
            generator.mistake =
                index % 2 == 0 ? nil : Generator.Mistake.allCases[(index / 2) % Generator.Mistake.allCases.count]
            operations.append(generator.operation())
        }
        let directory = NSTemporaryDirectory() + "fathom-graphql-oracle-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let oracle = try Self.oracleVerdicts(sdl: Self.sdl, operations: operations, in: directory)
        try #require(oracle.count == operations.count)
        var agreed = 0
        var valid = 0
        var disagreements: [String] = []
        for (operation, verdict) in zip(operations, oracle) {
            let ours: Bool
            do {
                ours =
                    schema.validate(try GraphQLOperation(operation, operationName: Self.firstName(operation))).isEmpty
            } catch {
                ours = false
            }
            if verdict == 0 { valid += 1 }
            if ours == (verdict == 0) {
                agreed += 1
            } else if disagreements.count < 5 {
                disagreements.append(
                    "graphql-core \(verdict) error(s), Fathom \(ours ? "valid" : "invalid"): \(operation)")
            }
        }
        let ratio = Double(agreed) / Double(operations.count)
        print("GraphQL validation: \(agreed) of \(operations.count) verdicts agree with graphql-core (\(valid) valid)")
        #expect(ratio >= 0.995, "\(agreed) of \(operations.count) agree; \(disagreements.joined(separator: "\n"))")
        // Both kinds are well represented: the corpus is no list of easy cases.
        #expect(valid > 900 && operations.count - valid > 900, "\(valid) valid")
    }

    /// Runs a graphql-core script on a JSON file and reads the JSON it prints.
    static func python(_ script: String, input: JSON, in directory: String) throws -> JSON {
        let file = directory + "/input-\(UUID().uuidString).json"
        try Data(input.formatted(.compactText).utf8).write(to: URL(fileURLWithPath: file))
        let run = try Program.run([GraphQLServer.python ?? "python3", "-c", script, file])
        guard run.status == 0, let json = try? JSON(parsing: run.output) else {
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "graphql-core failed: \(run.output)"])
        }
        return json
    }

    /// Three schemas written elsewhere (two from gqlparser's corpus, the Strawberry server's) and
    /// this suite's own: graphql-core's introspection result of each, built by Fathom and printed,
    /// is the schema graphql-core's `build_client_schema` builds from it — both printed by
    /// `print_schema` with types and fields sorted (the order is the server's to choose).
    @Test func theIntrospectionBuilderPrintsWhatGraphQLCoreBuilds() throws {
        let corpus = FathomBinary.packageRoot + "/Tests/Corpora/graphql/"
        let strawberry = try Program.run([GraphQLServer.python ?? "python3", GraphQLServer.script, "--print-schema"])
        #expect(strawberry.status == 0, "\(strawberry.output)")
        let schemas = [
            try String(contentsOfFile: corpus + "swapi.graphql", encoding: .utf8),
            try String(contentsOfFile: corpus + "validation-harness.graphql", encoding: .utf8),
            strawberry.output, Self.sdl,
        ]
        let directory = NSTemporaryDirectory() + "fathom-graphql-builder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let introspected = try Self.python(
            """
            import json, sys
            from graphql import build_schema, build_client_schema, introspection_from_schema, print_schema
            from graphql.utilities import lexicographic_sort_schema
            out = []
            for sdl in json.load(open(sys.argv[1])):
                result = introspection_from_schema(build_schema(sdl))
                expected = print_schema(lexicographic_sort_schema(build_client_schema(result)))
                out.append({"introspection": {"data": result}, "expected": expected})
            print(json.dumps(out))
            """, input: .array(schemas.map(JSON.string)), in: directory)
        guard case .array(let cases) = introspected else { return }
        var printed: [JSON] = []
        for (index, item) in cases.enumerated() {
            let built = try GraphQLDescription(introspection: try #require(item["introspection"]))
            #expect(built.counts.types > 3, "schema \(index)")
            printed.append(.string(built.printed))
        }
        let reprinted = try Self.python(
            """
            import json, sys
            from graphql import build_schema, print_schema
            from graphql.utilities import lexicographic_sort_schema
            print(json.dumps([print_schema(lexicographic_sort_schema(build_schema(sdl))) for sdl in json.load(open(sys.argv[1]))]))
            """, input: .array(printed), in: directory)
        for (index, item) in cases.enumerated() {
            #expect(
                reprinted[index] == item["expected"],
                "schema \(index): Fathom built\n\(reprinted[index].map { "\($0)" } ?? "")")
        }
    }

    /// The first operation's name: a document with a duplicate name is sent by it.
    static func firstName(_ text: String) -> String? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == "\n" })
        return words.count > 1 && ["query", "mutation", "subscription"].contains(String(words[0]))
            ? String(words[1]) : nil
    }
}
