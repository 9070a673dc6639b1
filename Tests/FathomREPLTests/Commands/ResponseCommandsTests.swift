import Testing

@testable import FathomREPL

@Suite struct InspectCommandTests {
    @Test func takesANumberAnExpressionAndPaths() throws {
        #expect(try parse("responses") == ResponsesCommand())
        #expect(
            try parse("inspect #2 $.items[*].name --paths")
                == InspectCommand(response: .number(2), expression: "$.items[*].name", paths: true))
        #expect(try parse("inspect .a.b") == InspectCommand(response: nil, expression: ".a.b", paths: false))
        #expect(
            try parse("inspect @12 $.id") == InspectCommand(response: .archived(12), expression: "$.id", paths: false))
        #expect(parseError("inspect @0 $.id")?.message == "invalid archive ID '@0'")
        #expect(parseError("inspect $.a[")?.column == 13)
        #expect(parseError("inspect")?.hint == "usage: \(InspectCommand.spec.synopsis)")
    }
}

@Suite struct ResponsesCommandTests {
    @Test func listsSearchesByTextOrByAComparison() throws {
        #expect(try parse("responses --all") == ResponsesCommand(mode: .all))
        #expect(try parse("responses search users/2") == ResponsesCommand(mode: .text("users/2")))
        #expect(try parse(#"responses search "Ada Lovelace""#) == ResponsesCommand(mode: .text("Ada Lovelace")))
        #expect(
            try parse(#"responses search $.name == "Ada""#)
                == ResponsesCommand(
                    mode: .value(FathomREPL.Expectation(subject: .value("$.name"), op: .equal, operand: #""Ada""#))))
        #expect(
            try parse("responses search .data.length() > 2")
                == ResponsesCommand(
                    mode: .value(FathomREPL.Expectation(subject: .value(".data.length()"), op: .greater, operand: "2")))
        )
        #expect(parseError("responses search")?.message == "missing what to search for")
        #expect(parseError("responses search $.a ==")?.message == "missing a value to compare with")
        #expect(parseError("responses --every") != nil)
        for line in [
            "responses", "responses --all", "responses search 'Ada Lovelace'", #"responses search $.name == "Ada""#,
        ] {
            let command = try #require(try CommandParser.parse(line))
            #expect(command.line == line)
            #expect(try CommandParser.parse(command.line) as? ResponsesCommand == command as? ResponsesCommand)
        }
    }
}

@Suite struct LetCommandTests {
    @Test func capturesValuesHeadersAndStatus() throws {
        #expect(
            try parse("let id = $.data[0].id #3") == LetCommand(name: "id", source: .value("$.data[0].id"), response: 3)
        )
        #expect(try parse("let id=$.id") == LetCommand(name: "id", source: .value("$.id"), response: nil))
        #expect(
            try parse("let loc = header Location")
                == LetCommand(name: "loc", source: .header("Location"), response: nil))
        #expect(try parse("let code = status #1") == LetCommand(name: "code", source: .status, response: 1))
        #expect(parseError("let x $.a")?.message == "expected '=' after 'x'")
        #expect(parseError("let = $.a") != nil)
    }
}

@Suite struct DiffCommandTests {
    @Test func takesNumbersScopeAndIgnores() throws {
        #expect(
            try parse("diff #1 #4 --body --ignore $.at --ignore $.id")
                == DiffCommand(old: .number(1), new: .number(4), scope: .body, ignore: ["$.at", "$.id"]))
        #expect(try parse("diff") == DiffCommand())
        #expect(try parse("diff @7 #2") == DiffCommand(old: .archived(7), new: .number(2)))
        #expect(try parse("diff @7") == DiffCommand(old: .archived(7)))
        #expect(parseError("diff #0")?.message == "invalid response number '#0'")
        #expect(parseError("diff #1 #2 #3")?.message == "unexpected '#3'")
        #expect(parseError("diff #1 #2 #3")?.hint == "usage: \(DiffCommand.spec.synopsis)")
    }
}

@Suite struct ExpectCommandTests {
    func expectation(_ line: String) throws -> FathomREPL.Expectation? {
        try parse(line, as: ExpectCommand.self)?.expectation
    }

    @Test func parsesEverySubject() throws {
        #expect(
            try expectation("expect status 200") == FathomREPL.Expectation(subject: .status, op: .equal, operand: "200")
        )
        #expect(
            try expectation("expect status 2xx") == FathomREPL.Expectation(subject: .status, op: .equal, operand: "2xx")
        )
        #expect(
            try expectation("expect status < 500")
                == FathomREPL.Expectation(subject: .status, op: .less, operand: "500"))
        #expect(
            try expectation(#"expect $.name == "Ada""#)
                == FathomREPL.Expectation(subject: .value("$.name"), op: .equal, operand: #""Ada""#))
        #expect(
            try expectation("expect $.tags == [1, 2]")
                == FathomREPL.Expectation(subject: .value("$.tags"), op: .equal, operand: "[1, 2]"))
        #expect(
            try expectation(#"expect $.name ~ "^A""#)
                == FathomREPL.Expectation(subject: .value("$.name"), op: .matches, operand: "^A"))
        #expect(
            try expectation("expect $.x absent")
                == FathomREPL.Expectation(subject: .value("$.x"), op: .absent, operand: nil))
        #expect(
            try expectation("expect header Content-Type ~ json")
                == FathomREPL.Expectation(subject: .header("Content-Type"), op: .matches, operand: "json"))
        #expect(
            try expectation("expect time < 500ms")
                == FathomREPL.Expectation(subject: .time, op: .less, operand: "500ms"))
        #expect(
            try expectation(#"expect body ~ "ok""#)
                == FathomREPL.Expectation(subject: .body, op: .matches, operand: "ok"))
    }

    @Test func reportsWhereALineIsWrong() {
        #expect(parseError("expect $.a.[0] == 1")?.column == 12)
        #expect(parseError("expect time == 1s")?.message == "unknown comparison '=='")
        #expect(parseError("expect status 700")?.message == "invalid status '700'")
    }
}

@Suite struct VolatileCommandTests {
    @Test func takesOneJSONPath() throws {
        #expect(try parse("volatile $.updatedAt") == VolatileCommand(expression: "$.updatedAt"))
        #expect(try parse("volatile") == VolatileCommand(expression: nil))
    }
}
