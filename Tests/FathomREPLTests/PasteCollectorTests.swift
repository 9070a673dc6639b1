import Testing

@testable import FathomREPL

/// Where a paste after `import FORMAT -` ends.
@Suite struct PasteCollectorTests {
    /// Whether each line, added in turn, made the paste whole; and the text.
    static func feed(_ format: Importer.Format, _ lines: [String]) -> ([Bool], String) {
        var paste = PasteCollector(format: format)
        let whole = lines.map { paste.add($0) }
        return (whole, paste.text)
    }

    @Test func aCurlCommandEndsWhereItsLastLineDoes() {
        let (whole, text) = Self.feed(
            .curl, ["", "curl -X POST https://api.test/a \\", "  -d '{\"a\":", "  1}' ^", "  -H 'X: y'"])
        #expect(whole == [false, false, false, false, true])
        #expect(text == "curl -X POST https://api.test/a \\\n  -d '{\"a\":\n  1}' ^\n  -H 'X: y'")
    }

    @Test func jsonEndsWhereItsBracketsClose() {
        let (whole, _) = Self.feed(
            .har, ["  ", #"{"log": {"entries": ["#, #"  {"request": {"url": "http://a.test/{x}"}}"#, "]}}"])
        #expect(whole == [false, false, false, true])
        #expect(Self.feed(.postman, [#"{"info": {}, "item": []}"#]).0 == [true])
    }
}
