import FathomJSON
import Foundation
import GraphQL
import Testing

@testable import FathomGraphQL

/// A schema with one of each kind of type, arguments with defaults, deprecations and
/// descriptions: what the tests below load, validate against and check responses by.
let librarySDL = """
    "A library's catalogue."
    schema { query: Query mutation: Mutation subscription: Subscription }
    type Query {
      "A book by its id."
      book(id: ID!): Book
      books(first: Int = 10, genre: Genre, filter: BookFilter): [Book!]!
      search(text: String!): [SearchResult!]!
      node(id: ID!): Node
    }
    type Mutation { borrow(id: ID!, days: Int = 14): Loan! }
    type Subscription { returned: Book! }
    interface Node { id: ID! }
    type Book implements Node {
      id: ID!
      title: String!
      pages: Int
      rating: Float
      available: Boolean!
      genre: Genre!
      author: Author
      isbn: String @deprecated(reason: "use `identifiers`")
      published: Date
    }
    type Author implements Node { id: ID! name: String! books: [Book!] }
    type Loan { book: Book! due: Date! }
    union SearchResult = Book | Author
    "Fiction or not."
    enum Genre { FICTION NONFICTION POETRY @deprecated }
    input BookFilter @oneOf { title: String genre: Genre }
    scalar Date @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")
    directive @cached(seconds: Int = 60) repeatable on FIELD | QUERY
    """

@Suite struct GraphQLDescriptionTests {
    let schema: GraphQLDescription

    init() throws {
        schema = try GraphQLDescription(sdl: librarySDL)
    }

    @Test func countsWhatTheSchemaHas() {
        #expect(
            schema.counts == GraphQLDescription.Counts(types: 11, queries: 4, mutations: 1, subscriptions: 1))
        #expect(schema.index["Book"]?.field("isbn")?.deprecationReason == "use `identifiers`")
        #expect(schema.index["Query"]?.field("books")?.arguments.map(\.name) == ["first", "genre", "filter"])
        #expect(schema.index["Query"]?.field("books")?.type.description == "[Book!]!")
        #expect(Set(schema.index["SearchResult"]?.possibleTypes ?? []) == ["Book", "Author"])
        #expect(Set(schema.index["Node"]?.possibleTypes ?? []) == ["Book", "Author"])
    }

    @Test func aValidOperationHasNoProblems() throws {
        let operation = try GraphQLOperation(
            """
            query Shelf($genre: Genre) @cached(seconds: 5) {
              books(genre: $genre) { ...Card author { name } }
              search(text: "x") { __typename ... on Author { name } }
            }
            fragment Card on Book { id title }
            """)
        #expect(schema.validate(operation) == [])
        #expect(operation.kind == .query)
        #expect(operation.operationName == "Shelf")
        #expect(operation.variables.map(\.type) == ["Genre"])
    }

    @Test func problemsNameTheirPlaceAndTheClosestName() throws {
        let operation = try GraphQLOperation("{ book(id: 1) { titel } }")
        let problems = schema.validate(operation)
        #expect(problems.count == 1)
        #expect(problems.first?.line == 1)
        #expect(problems.first?.column == 17)
        #expect(problems.first?.message.contains("Did you mean \"title\"") == true)
    }

    @Test func everyKindOfProblemIsFound() throws {
        let cases: [(String, String)] = [
            ("{ book(id: 1) }", "must have a selection of subfields"),
            ("{ books(first: \"ten\") { id } }", "Int cannot represent"),
            ("{ books(genre: FICTON) { id } }", "Value \"FICTON\" does not exist in \"Genre\" enum"),
            ("query Q($x: Int) { books { id } }", "Variable \"$x\" is never used"),
            ("{ book(id: $id) { id } }", "Variable \"$id\" is not defined"),
            ("{ book { id } }", "argument \"id\" of type \"ID!\" is required"),
            (
                "{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }",
                "Cannot spread fragment \"A\" within itself"
            ),
            ("{ books(filter: {title: \"a\", genre: FICTION}) { id } }", "must specify exactly one key"),
        ]
        for (text, expected) in cases {
            let problems = schema.validate(try GraphQLOperation(text))
            #expect(problems.contains { $0.message.contains(expected) }, "\(text): \(problems)")
        }
    }

    @Test func aSyntaxErrorIsOneLineWithItsPlace() {
        #expect(
            throws: GraphQLProblems([
                GraphQLProblem(message: "syntax error: Expected Name, found }", line: 1, column: 17)
            ])
        ) {
            try GraphQLOperation("{ book(id: 1) { } }")
        }
    }

    @Test func severalOperationsNeedOneNamed() throws {
        let text = "query A { books { id } } query B { books { title } }"
        #expect(throws: GraphQLProblems.self) { try GraphQLOperation(text) }
        let chosen = try GraphQLOperation(text, operationName: "B")
        #expect(chosen.body(variables: [])["operationName"] == .string("B"))
        #expect(throws: GraphQLProblems.self) { try GraphQLOperation(text, operationName: "C") }
    }

    @Test func theRequestBodyCarriesVariablesOnlyWhenThereAreAny() throws {
        let operation = try GraphQLOperation("{ books { id } }")
        #expect(operation.body(variables: []).formatted(.compactText) == #"{"query":"{ books { id } }"}"# + "\n")
        let body = operation.body(variables: [JSON.Member(key: "id", value: .number("2"))])
        #expect(body["variables"]?["id"] == .number("2"))
    }
}

