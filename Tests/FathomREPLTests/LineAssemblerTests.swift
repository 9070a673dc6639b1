import Testing

@testable import FathomREPL

@Suite struct LineAssemblerTests {
    @Test func plainLinesPassThrough() {
        var assembler = LineAssembler()
        #expect(assembler.add("get /users") == "get /users")
        #expect(!assembler.isContinuing)
    }

    @Test func jsonBodyContinuesUntilBalanced() {
        var assembler = LineAssembler()
        #expect(assembler.add(#"body {"name": "a { brace",  "#) == nil)
        #expect(assembler.isContinuing)
        #expect(assembler.add(#"  "tags": ["x", "]"#) == nil)
        #expect(assembler.add("]}") == "body {\"name\": \"a { brace\",  \n  \"tags\": [\"x\", \"]\n]}")
        #expect(!assembler.isContinuing)
    }

    @Test func heredocEndsAtItsMarker() {
        var assembler = LineAssembler()
        #expect(assembler.add("body <<END") == nil)
        #expect(assembler.add("{ not balanced") == nil)
        #expect(assembler.add("END") == "body <<END\n{ not balanced\nEND")
    }

    @Test func cancelDropsAHalfReadEntry() {
        var assembler = LineAssembler()
        _ = assembler.add("body [1,")
        assembler.cancel()
        #expect(!assembler.isContinuing)
        #expect(assembler.add("send") == "send")
    }
}
