import Foundation
import Testing

@testable import FathomJSON

@Suite struct JSONParserTests {
    @Test func keepsKeyOrderDuplicatesAndNumberText() throws {
        let json = try JSON(parsing: #"{"z":1.0,"a":-0,"m":[1e3,12345678901234567890,2.50],"a":"again"}"#)
        guard case .object(let members) = json else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "m", "a"])
        #expect(json["z"] == .number("1.0"))
        #expect(json["a"] == .number("-0"))
        #expect(json["m"] == .array([.number("1e3"), .number("12345678901234567890"), .number("2.50")]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let json = try JSON(parsing: #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\ud83d\ude00", "\ud800x"]"#)
        #expect(json[0] == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(json[1] == .string("é😀"))
        #expect(json[2] == .string("\u{FFFD}x"))
    }

    @Test func skipsByteOrderMark() throws {
        #expect(try JSON(parsing: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number("1")]))
    }

    @Test func depthLimitIsAClearError() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect {
            try JSON(parsing: deep)
        } throws: { error in
            (error as? JSONError)?.reason == "nesting deeper than 512 levels"
        }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try JSON(parsing: fine) }
    }

    @Test func lenientModeRepairsInvalidUTF8() throws {
        let bytes: [UInt8] = Array(#"["a"#.utf8) + [0xFF] + Array(#"b"]"#.utf8)
        #expect(throws: JSONError.self) { try JSON(parsing: bytes) }
        #expect(try JSON(parsing: bytes, options: .lenient) == .array([.string("a\u{FFFD}b")]))
    }

    @Test(arguments: [
        (
            "{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3,
            "expected ',' or '}' in object, found '\"'", "  \"b\": 2", 2
        ),
        ("[1, 2,]", 1, 7, "expected a value, found ']'", "[1, 2,]", 6),
        ("{\"a\": tru}", 1, 7, "expected 'true'", "{\"a\": tru}", 6),
        ("[01]", 1, 3, "expected ',' or ']' in array, found '1'", "[01]", 2),
        ("\"abc", 1, 1, "unterminated string", "\"abc", 0),
        ("", 1, 1, "empty input: expected a JSON value", "", 0),
        ("[1] x", 1, 5, "unexpected 'x' after the JSON value", "[1] x", 4),
        ("[\"é\t\"]", 1, 4, "control character U+0009 in string (it must be escaped)", "[\"é \"]", 3),
    ])
    func errorsPointAtTheSpot(input: String, line: Int, column: Int, reason: String, context: String, caret: Int) {
        #expect {
            try JSON(parsing: input)
        } throws: { error in
            guard let error = error as? JSONError else { return false }
            #expect(error.reason == reason)
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.context == context)
            #expect(error.caret == caret)
            return true
        }
    }

    @Test func errorDescriptionShowsTheLineAndACaret() {
        #expect {
            try JSON(parsing: "{\"name\": \"Ada\",\n \"age\" 36}")
        } throws: { error in
            "\(error)" == """
                invalid JSON at line 2, column 8 (byte 23): expected ':' after object key, found '3'
                   "age" 36}
                         ^
                """
        }
    }
}

@Suite struct JSONLexerTests {
    @Test func wordScanFlagsExactlyTheBytesThatNeedALook() {
        for byte in UInt8.min...UInt8.max {
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[position] = byte
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                let expected = byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte >= 0x80
                #expect(JSONLexer.needsAttention(word) == expected, "byte \(byte) at \(position)")
            }
        }
    }
}
