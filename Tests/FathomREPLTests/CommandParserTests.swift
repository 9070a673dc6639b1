import FathomHTTP
@_spi(Fathom) import FathomJSON
import Testing

@testable import FathomREPL

@Suite struct CommandParserTests {
    @Test func blankLinesAndCommentsAreNoCommand() throws {
        #expect(try CommandParser.parse("   ") == nil)
        #expect(try CommandParser.parse("# a comment") == nil)
        #expect(try CommandParser.parse("#a comment too") == nil)
    }

    @Test func aLineGoesToTheCommandItsNameRegisters() throws {
        #expect(try CommandParser.parse("send") is SendCommand)
        #expect(try CommandParser.parse("POST /x") is OneLinerCommand)
        #expect(try CommandParser.parse("? send") is HelpCommand)
    }

    @Test func anUnknownWordIsNeverARequest() {
        let error = #expect(throws: CommandError.self) { try CommandParser.parse("frobnicate /x") }
        #expect(error?.message == "unknown command 'frobnicate'")
        #expect(error?.column == 1)
    }

    @Test func unknownCommandSuggestsTheClosest() {
        let error = #expect(throws: CommandError.self) { try CommandParser.parse("hedaer X: 1") }
        #expect(error?.description == "error at column 1: unknown command 'hedaer' — did you mean 'header'?")
        let indented = #expect(throws: CommandError.self) { try CommandParser.parse("   sned") }
        #expect(indented?.column == 4)
        #expect(indented?.advice == "did you mean 'send'?")
    }

    @Test func tokenizerHandlesQuotesEscapesAndComments() throws {
        let words = try Tokenizer.words(#"a 'b c' "d \" e" f\ g # comment"#)
        #expect(words.map(\.text) == ["a", "b c", #"d " e"#, "f g"])
        #expect(words.map(\.column) == [1, 3, 9, 18])
    }

    @Test func editDistanceCountsTranspositionsOnce() {
        #expect(Spelling.editDistance("hedaer", "header") == 1)
        #expect(Spelling.editDistance("sned", "send") == 1)
        #expect(Spelling.editDistance("", "abc") == 3)
    }
}
