import Foundation
import Testing

@testable import FathomJSON

/// json-patch-tests (`json-patch-tests/tests.json` and `spec_tests.json`), every case not disabled.
@Suite struct JSONPatchTests {
    struct Case {
        let name: String
        let document: JSON
        let patch: JSON
        let expected: JSON?
        let expectsError: Bool
    }

    static func cases() throws -> [Case] {
        var cases: [Case] = []
        for file in ["tests.json", "spec_tests.json"] {
            let data = try Data(contentsOf: try Corpus.require().appendingPathComponent("json-patch-tests/\(file)"))
            guard case .array(let items) = try JSON(parsing: data) else { continue }
            for (index, item) in items.enumerated() where item["disabled"] != .bool(true) {
                guard let document = item["doc"], let patch = item["patch"] else { continue }
                var name = "\(file)#\(index)"
                if case .string(let comment)? = item["comment"] { name += " \(comment)" }
                cases.append(
                    Case(
                        name: name, document: document, patch: patch, expected: item["expected"],
                        expectsError: item["error"] != nil))
            }
        }
        return cases
    }

    @Test func everyEnabledCasePasses() throws {
        let cases = try Self.cases()
        #expect(cases.count > 100)
        var failures: [String] = []
        for test in cases {
            let result = Result { () throws(JSONPatchError) -> JSON in
                try JSONPatch(test.patch).apply(to: test.document)
            }
            switch (result, test.expectsError) {
            case (.success, true):
                failures.append("\(test.name): applied but should fail")
            case (.failure(let error), false):
                failures.append("\(test.name): \(error)")
            case (.success(let value), false):
                if let expected = test.expected, !value.isEquivalent(to: expected) {
                    failures.append("\(test.name): gave \(value.formatted(.compactText))")
                }
            case (.failure, true):
                break
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(30).joined(separator: "\n"))")
    }

    @Test func failingOperationIsNamedAndNothingChanges() throws {
        let document = try JSON(parsing: #"{"a":[1,2],"b":true}"#)
        let patch = try JSONPatch(
            JSON(parsing: #"[{"op":"add","path":"/a/-","value":3},{"op":"test","path":"/b","value":false}]"#))
        #expect {
            try patch.apply(to: document)
        } throws: { error in
            "\(error)" == "patch operation 1 failed: test failed at '/b': found true"
        }
        #expect(document == (try JSON(parsing: #"{"a":[1,2],"b":true}"#)))
    }

    @Test func pointersEscapeAndParse() throws {
        let pointer = try JSONPointer(parsing: "/a~1b/m~0n/0")
        #expect(pointer.tokens == ["a/b", "m~n", "0"])
        #expect(pointer.description == "/a~1b/m~0n/0")
        #expect(throws: JSONPatchError.self) { try JSONPointer(parsing: "a") }
        #expect(throws: JSONPatchError.self) { try JSONPointer(parsing: "/a~2") }
    }
}
