import Foundation
import Testing

@testable import FathomREPL

@Suite struct ShellWordsTests {
    func words(_ text: String) throws -> [String] { try ShellWords.split(text).words }

    @Test func quotesAsBashReadsThem() throws {
        #expect(try words(#"a 'b c' "d \" \$e" f\ g"#) == ["a", "b c", #"d " $e"#, "f g"])
        #expect(try words(#"$'tab\there\x41\u00e9\n' plain"#) == ["tab\there\u{41}é\n", "plain"])
        #expect(try words("one \\\n  two") == ["one", "two"], "a line continuation")
        #expect(try words(#"-d '{"a": [1, 2]}'"#) == ["-d", #"{"a": [1, 2]}"#])
        #expect(try words("x # a comment\ny") == ["x", "y"])
    }

    @Test func readsChromesCmdForm() throws {
        let cmd =
            "curl ^\"https://example.com/api^\" ^\n  -H ^\"accept: */*^\" ^\n  --data-raw ^\"^{^\\^\"a^\\^\":1^}^\""
        #expect(try words(cmd) == ["curl", "https://example.com/api", "-H", "accept: */*", "--data-raw", #"{"a":1}"#])
    }

    @Test func keepsVariablesAndRefusesWhatAShellWouldRun() throws {
        let result = try ShellWords.split(#"-H "Authorization: Bearer $TOKEN" ${BASE}/x"#)
        #expect(result.words == ["-H", "Authorization: Bearer $TOKEN", "${BASE}/x"])
        #expect(result.variables == ["TOKEN", "BASE"])
        #expect(throws: CommandError.self) { try ShellWords.split("a | jq .") }
        #expect(throws: CommandError.self) { try ShellWords.split("a; b") }
        #expect(throws: CommandError.self) { try ShellWords.split("a $(cat f)") }
        #expect(throws: CommandError.self) { try ShellWords.split("a > out") }
        let open = #expect(throws: CommandError.self) { try ShellWords.split("a 'unterminated") }
        #expect(open?.message == "unterminated single quote")
        #expect(open?.column == 3)
    }
}
