import FathomJSON
import Foundation
import Testing

/// `--output json`'s promise: within a version, the schema only grows. The summary checked in
/// beside this file (`Snapshots/output-schema.txt`: the version, then each object type with its
/// required fields and its known fields) must still be met while `version` is unchanged; a new
/// version is re-recorded on purpose (`FATHOM_RECORD_SNAPSHOTS=1`).
@Suite struct OutputSchemaStabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots/output-schema.txt")

    /// `version N`, then per type `TYPE required=a,b known=a,b,c`, sorted.
    static func summary() throws -> String {
        let schema = try JSON(parsing: try Data(contentsOf: root.appendingPathComponent("docs/output.schema.json")))
        guard case .object(let definitions)? = schema["$defs"],
            case .number(let version)? = definitions.first(where: {
                $0.key == "version"
            })?.value["const"]
        else { throw Failure("docs/output.schema.json has no $defs.version.const") }
        var lines = ["version \(version)"]
        for definition in definitions.sorted(by: { $0.key < $1.key }) {
            guard case .object(let properties)? = definition.value["properties"] else { continue }
            var required: [String] = []
            if case .array(let names)? = definition.value["required"] {
                required = names.compactMap { if case .string(let name) = $0 { name } else { nil } }.sorted()
            }
            let known = properties.map(\.key).sorted()
            lines.append(
                "\(definition.key) required=\(required.joined(separator: ",")) known=\(known.joined(separator: ","))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test func theSchemaOnlyGrowsWithinAVersion() throws {
        let now = try Self.summary()
        if ProcessInfo.processInfo.environment["FATHOM_RECORD_SNAPSHOTS"] == "1" {
            try Data(now.utf8).write(to: Self.snapshot)
            return
        }
        let recorded = try String(contentsOf: Self.snapshot, encoding: .utf8)
        func parse(_ text: String) -> (version: String, types: [String: (required: Set<String>, known: Set<String>)]) {
            var version = ""
            var types: [String: (Set<String>, Set<String>)] = [:]
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.first == "version" {
                    version = String(words.last ?? "")
                    continue
                }
                func list(_ prefix: String) -> Set<String> {
                    let word = words.first { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count) } ?? ""
                    return Set(word.split(separator: ",").map(String.init))
                }
                types[String(words[0])] = (list("required="), list("known="))
            }
            return (version, types)
        }
        let (oldVersion, oldTypes) = parse(recorded)
        let (newVersion, newTypes) = parse(now)
        guard oldVersion == newVersion else {
            Issue.record("the version went \(oldVersion) → \(newVersion): re-record the summary on purpose")
            return
        }
        for (name, old) in oldTypes {
            guard let new = newTypes[name] else {
                Issue.record("'\(name)' is gone within version \(newVersion): that needs a new version")
                continue
            }
            #expect(new.required == old.required, "'\(name)': required fields changed within version \(newVersion)")
            let lost = old.known.subtracting(new.known)
            #expect(lost.isEmpty, "'\(name)': fields removed within version \(newVersion): \(lost.sorted())")
        }
    }
}
