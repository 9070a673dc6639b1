import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The two schemas CI servers hold JUnit reports to, as rules over an XML document: Jenkins
/// xunit's `junit-10.xsd` (jenkinsci/xunit-plugin, MIT), which xUnit validates input against, and
/// Ant's `JUnit.xsd` (windyroad/JUnit-Schema, Apache-2.0). Written here from reading both; the
/// schemas themselves are not in the repository.
struct JUnitSchema {
    /// What one element may be.
    struct Element {
        var attributes: Set<String>
        var required: Set<String> = []
        /// The child elements it may have (any order, any count), unless `sequence` says more.
        var children: Set<String> = []
        /// The children in order, each with its least and most count (`nil`: unbounded).
        var sequence: [(name: String, min: Int, max: Int?)]? = nil
        /// Attributes with a lexical form: name → a whole-match pattern.
        var patterns: [String: String] = [:]
    }

    var name: String
    var root: String
    var elements: [String: Element]
    /// What Fathom's reports say that this schema has no way to say, on purpose (the path of an
    /// element or `element@attribute`).
    var departures: Set<String> = []

    /// junit-10.xsd.
    static let junit10: JUnitSchema = {
        let surefireTime = #"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?"#
        let outcome = Element(attributes: ["type", "message"])
        return JUnitSchema(
            name: "junit-10.xsd", root: "testsuites",
            elements: [
                "testsuites": Element(
                    attributes: ["name", "time", "tests", "failures", "errors"], children: ["testsuite"],
                    patterns: ["time": surefireTime]),
                "testsuite": Element(
                    attributes: [
                        "name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp", "hostname",
                        "id",
                        "package", "file", "log", "url",
                    ],
                    required: ["name", "tests", "failures", "errors"],
                    children: ["testsuite", "properties", "testcase", "system-out", "system-err"],
                    patterns: ["time": surefireTime]),
                "testcase": Element(
                    attributes: ["name", "time", "classname", "group"], required: ["name"],
                    children: [
                        "skipped", "error", "failure", "rerunFailure", "rerunError", "flakyFailure", "flakyError",
                        "system-out", "system-err",
                    ]),
                "failure": outcome, "error": outcome, "skipped": outcome,
                "properties": Element(attributes: [], children: ["property"]),
                "property": Element(attributes: ["name", "value"], required: ["name", "value"]),
                "system-out": Element(attributes: []), "system-err": Element(attributes: []),
            ])
    }()

    /// Ant's JUnit.xsd, for a `<testsuites>` document (each suite then needs `package` and `id`).
    static let ant: JUnitSchema = {
        let decimal = #"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)"#
        let int = #"[+-]?[0-9]+"#
        let outcome = Element(attributes: ["message", "type"], required: ["type"])
        return JUnitSchema(
            name: "JUnit.xsd (Ant)", root: "testsuites",
            elements: [
                "testsuites": Element(attributes: [], children: ["testsuite"]),
                "testsuite": Element(
                    attributes: [
                        "name", "timestamp", "hostname", "tests", "failures", "errors", "time", "package", "id",
                    ],
                    required: [
                        "name", "timestamp", "hostname", "tests", "failures", "errors", "time", "package", "id",
                    ],
                    sequence: [("properties", 1, 1), ("testcase", 0, nil), ("system-out", 1, 1), ("system-err", 1, 1)],
                    patterns: [
                        "timestamp": "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}", "time": decimal,
                        "tests": int, "failures": int, "errors": int, "id": int,
                    ]),
                "testcase": Element(
                    attributes: ["name", "classname", "time"], required: ["name", "classname", "time"],
                    sequence: [("error|failure", 0, 1)], patterns: ["time": decimal]),
                "failure": outcome, "error": outcome,
                "properties": Element(attributes: [], children: ["property"]),
                "property": Element(attributes: ["name", "value"], required: ["name", "value"]),
                "system-out": Element(attributes: []), "system-err": Element(attributes: []),
            ],
            // Ant's schema cannot say a test was skipped, nor hold a test case's own output or
            // the totals of an aggregated report; junit-10 can, and CI servers read them there.
            departures: [
                "testsuites@name", "testsuites@tests", "testsuites@failures", "testsuites@errors", "testsuites@time",
                "testsuite@skipped", "testcase/skipped", "testcase/system-out",
            ])
    }()

    /// What in `xml` breaks the schema, each as `where: what`.
    func violations(_ xml: String) throws -> [String] {
        let document = try XMLDocument(xmlString: xml)
        guard let root = document.rootElement() else { return ["no root element"] }
        var found: [String] = []
        if root.name != self.root { found.append("root is <\(root.name ?? "")>, not <\(self.root)>") }
        check(root, path: root.name ?? "", into: &found)
        return found
    }

    private func check(_ element: XMLElement, path: String, into found: inout [String]) {
        let name = element.name ?? ""
        guard let rule = elements[name] else {
            found.append("\(path): <\(name)> is not in the schema")
            return
        }
        let attributes = Dictionary(
            (element.attributes ?? []).map { ($0.name ?? "", $0.stringValue ?? "") }, uniquingKeysWith: { a, _ in a })
        for (attribute, value) in attributes where !departures.contains("\(name)@\(attribute)") {
            if !rule.attributes.contains(attribute) { found.append("\(path): attribute \(attribute) is not allowed") }
            if let pattern = rule.patterns[attribute], value.wholeMatch(of: try! Regex(pattern)) == nil {
                found.append("\(path): \(attribute)=\"\(value)\" is not of its type")
            }
        }
        for attribute in rule.required where attributes[attribute] == nil {
            found.append("\(path): required attribute \(attribute) is missing")
        }
        let children = (element.children ?? []).compactMap { $0 as? XMLElement }.filter {
            !departures.contains("\(name)/\($0.name ?? "")")
        }
        if let sequence = rule.sequence {
            var index = 0
            for (expected, min, max) in sequence {
                let names = Set(expected.split(separator: "|").map(String.init))
                var count = 0
                while index < children.count, names.contains(children[index].name ?? "") {
                    count += 1
                    index += 1
                }
                if count < min { found.append("\(path): <\(expected)> is missing (at least \(min))") }
                if let max, count > max { found.append("\(path): \(count) × <\(expected)>, at most \(max)") }
            }
            if index < children.count {
                found.append("\(path): <\(children[index].name ?? "")> is not allowed there")
            }
        } else {
            for child in children where !rule.children.contains(child.name ?? "") {
                found.append("\(path): <\(child.name ?? "")> is not allowed in <\(name)>")
            }
        }
        for child in children { check(child, path: path + "/" + (child.name ?? ""), into: &found) }
    }
}

