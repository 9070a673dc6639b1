import Testing

@testable import FathomJSON

@Suite struct JSONPathTests {
    let document = try! JSON(
        parsing: #"{"items":[{"name":"a","price":1.0},{"name":"b","price":10}],"o'k":{"x\ny":true}}"#)

    @Test func shorthandStartsAtTheRoot() throws {
        #expect(try JSONPath(".items[0].name").values(in: document) == [.string("a")])
        #expect(try JSONPath("[\"items\"][1].name").values(in: document) == [.string("b")])
    }

    @Test func filtersCompareNumbersByValue() throws {
        let cheap = try JSONPath("$.items[?@.price == 1].name").values(in: document)
        #expect(cheap == [.string("a")])
        #expect(try JSONPath("$.items[?@.price > 2].name").values(in: document) == [.string("b")])
        #expect(try JSONPath("$.items[?length(@.name) == 1 && search(@.name, '[ab]')]").values(in: document).count == 2)
    }

    @Test func normalizedPathsEscapeNames() throws {
        let nodes = try JSONPath("$..*[?@ == true]").query(document)
        #expect(nodes.map(\.path.description) == [#"$['o\'k']['x\ny']"#])
        #expect(
            try JSONPath("$.items[*].price").query(document).map(\.path.description) == [
                "$['items'][0]['price']", "$['items'][1]['price']",
            ])
    }

    @Test(arguments: [
        ("$.items[?@.price = 1]", 18, "expected ',' or ']', found '='"),
        ("$.items[01]", 9, "leading zeros are not allowed"),
        ("$[?length(@.items)]", 4, "length() gives a value, which must be compared"),
        ("$[?count(1) > 0]", 10, "argument of count() has the wrong type"),
        ("$[?@.a == $..b]", 11, "only a singular query (names and indexes) can be compared"),
        (".a.", 4, "expected a member name, '*' or '[' after '.', found end of expression"),
        ("items", 1, "a query starts with '$', found 'i'"),
    ])
    func errorsPointAtTheColumn(expression: String, column: Int, reason: String) {
        #expect {
            try JSONPath(expression)
        } throws: { error in
            guard let error = error as? JSONPathError else { return false }
            #expect(error.reason == reason)
            #expect(error.column == column)
            return true
        }
    }

    @Test func errorDescriptionHasACaret() {
        #expect {
            try JSONPath("$.a[?@.b =! 1]")
        } throws: { error in
            "\(error)"
                == "invalid JSONPath at column 10: expected ',' or ']', found '='\n  $.a[?@.b =! 1]\n           ^"
        }
    }
}
