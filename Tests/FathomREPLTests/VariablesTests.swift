import Testing

@testable import FathomREPL

@Suite struct VariablesTests {
    @Test func expandsVariablesAndEnvironment() throws {
        var variables = Variables(environment: ["HOME_API": "http://127.0.0.1"])
        variables.set("id", "42")
        #expect(try variables.expand("{{$env.HOME_API}}/users/{{ id }}?x={{id}}") == "http://127.0.0.1/users/42?x=42")
        #expect(try variables.expand("no braces") == "no braces")
        #expect(try variables.expand("{{unclosed") == "{{unclosed")
    }

    @Test func unknownVariableIsNamedWithAHint() {
        var variables = Variables(environment: [:])
        variables.set("token", "x")
        let error = #expect(throws: CommandError.self) { try variables.expand("/a/{{tokne}}", column: 6) }
        #expect(error?.description == "error at column 9: unknown variable 'tokne' — did you mean 'token'?")
        let env = #expect(throws: CommandError.self) { try variables.expand("{{$env.NOPE}}") }
        #expect(env?.message == "environment variable 'NOPE' is not set")
    }

    @Test func dotEnvParsing() {
        let values = DotEnv.parse("# c\nexport A=1\nB = \"two words\"\n\nC='x=y'\nnot a pair\n")
        #expect(values == ["A": "1", "B": "two words", "C": "x=y"])
        #expect(DotEnv.secretKey(for: "api-key") == "FATHOM_SECRET_API_KEY")
    }

    /// As dotenv reads it: inline comments, quotes, escapes, `export`, values over several lines.
    @Test func dotEnvReadsWhatDotenvReads() {
        let text = """
            TOKEN=abc123 # the CI token
            HASH=a#b
            export  EXPORTED = spaced out   
            SINGLE='no \\n escapes # kept'  # comment
            DOUBLE="line\\nbreak \\"quoted\\" # kept" # comment
            MULTI="first
            second"
            PEM='-----BEGIN-----
            abc
            -----END-----'
            EMPTY=
            QUOTED_EMPTY=""
            UNTERMINATED="never closed
            AFTER=not reached as a key
            """
        let values = DotEnv.parse(text)
        #expect(values["TOKEN"] == "abc123")
        #expect(values["HASH"] == "a#b")
        #expect(values["EXPORTED"] == "spaced out")
        #expect(values["SINGLE"] == "no \\n escapes # kept")
        #expect(values["DOUBLE"] == "line\nbreak \"quoted\" # kept")
        #expect(values["MULTI"] == "first\nsecond")
        #expect(values["PEM"] == "-----BEGIN-----\nabc\n-----END-----")
        #expect(values["EMPTY"] == "")
        #expect(values["QUOTED_EMPTY"] == "")
        // An unterminated quote is a line that is not a pair: skipped, as python-dotenv skips
        // it, and the lines after it read on their own (in one pass, however many there are).
        #expect(values["UNTERMINATED"] == nil && values["AFTER"] == "not reached as a key")
    }
}
