import FathomJSON
import FathomOpenAPI
import FathomTestSupport
import Foundation
import Testing

/// What `body example` generates for every schema in the OpenAPI corpus (each request body, each
/// component schema) is valid by a second judge: Python's jsonschema, draft 4 for OpenAPI 3.0
/// descriptions and 2020-12 for 3.1, formats asserted. The unit tests hold it to Fathom's own
/// validator; this one keeps the two from agreeing on a mistake.
@Suite struct GeneratedExampleOracleTests {
    static let root = TestCorpora.folder("openapi")

    /// Errors jsonschema reports for each case in `file` (`{"document", "draft", "cases": [{name,
    /// schema, instance}]}`), one line each; empty when every instance is valid.
    static func oracle(_ file: String) throws -> String {
        let python = ProcessInfo.processInfo.environment["FATHOM_PYTHON"] ?? "python3"
        let script = """
            import json, sys
            from jsonschema import Draft4Validator, Draft202012Validator
            given = json.load(open(sys.argv[1]))
            document = given["document"]
            cls = Draft4Validator if given["draft"] == "4" else Draft202012Validator
            for case in given["cases"]:
                document["x-case"] = case["schema"]
                root = dict(document)
                root["$ref"] = "#/x-case"
                for error in cls(root, format_checker=cls.FORMAT_CHECKER).iter_errors(case["instance"]):
                    print(case["name"], list(error.absolute_path), error.message[:200])
            """
        let (status, text) = try Program.run([python, "-c", script, file])
        return status == 0 ? text : "jsonschema failed: \(text)"
    }

    @Test func everyGeneratedExampleIsValidByJsonschema() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.root.path).filter {
            $0.hasSuffix(".json") || $0.hasSuffix(".yaml")
        }.sorted()
        let directory = NSTemporaryDirectory() + "fathom-oracle-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var checked = 0
        for file in files {
            let data = try Data(contentsOf: Self.root.appendingPathComponent(file))
            let api = try APIDescription(data: data, name: file, checkStructure: false)
            var cases: [JSON] = []
            func add(_ name: String, _ schema: JSON) {
                // Request bodies leave out `readOnly` properties, which draft 4 knows nothing of.
                guard !schema.formatted(.compactText).contains("\"readOnly\"") else { return }
                cases.append(
                    .object([
                        .init(key: "name", value: .string(name)), .init(key: "schema", value: schema),
                        .init(key: "instance", value: api.example(of: schema)),
                    ]))
            }
            for operation in api.operations {
                for media in operation.requestBody?.content ?? [] {
                    if let schema = media.schema { add("\(operation.title) \(media.name)", schema) }
                }
            }
            if case .object(let schemas)? = api.document["components"]?["schemas"] {
                for schema in schemas { add("#/components/schemas/\(schema.key)", schema.value) }
            }
            guard !cases.isEmpty else { continue }
            let given = JSON.object([
                .init(key: "document", value: api.document),
                .init(key: "draft", value: .string(api.openAPIVersion.hasPrefix("3.0") ? "4" : "2020-12")),
                .init(key: "cases", value: .array(cases)),
            ])
            let path = directory + "/\(checked).json"
            try Data(given.formatted(.compactText).utf8).write(to: URL(fileURLWithPath: path))
            #expect(try Self.oracle(path) == "", "\(file)")
            checked += cases.count
        }
        #expect(checked > 300, "the corpus's schemas were checked: \(checked)")
    }
}
