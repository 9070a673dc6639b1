import FathomJSON
import Testing

@testable import FathomGraphQL

@Suite struct ResponseCheckerTests {
    let schema: GraphQLDescription

    init() throws {
        schema = try GraphQLDescription(sdl: librarySDL)
    }

    private func violations(_ operation: String, _ response: String) throws -> [String] {
        schema.check(try JSON(parsing: response), for: try GraphQLOperation(operation)).map(\.description)
    }

    @Test func aFittingResponseHasNoViolations() throws {
        let operation = """
            { books { id title pages genre author { name } } search(text: "a") { __typename ... on Book { title } ... on Author { name } } }
            """
        let response = """
            {"data": {"books": [{"id": "1", "title": "Dune", "pages": null, "genre": "FICTION", "author": null}],
              "search": [{"__typename": "Book", "title": "Dune"}, {"__typename": "Author", "name": "Herbert"}]}}
            """
        #expect(try violations(operation, response) == [])
    }

    @Test func eachKindOfViolationIsNamedByItsPath() throws {
        let operation = "{ book(id: 1) { id title pages rating available genre } }"
        let response = """
            {"data": {"book": {"id": 1, "title": null, "pages": "300", "rating": true, "available": 1, "genre": "OPERA", "extra": 1}}}
            """
        #expect(
            try violations(operation, response) == [
                "$.data.book.id: expected ID! (serialized as a string), got number",
                "$.data.book.title: expected String!, got null",
                "$.data.book.pages: expected Int, got string",
                "$.data.book.rating: expected Float, got boolean",
                "$.data.book.available: expected Boolean!, got number",
                "$.data.book.genre: expected Genre!, got \"OPERA\", which is not one of its values",
                "$.data.book.extra: not in the selection",
            ])
    }

    @Test func listsAndMissingFieldsAndTooLargeInts() throws {
        #expect(
            try violations("{ books { id pages } }", #"{"data": {"books": {"id": "1"}}}"#) == [
                "$.data.books: expected [Book!]!, got object"
            ])
        #expect(
            try violations("{ books { id pages } }", #"{"data": {"books": [{"id": "1", "pages": 3000000000}, null]}}"#)
                == [
                    "$.data.books[0].pages: expected Int, got 3000000000 (Int is a 32-bit whole number)",
                    "$.data.books[1]: expected Book!, got null",
                ])
        #expect(
            try violations("{ books { id title } }", #"{"data": {"books": [{"id": "1"}]}}"#) == [
                "$.data.books[0].title: missing"
            ])
    }

    @Test func anErrorExplainsWhatIsMissingAndNullData() throws {
        let errors = #""errors": [{"message": "boom", "path": ["book", "author"]}]"#
        #expect(
            try violations("{ book(id: 1) { id author { name } } }", #"{"data": {"book": {"id": "1"}}, \#(errors)}"#)
                == [])
        #expect(try violations("{ book(id: 1) { id } }", #"{"data": null, \#(errors)}"#) == [])
        #expect(
            try violations("{ book(id: 1) { id } }", #"{"data": null}"#) == ["$.data: missing, and no errors say why"])
    }

    @Test func directivesAndFragmentsOnOtherTypesMakeFieldsOptional() throws {
        let operation = """
            query($all: Boolean!) { node(id: 1) { id ... on Book { title } ... on Author { name } } books @include(if: $all) { id } }
            """
        #expect(try violations(operation, #"{"data": {"node": {"id": "1", "name": "Le Guin"}}}"#) == [])
        #expect(
            try violations("{ search(text: \"a\") { __typename } }", #"{"data": {"search": [{"__typename": "Loan"}]}}"#)
                == ["$.data.search[0].__typename: \"Loan\" is not a type SearchResult can be"])
        #expect(
            try violations(
                "{ search(text: \"a\") { __typename ... on Book { title } } }",
                #"{"data": {"search": [{"__typename": "Book"}]}}"#)
                == ["$.data.search[0].title: missing"])
    }

    @Test func aResponseThatIsNotAnObjectIsOneViolation() throws {
        #expect(try violations("{ books { id } }", "[]") == ["$: expected a GraphQL response (an object), got array"])
    }
}
