import FathomTestSupport
import Foundation
import Testing

@testable import FathomJSON

@Suite struct JSONDiffTests {
    @Test func reportsEachKindAtItsPath() throws {
        let old = try JSON(parsing: #"{"name":"Ada","price":1.0,"tags":["a","b"],"gone":true}"#)
        let new = try JSON(parsing: #"{"name":"Ada L.","price":1,"tags":["a","b","c"],"extra":null}"#)
        let diff = JSONDiff(from: old, to: new)
        #expect(
            diff.tree() == """
                ~ $['name']  "Ada" → "Ada L."
                ≈ $['price']  1.0 → 1  (same value, different text)
                + $['tags'][2]  "c"
                - $['gone']  true
                + $['extra']  null
                5 differences: 1 changed, 2 added, 1 removed, 1 number text

                """)
        #expect(try diff.patch.apply(to: old) == new)
    }

    @Test func oneInsertedRecordIsOneInsertion() throws {
        let records = (1...50).map { #"{"id":\#($0),"name":"user \#($0)"}"# }
        var inserted = records
        inserted.insert(#"{"id":999,"name":"new"}"#, at: 10)
        let old = try JSON(parsing: "[" + records.joined(separator: ",") + "]")
        let new = try JSON(parsing: "[" + inserted.joined(separator: ",") + "]")
        let diff = JSONDiff(from: old, to: new)
        #expect(diff.changes.count == 1)
        #expect(
            diff.changes.first == .added(NormalizedPath([.index(10)]), try JSON(parsing: #"{"id":999,"name":"new"}"#)))
        #expect(try diff.patch.apply(to: old) == new)
    }

    @Test func arrayKeyMatchesRecordsByIdentity() throws {
        let old = try JSON(parsing: #"[{"id":1,"v":"a"},{"id":2,"v":"b"},{"id":3,"v":"c"}]"#)
        let new = try JSON(parsing: #"[{"id":1,"v":"a"},{"id":3,"v":"C"},{"id":4,"v":"d"}]"#)
        let keyed = JSONDiff(from: old, to: new, options: .init(arrayKey: "id"))
        #expect(keyed.tree().contains("- $[1]  {\"id\":2,\"v\":\"b\"}"))
        #expect(keyed.tree().contains("~ $[1]['v']  \"c\" → \"C\""))
        #expect(keyed.tree().contains("+ $[2]  {\"id\":4,\"v\":\"d\"}"))
        #expect(try keyed.patch.apply(to: old).isEquivalent(to: new))
    }

    @Test func ignoredPathsAreLeftOut() throws {
        let old = try JSON(parsing: #"{"id":1,"updatedAt":"2026-01-01","items":[{"ts":1,"v":1}]}"#)
        let new = try JSON(parsing: #"{"id":1,"updatedAt":"2026-02-02","items":[{"ts":2,"v":1}]}"#)
        let diff = JSONDiff(
            from: old, to: new, options: .init(ignore: [try JSONPath("$.updatedAt"), try JSONPath("$..ts")]))
        #expect(diff.isEmpty)
        #expect(diff.summaryLine == "no differences")
    }

    @Test func addedMembersCanBeAcceptedButNotAddedElementsOrChanges() throws {
        let old = try JSON(parsing: #"{"id":1,"tags":["a"],"user":{"name":"ada"}}"#)
        let grown = try JSON(parsing: #"{"id":1,"tags":["a"],"user":{"name":"ada","team":"x"},"etag":"w"}"#)
        #expect(JSONDiff(from: old, to: grown, options: .init(ignoresAddedMembers: true)).isEmpty)
        #expect(JSONDiff(from: old, to: grown).counts.added == 2)

        let changed = try JSON(parsing: #"{"id":2,"tags":["a","b"],"extra":true}"#)
        let diff = JSONDiff(from: old, to: changed, options: .init(ignoresAddedMembers: true))
        #expect(diff.changes.map(\.kind).sorted() == ["added", "changed", "removed"])
        #expect(diff.tree().contains("+ $['tags'][1]"))
        #expect(!diff.tree().contains("extra"))
    }

    @Test func patchFromDiffReproducesEveryJSONPatchTestsResult() throws {
        var checked = 0
        for test in try JSONPatchTests.cases() {
            guard let expected = test.expected else { continue }
            let diff = JSONDiff(from: test.document, to: expected)
            let patched = try diff.patch.apply(to: test.document)
            #expect(patched.isEquivalent(to: expected), "\(test.name)")
            checked += 1
        }
        #expect(checked > 50)
    }

    @Test func randomDocumentsRoundTrip() throws {
        var generator = SeededGenerator(seed: 42)
        for round in 0..<200 {
            let old = DocumentGenerator.record(depth: 3, using: &generator)
            let new = DocumentGenerator.mutate(old, using: &generator)
            let diff = JSONDiff(from: old, to: new)
            let patched = try diff.patch.apply(to: old)
            #expect(patched.isEquivalent(to: new), "round \(round)")
            // No changes exactly when the documents are equal to the letter.
            #expect(diff.isEmpty == (old == new), "round \(round)")
            // Print → parse keeps the tree exactly (key order, number text).
            #expect(try JSON(parsing: old.formatted()) == old)
        }
    }

    @Test func summaryJSONCountsKinds() throws {
        let diff = JSONDiff(from: try JSON(parsing: "[1,2]"), to: try JSON(parsing: "[1,3,4]"))
        let summary = diff.summaryJSON
        #expect(summary["equal"] == .bool(false))
        #expect(summary["counts"]?["changed"] == .number("1"))
        #expect(summary["counts"]?["added"] == .number("1"))
    }
}

/// API-like documents and mutations of them, for property tests.
enum DocumentGenerator {
    static let words = ["alpha", "béta", "γάμμα", "delta", "e\"sc", "tab\there", "😀", ""]
    static let numbers = ["0", "-0", "1", "1.0", "2.50", "1e3", "-17", "12345678901234567890", "3.14159"]

    static func scalar(using generator: inout SeededGenerator) -> JSON {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(numbers.randomElement(using: &generator)!)
        default: return .string(words.randomElement(using: &generator)!)
        }
    }

    static func record(depth: Int, using generator: inout SeededGenerator) -> JSON {
        let count = Int.random(in: 0...5, using: &generator)
        var members: [JSON.Member] = [
            JSON.Member(key: "id", value: .number(String(Int.random(in: 1...1000, using: &generator))))
        ]
        for index in 0..<count {
            let value: JSON
            if depth > 0, Int.random(in: 0..<3, using: &generator) == 0 {
                value =
                    Bool.random(using: &generator)
                    ? record(depth: depth - 1, using: &generator)
                    : .array(
                        (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                            Bool.random(using: &generator)
                                ? record(depth: depth - 1, using: &generator) : scalar(using: &generator)
                        })
            } else {
                value = scalar(using: &generator)
            }
            members.append(JSON.Member(key: "k\(index)", value: value))
        }
        return .object(members)
    }

    static func mutate(_ json: JSON, using generator: inout SeededGenerator) -> JSON {
        switch json {
        case .object(var members):
            for index in members.indices where Int.random(in: 0..<4, using: &generator) == 0 {
                members[index].value = mutate(members[index].value, using: &generator)
            }
            if Int.random(in: 0..<5, using: &generator) == 0, !members.isEmpty {
                members.remove(at: Int.random(in: 0..<members.count, using: &generator))
            }
            if Int.random(in: 0..<5, using: &generator) == 0 {
                members.append(
                    JSON.Member(
                        key: "new\(Int.random(in: 0..<99, using: &generator))", value: scalar(using: &generator)))
            }
            return .object(members)
        case .array(var elements):
            for index in elements.indices where Int.random(in: 0..<4, using: &generator) == 0 {
                elements[index] = mutate(elements[index], using: &generator)
            }
            if Int.random(in: 0..<3, using: &generator) == 0 {
                elements.insert(scalar(using: &generator), at: Int.random(in: 0...elements.count, using: &generator))
            }
            if Int.random(in: 0..<4, using: &generator) == 0, !elements.isEmpty {
                elements.remove(at: Int.random(in: 0..<elements.count, using: &generator))
            }
            return .array(elements)
        default:
            return Int.random(in: 0..<2, using: &generator) == 0 ? scalar(using: &generator) : json
        }
    }
}

@Suite struct TextDiffTests {
    @Test func unifiedHunksWithContext() {
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n")
        var lines = (1...20).map { "line \($0)" }
        lines[2] = "line three"
        lines.remove(at: 15)
        let diff = TextDiff(from: old, to: lines.joined(separator: "\n"))
        #expect(
            diff.unified(context: 1) == """
                @@ -2,3 +2,3 @@
                 line 2
                -line 3
                +line three
                 line 4
                @@ -15,3 +15,2 @@
                 line 15
                -line 16
                 line 17

                """)
        #expect(TextDiff(from: "a\nb", to: "a\nb").unified().isEmpty)
        #expect(TextDiff(from: "a\nb", to: "a\nb").isEmpty)
    }
}