@Suite struct NestingBoundTests {
    /// GraphQLSwift's parser recurses once per level: a document nested past the bound is one
    /// problem, never a stack that runs out.
    @Test func aDocumentNestedTooDeepIsRefusedBeforeItIsParsed() throws {
        let deep = "{ a(x: " + String(repeating: "[", count: 100_000) + " }"
        #expect(throws: GraphQLProblems.self) { try GraphQLOperation(deep) }
        #expect(throws: GraphQLSchemaError.self) {
            try GraphQLDescription(sdl: "type Query { a: " + String(repeating: "[", count: 100_000) + "Int }")
        }
        // Brackets in strings and comments do not count.
        let quoted =
            "{ a(x: \"" + String(repeating: "[", count: 1_000) + "\") # " + String(repeating: "{", count: 1_000)
            + "\n}"
        #expect(!NestingBound.exceeds(quoted))
        #expect(NestingBound.exceeds(String(repeating: "{", count: NestingBound.limit + 1)))
        #expect(!NestingBound.exceeds(String(repeating: "{", count: NestingBound.limit)))
    }
}

@Suite struct DeferredBuildTests {
    /// Indexed at once, built when validation first needs it: the index reads the SDL itself.
    @Test func anIndexedSchemaListsAtOnceAndBuildsWhenValidationNeedsIt() throws {
        let deferred = try GraphQLDescription(sdl: librarySDL, deferringBuild: true)
        let whole = try GraphQLDescription(sdl: librarySDL)
        #expect(deferred.counts == whole.counts)
        #expect(deferred.index["Book"]?.field("isbn")?.deprecationReason == "use `identifiers`")
        #expect(deferred.index["Query"]?.field("books")?.arguments.first?.defaultValue == "10")
        #expect(Set(deferred.index["Node"]?.possibleTypes ?? []) == ["Book", "Author"])
        #expect(deferred.validate(try GraphQLOperation("{ book(id: 1) { titel } }")).count == 1)
    }

    /// A schema that is not valid loads indexed, and says why in every validation.
    @Test func aSchemaThatIsNotValidSaysSoWhenBuilt() throws {
        let broken = try GraphQLDescription(sdl: "type Query { a: Missing }", deferringBuild: true)
        #expect(throws: GraphQLSchemaError.self) { try broken.build() }
        let problems = broken.validate(try GraphQLOperation("{ a }"))
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("Missing") == true, "\(problems)")
        #expect(throws: GraphQLSchemaError.self) { try GraphQLDescription(sdl: "type Query { a: Missing }") }
    }
}
