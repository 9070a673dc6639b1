import Testing

@testable import FathomREPL

@Suite struct SaveCommandTests {
    @Test func takesAFileAndRequestsOnly() throws {
        #expect(try parse("save s.fathom --requests-only") == SaveCommand(file: "s.fathom", requestsOnly: true))
        #expect(parseError("save")?.message == "missing a file name")
    }
}

@Suite struct LoadCommandTests {
    @Test func takesOneFile() throws {
        #expect(try parse("load s.fathom") == LoadCommand(file: "s.fathom"))
    }
}

@Suite struct RecordCommandTests {
    @Test func takesOnOrOff() throws {
        #expect(try parse("record on") == RecordCommand(on: true))
        #expect(parseError("record maybe")?.hint != nil)
    }
}

@Suite struct ReplayCommandTests {
    @Test func takesFilesAndCompare() throws {
        #expect(
            try parse("replay a.fathom b.fathom --compare")
                == ReplayCommand(files: ["a.fathom", "b.fathom"], compare: true))
        #expect(parseError("replay --jobs 2")?.message == "unknown replay option '--jobs'")
        #expect(parseError("replay")?.hint == "usage: \(ReplayCommand.spec.synopsis)")
    }
}

@Suite struct ExitCommandTests {
    @Test func answersToItsAliases() throws {
        #expect(try parse("QUIT") == ExitCommand())
        #expect(try parse("exit") == ExitCommand())
    }
}
