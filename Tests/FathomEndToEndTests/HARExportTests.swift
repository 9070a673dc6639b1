import FathomTestSupport
import Foundation
import Testing

/// `export har FILE`: the session as HAR 1.2, valid against the har-schema JSON Schemas, masked,
/// and imported back.
@Suite struct HARExportTests {
    static let schemas = TestCorpora.folder("har/har-schema/lib")

    /// Errors from validating `file` against har.json with jsonschema; empty when valid.
    func validate(_ file: String) throws -> String {
        let python = ProcessInfo.processInfo.environment["FATHOM_PYTHON"] ?? "python3"
        let script = """
            import glob, json, os, sys
            from jsonschema import Draft6Validator
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT6
            schemas = {os.path.basename(p): json.load(open(p)) for p in glob.glob(sys.argv[1] + "/*.json")}
            registry = Registry().with_resources(
                (name, Resource.from_contents(schema, default_specification=DRAFT6)) for name, schema in schemas.items())
            validator = Draft6Validator(schemas["har.json"], registry=registry)
            for error in validator.iter_errors(json.load(open(sys.argv[2]))):
                print(list(error.absolute_path), error.message)
            """
        let (status, text) = try Program.run([python, "-c", script, Self.schemas.path, file])
        return status == 0 ? text : "validator failed: \(text)"
    }

    @Test func theSessionIsAValidMaskedHARThatImportsBack() throws {
        let server = try DemoServerProcess(accessLog: true)
        let directory = NSTemporaryDirectory() + "fathom-har-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let secret = "har-Export-Secret-77c1"
        let run = try FathomBinary.run(
            [server.baseURL],
            script: """
                secret token = \(secret)
                get /users/2 X-Token:{{token}} api_key=={{token}}
                post /echo note={{token}} n:=1
                get /bytes/64
                export har \(directory)/session.har
                """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("wrote 3 entries to \(directory)/session.har (HAR 1.2)"))
        let har = try String(contentsOfFile: directory + "/session.har", encoding: .utf8)
        #expect(!har.contains(secret))
        #expect(har.contains("Grace Hopper"))
        #expect(try validate(directory + "/session.har") == "", "valid HAR 1.2")

        _ = server.takeRequests()
        let imported = try FathomBinary.run(["import", directory + "/session.har"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.components(separatedBy: "\nsend").count - 1 == 3)
    }
}
