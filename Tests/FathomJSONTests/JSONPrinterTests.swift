import Foundation
import Testing

@testable import FathomJSON

@Suite struct JSONPrinterTests {
    static let formats: [(name: String, format: JSONFormat, jqArguments: [String])] = [
        ("pretty", .pretty, ["."]),
        ("compact", .compactText, ["-c", "."]),
        ("indent 4", JSONFormat(indent: 4), ["--indent", "4", "."]),
        ("color", JSONFormat(colors: .jq), ["-C", "."]),
        ("compact color", JSONFormat(compact: true, colors: .jq), ["-c", "-C", "."]),
    ]

    static func stream(_ bytes: [UInt8], _ format: JSONFormat) throws -> [UInt8] {
        var output: [UInt8] = []
        try bytes.withUnsafeBufferPointer { buffer in
            try JSONFormatter.format(buffer, as: format) { output.append(contentsOf: $0) }
        }
        return output
    }

    /// Whether jq 1.6 prints every number of `json` as written and keeps every member: integers of
    /// at most 15 digits, and no duplicate keys (jq keeps the last value of a duplicated key).
    static func jqKeepsAsWritten(_ json: JSON) -> Bool {
        switch json {
        case .number(let text):
            return text.range(of: #"^-?(0|[1-9][0-9]{0,14})$"#, options: .regularExpression) != nil && text != "-0"
        case .array(let elements):
            return elements.allSatisfy(jqKeepsAsWritten)
        case .object(let members):
            return Set(members.map(\.key)).count == members.count && members.allSatisfy { jqKeepsAsWritten($0.value) }
        case .null, .bool, .string:
            return true
        }
    }

    /// An API-like document with nesting, unicode, escapes and control characters.
    static let apiDocument = Array(
        #"""
        {"data":[{"id":1,"name":"Zoë \"Z\" Ångström","email":"zoe@example.com","tags":["a/b","c\\d","😀"],
        "address":{"city":"Kraków","zip":"30-001","geo":{"lat":50,"lng":19}},"active":true,"manager":null,
        "notes":"line1\nline2\ttab\u0001\u007f","empty":{},"list":[]},{"id":2,"name":"東京","nested":[[[]],[{}]]}],
        "page":1,"links":{"next":"https://api.example.com/users?page=2&per_page=10"}}
        """#.utf8)

    @Test func matchesJQByteForByte() throws {
        try #require(JQ.isAvailable, "jq is installed by `make test`")
        var documents = [("api document", Self.apiDocument)]
        for file in try Corpus.jsonTestSuite() where file.name.hasPrefix("y_") {
            documents.append((file.name, file.bytes))
        }
        var compared = 0
        for (name, bytes) in documents {
            guard Self.jqKeepsAsWritten(try JSON(parsing: bytes)) else { continue }
            for (formatName, format, arguments) in Self.formats {
                guard let expected = try JQ.run(arguments, input: bytes) else { continue }
                let streamed = try Self.stream(bytes, format)
                #expect(streamed == expected, "\(name), \(formatName)")
                #expect(
                    Array(try JSON(parsing: bytes).formatted(format).utf8) == expected, "\(name), \(formatName) (tree)")
                compared += 1
            }
        }
        #expect(compared > 300)
    }

    @Test func streamingAndTreePrintingAgreeOnEveryDocument() throws {
        for file in try Corpus.jsonTestSuite() where file.name.hasPrefix("y_") {
            let tree = try JSON(parsing: file.bytes)
            for (formatName, format, _) in Self.formats {
                #expect(
                    try Self.stream(file.bytes, format) == Array(tree.formatted(format).utf8),
                    "\(file.name) \(formatName)")
            }
        }
    }

    @Test func printThenParseGivesTheSameTree() throws {
        var documents = [Self.apiDocument]
        for file in try Corpus.jsonTestSuite() where file.name.hasPrefix("y_") { documents.append(file.bytes) }
        for bytes in documents {
            let tree = try JSON(parsing: bytes)
            #expect(try JSON(parsing: tree.formatted()) == tree)
            #expect(try JSON(parsing: tree.formatted(.compactText)) == tree)
        }
    }

    @Test func numbersKeepTheirText() throws {
        let text = #"[1.0,-0,1e3,12345678901234567890,2.50,1E400]"#
        #expect(try JSON(parsing: text).formatted(.compactText) == text + "\n")
        #expect(try JSONFormatter.formatted(Data(text.utf8), as: .compactText) == text + "\n")
    }

    @Test func largeOutputIsFlushedInBlocks() throws {
        let big = "[" + (0..<100_000).map { "{\"id\":\($0),\"name\":\"user \($0)\"}" }.joined(separator: ",") + "]"
        var blocks = 0
        var total = 0
        try Array(big.utf8).withUnsafeBufferPointer { buffer in
            try JSONFormatter.format(buffer) { block in
                blocks += 1
                total += block.count
            }
        }
        #expect(blocks > 5)
        #expect(total == Array(try JSON(parsing: big).formatted().utf8).count)
    }
}

@Suite struct JSONColorTests {
    @Test func colorsFollowJQsSequence() throws {
        let expected =
            "\u{1B}[1;39m{\n  \u{1B}[0m\u{1B}[34;1m\"a\"\u{1B}[0m\u{1B}[1;39m: \u{1B}[0m\u{1B}[1;39m[\n    "
            + "\u{1B}[0;39m1\u{1B}[0m\u{1B}[1;39m,\n    \u{1B}[1;30mnull\u{1B}[0m\u{1B}[1;39m\n  \u{1B}[1;39m]"
            + "\u{1B}[0m\u{1B}[1;39m\n\u{1B}[1;39m}\u{1B}[0m\n"
        let format = JSONFormat(colors: .jq)
        #expect(try JSON(parsing: #"{"a":[1,null]}"#).formatted(format) == expected)
        #expect(try JSONFormatter.formatted(Data(#"{"a":[1,null]}"#.utf8), as: format) == expected)
    }

    /// The display limit counts what is read, not colour escapes: a body that prints within the
    /// limit plain is not cut coloured, and one that is cut stops at a line within the limit.
    @Test func theLimitCountsTextNotEscapes() throws {
        let items = (0..<2000).map { #"{"id": \#($0), "name": "n\#($0)", "ok": true, "tags": [1, 2, null]}"# }
        let data = Data(("[" + items.joined(separator: ",") + "]").utf8)
        let plain = try JSONFormatter.formatted(data)
        let colored = try JSONFormatter.formatted(data, as: JSONFormat(colors: .jq))
        let limit = plain.utf8.count + 10
        #expect(colored.utf8.count > limit, "the escapes alone would pass the limit")
        let (whole, complete) = try JSONFormatter.formatted(data, as: JSONFormat(colors: .jq), limit: limit)
        #expect(complete && whole == colored)
        let (cut, cutComplete) = try JSONFormatter.formatted(data, as: JSONFormat(colors: .jq), limit: limit / 2)
        #expect(!cutComplete && cut.hasSuffix("\n"))
        var visible = ""
        var escape = false
        for scalar in cut.unicodeScalars {
            if escape {
                escape = scalar != "m"
            } else if scalar == "\u{1B}" {
                escape = true
            } else {
                visible.unicodeScalars.append(scalar)
            }
        }
        #expect(
            visible.utf8.count <= limit / 2 && visible.utf8.count > limit / 2 - 100,
            "\(visible.utf8.count) of \(limit / 2)")
    }
}
