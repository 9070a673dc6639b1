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
}
