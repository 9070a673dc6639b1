import FathomJSON
import Foundation
import Testing

@testable import FathomOpenAPI

/// Descriptions in YAML read as YAML 1.2, as OpenAPI 3 says they are, within a budget.
@Suite struct YAMLTests {
    func value(_ yaml: String) throws -> JSON {
        try DocumentText.parse(Data(yaml.utf8), name: "t.yaml")
    }

    /// YAML 1.1's `on`, `off`, `yes`, `no` are strings in 1.2's core schema.
    @Test func plainScalarsAreTypedByTheCoreSchema() throws {
        let json = try value(
            """
            words: [on, off, yes, no, y, n, On, NO]
            bools: [true, False, TRUE]
            nulls: [~, null, Null]
            empty:
            ints: [0, -12, +7, 007, 0x1F, 0o17]
            floats: [1.50, .5, -2., 6.02e23, 1E-3, +0.25]
            strings: [.inf, .NaN, 1_000, 0b101, 12:30, 1.2.3, "123", '4.5', !!str 6]
            typed: [!!int "42", !!float "1.5", !!bool "true", !!null "x"]
            block: |
              7
            """)
        #expect(json["words"] == .array(["on", "off", "yes", "no", "y", "n", "On", "NO"].map { JSON.string($0) }))
        #expect(json["bools"] == .array([.bool(true), .bool(false), .bool(true)]))
        #expect(json["nulls"] == .array([.null, .null, .null]) && json["empty"] == .null)
        #expect(json["ints"] == .array(["0", "-12", "7", "7", "31", "15"].map { JSON.number($0) }))
        #expect(json["floats"] == .array(["1.50", "0.5", "-2.0", "6.02e23", "1E-3", "0.25"].map { JSON.number($0) }))
        #expect(
            json["strings"]
                == .array(
                    [".inf", ".NaN", "1_000", "0b101", "12:30", "1.2.3", "123", "4.5", "6"].map { JSON.string($0) }))
        #expect(json["typed"] == .array([.number("42"), .number("1.5"), .bool(true), .null]))
        #expect(json["block"] == .string("7"), "a block scalar is text")
    }

    /// An integer past 64 bits is kept as written, not refused and not rounded.
    @Test func bigIntegersStayExact() throws {
        let json = try value("maximum: 18446744073709552000\nminimum: -99999999999999999999999\n")
        #expect(json["maximum"] == .number("18446744073709552000"))
        #expect(json["minimum"] == .number("-99999999999999999999999"))
        let parsed = try JSON(parsing: Data(#"{"maximum": 18446744073709552000}"#.utf8))
        #expect(parsed["maximum"] == .number("18446744073709552000"))
    }

    /// Aliases are followed, and mapping order is kept.
    @Test func aliasesAreExpandedInOrder() throws {
        let json = try value(
            """
            base: &base {type: object, required: [id]}
            user: *base
            z: 1
            a: 2
            """)
        #expect(json["user"] == json["base"])
        if case .object(let members) = json { #expect(members.map(\.key) == ["base", "user", "z", "a"]) }
    }

    /// A few hundred bytes of nested anchors would expand to billions of values: refused at once.
    @Test func anAliasBombIsRefusedQuickly() throws {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1..<10 {
            let previous = "*a\(level - 1)"
            yaml += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        #expect(yaml.utf8.count < 1000)
        let started = ContinuousClock.now
        #expect {
            try value(yaml)
        } throws: { error in
            "\(error)".contains("t.yaml: its YAML aliases expand past 100,000 values")
        }
        #expect(ContinuousClock.now - started < .seconds(1))
    }
}

/// A description's documents are read from regular files, within a size.
@Suite struct DescriptionFileTests {
    @Test func aDocumentPastTheLimitOrNotAFileIsOneLine() throws {
        let path = NSTemporaryDirectory() + "fathom-big-\(UUID().uuidString).yaml"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(DescriptionFile.maxBytes + 1))  // sparse
        try handle.close()
        #expect {
            try DescriptionFile.read(path)
        } throws: { error in
            "\(error)" == "67108865 bytes, more than the 64 MiB a description's document may hold"
        }
        #expect { try DescriptionFile.read("/dev/zero") } throws: { "\($0)" == "not a regular file" }
        #expect { try DescriptionFile.read("/nonexistent.yaml") } throws: { "\($0)" == "no such file" }
    }
}

/// A description with structure problems loads; the check lists every problem, in the
/// document's order, the same on every run.
@Suite struct StructureProblemsTests {
    static let broken = """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /a:
            get:
              summary: no responses
          /b:
            post:
              parameters:
                - {name: ok, in: query, schema: {type: string}}
                - {name: no-place}
              responses:
                "200": {description: ok}
                "404": {content: {}}
          /c:
            get:
              responses:
                "200": {description: fine}
        components:
          schemas:
            Good: {type: object}
            Bad: {type: 12}
        """

    @Test func everyProblemInTheDocumentsOrder() throws {
        let api = try APIDescription(data: Data(Self.broken.utf8), name: "broken.yaml", checkStructure: false)
        #expect(api.operations.count == 3, "the index is built whatever the check says")
        let problems = api.structureProblems()
        #expect(
            problems.map(\.place) == [
                "paths./a", "paths./b.post.parameters.1", "paths./b.post.responses.404", "components.schemas.Bad.type",
            ], "\(problems)")
        for _ in 0..<5 { #expect(api.structureProblems() == problems) }
        #expect(problems.compactMap { $0.operation?.method } == ["POST", "POST"])
        #expect(problems[0].operation?.path == "/a" && problems[1].operation?.path == "/b")
        #expect {
            try APIDescription(data: Data(Self.broken.utf8), name: "broken.yaml")
        } throws: { error in
            (error as? DescriptionError)?.message.hasPrefix("broken.yaml: paths./a: ") == true
        }
    }
}