/// Every JUnit report Fathom writes is valid by both schemas (Ant's but for its departures):
/// the reports of every outcome, and thousands of generated runs with hostile names.
@Suite struct JUnitSchemaTests {
    /// One of each outcome: passed, failed, errored (its name holds a secret), skipped, a file
    /// that could not run, a file with no requests.
    static func everyOutcome(redactor: Redactor = Redactor()) -> ReplaySummary {
        var passed = RequestReport(name: "get /a (line 2)", line: 2)
        passed.time = .milliseconds(12)
        passed.notes = ["compared with nothing"]
        var failed = RequestReport(name: "get /b (line 3)", line: 3)
        failed.failures = [.recording(["status 200 → 500"])]
        var errored = RequestReport(name: "get /c?t=s3cr3t-token-value (line 4)", line: 4)
        errored.failures = [.interrupted(.signal(SIGINT))]
        var skipped = RequestReport(name: "get /d (line 5)", line: 5)
        skipped.skipped = "not run: line 3 failed"
        var file = FileReport(path: "tests/a.fathom", redactor: redactor)
        file.requests = [passed, failed, errored, skipped]
        var broken = FileReport(path: "tests/b.fathom", redactor: redactor)
        broken.problem = "tests/b.fathom:1: no such file: x.json"
        let empty = FileReport(path: "empty.fathom", redactor: redactor)
        return ReplaySummary(files: [file, broken, empty], elapsed: .seconds(1), stopped: nil)
    }

    @Test(arguments: [JUnitSchema.junit10, JUnitSchema.ant].map(\.name))
    func everyOutcomeIsValid(schema name: String) throws {
        let schema = name == JUnitSchema.ant.name ? JUnitSchema.ant : JUnitSchema.junit10
        let xml = JUnitReport.xml(Self.everyOutcome())
        let violations = try schema.violations(xml)
        #expect(violations.isEmpty, "\(name):\n\(violations.joined(separator: "\n"))\n\(xml)")
    }

    /// The rules catch what they are for: the report before this change broke both.
    @Test func theRulesCatchWhatTheSchemasRefuse() throws {
        let old = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="r" tests="1" failures="0" errors="0" skipped="0" time="1.000">
              <testsuite name="a" tests="1" failures="0" errors="0" time="0.5">
                <testcase classname="a" name="x" time="abc" line="3"/>
              </testsuite>
            </testsuites>
            """
        let junit10 = try JUnitSchema.junit10.violations(old)
        #expect(junit10.contains { $0.contains("attribute skipped is not allowed") })
        #expect(junit10.contains { $0.contains("attribute line is not allowed") })
        let ant = try JUnitSchema.ant.violations(old)
        #expect(ant.contains { $0.contains("required attribute timestamp is missing") })
        #expect(ant.contains { $0.contains("<properties> is missing") })
        #expect(ant.contains { $0.contains("time=\"abc\"") })
    }

    /// 2,000 generated runs: names with quotes, markup, control characters and any script;
    /// every mix of outcomes; each report parses and is valid by both.
    @Test func generatedRunsAreValid() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "get /a", "\"", "<", ">", "&", "'", "\u{0001}", "\u{0008}", "\u{FFFE}", "é", "日本", "🙂", " ", "\n", "]]>",
            "\u{0085}",
        ]
        func text() -> String {
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        for _ in 0..<2_000 {
            var files: [FileReport] = []
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                var file = FileReport(path: "dir/" + text() + ".fathom", redactor: Redactor())
                if Bool.random(using: &generator), Int.random(in: 0..<5, using: &generator) == 0 {
                    file.problem = text()
                }
                for line in 0..<Int.random(in: 0...4, using: &generator) {
                    var request = RequestReport(name: text(), line: line + 1)
                    request.time =
                        Bool.random(using: &generator)
                        ? .milliseconds(Int.random(in: 0...90_000, using: &generator)) : nil
                    request.notes = Bool.random(using: &generator) ? [text()] : []
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: request.failures = [.recording([text()])]
                    case 1: request.failures = [.interrupted(.signal(SIGTERM))]
                    case 2: request.skipped = text()
                    default: break
                    }
                    file.requests.append(request)
                }
                files.append(file)
            }
            let summary = ReplaySummary(
                files: files, elapsed: .milliseconds(Int.random(in: 0...10_000_000, using: &generator)), stopped: nil)
            let xml = JUnitReport.xml(summary, hostname: Bool.random(using: &generator) ? "" : "ci-runner-7")
            for schema in [JUnitSchema.junit10, JUnitSchema.ant] {
                let violations = try schema.violations(xml)
                #expect(violations.isEmpty, "\(schema.name):\n\(violations.joined(separator: "\n"))\n\(xml)")
                if !violations.isEmpty { return }
            }
        }
    }
}
