import Foundation
import Testing

@testable import FathomJSON

/// The RFC 9535 JSONPath Compliance Test Suite (`jsonpath-cts/cts.json`), read with FathomJSON itself.
@Suite struct JSONPathComplianceTests {
    struct Case: CustomStringConvertible {
        let name: String
        let selector: String
        let document: JSON?
        let invalid: Bool
        /// Acceptable results: one, or several where member order is not fixed.
        let results: [[JSON]]
        let paths: [[String]]
        var description: String { name }
    }

    static func cases() throws -> [Case] {
        let data = try Data(contentsOf: try Corpus.require().appendingPathComponent("jsonpath-cts/cts.json"))
        guard case .array(let tests)? = try JSON(parsing: data)["tests"] else { return [] }
        return tests.map { test in
            func strings(_ json: JSON?) -> [String] {
                guard case .array(let items)? = json else { return [] }
                return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
            }
            func list(_ json: JSON?) -> [JSON] {
                if case .array(let items)? = json { return items }
                return []
            }
            var results: [[JSON]] = []
            var paths: [[String]] = []
            if test["result"] != nil {
                results = [list(test["result"])]
                paths = [strings(test["result_paths"])]
            } else {
                results = list(test["results"]).map { list($0) }
                paths = list(test["results_paths"]).map { strings($0) }
            }
            guard case .string(let name)? = test["name"], case .string(let selector)? = test["selector"] else {
                return Case(name: "?", selector: "", document: nil, invalid: true, results: [], paths: [])
            }
            return Case(
                name: name, selector: selector, document: test["document"],
                invalid: test["invalid_selector"] == .bool(true),
                results: results, paths: paths)
        }
    }

    @Test func suiteHasAllCases() throws {
        #expect(try Self.cases().count == 703)
    }

    @Test func everyCasePasses() throws {
        var failures: [String] = []
        for test in try Self.cases() {
            let compiled: JSONPath
            do {
                compiled = try JSONPath(test.selector)
            } catch {
                if !test.invalid { failures.append("\(test.name): rejected \(test.selector): \(error.summary)") }
                continue
            }
            if test.invalid {
                failures.append("\(test.name): accepted invalid \(test.selector)")
                continue
            }
            guard let document = test.document else { continue }
            let nodes = compiled.query(document)
            let values = nodes.map(\.value)
            let paths = nodes.map(\.path.description)
            let matched = zip(test.results, test.paths).contains { expected, expectedPaths in
                values == expected && (expectedPaths.isEmpty || paths == expectedPaths)
            }
            if !matched {
                failures.append("\(test.name): \(test.selector) gave \(paths)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(40).joined(separator: "\n"))")
    }
}
