import FathomGraphQL
@_spi(Fathom) import FathomREPL
import Foundation

/// `fathom-graphql-bench SCHEMA.graphql OPERATION.graphql`: the in-process measures issue 32
/// asks for, on a schema of GitHub's size (Benchmarks/graphql/generate.py writes one): the schema
/// usable (parsed and indexed), built whole, Tab in an operation with it loaded, and the
/// validation of a 12 KB operation. Medians of several runs, in a release build.
@main
struct GraphQLBench {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let schemaPath = arguments.first, let operationPath = arguments.dropFirst().first else {
            print("usage: fathom-graphql-bench SCHEMA.graphql OPERATION.graphql")
            return
        }
        let sdl = try String(contentsOfFile: schemaPath, encoding: .utf8)
        let text = try String(contentsOfFile: operationPath, encoding: .utf8)
        let schema = try GraphQLDescription(sdl: sdl)
        print(
            "schema: \(sdl.utf8.count / 1024) KB of SDL, \(schema.counts.types) types; operation: \(text.utf8.count / 1024) KB"
        )

        report("usable: indexed from the SDL (ls, describe, Tab, response checks)", runs: 5) {
            _ = try GraphQLDescription(sdl: sdl, deferringBuild: true)
        }
        report("built whole (GraphQLSwift's schema and its checks)", runs: 3) {
            _ = try GraphQLDescription(sdl: sdl)
        }
        let operation = try GraphQLOperation(text)
        var problems = 0
        report("validate the operation (every rule of section 5)", runs: 20) {
            problems = schema.validate(operation).count
        }
        print("  (\(problems) problems)")
        report("parse the operation", runs: 20) { _ = try GraphQLOperation(text) }

        // Tab at the prompt, through the REPL's own completer, with the schema loaded.
        let file = NSTemporaryDirectory() + "fathom-graphql-bench-\(UUID().uuidString).graphql"
        try sdl.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let executor = Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:]))
        _ = await executor.runQuietly("base http://127.0.0.1:1")
        _ = await executor.runQuietly("graphql /graphql --schema \(file)")
        _ = await executor.completions(for: "{ ")
        for line in ["{ ", "{ object7(id: 1) { ", "{ object7(id: 1) { field11(", "query Q { o"] {
            let count = executor.completionsFromSnapshot(for: line).count
            report("Tab after '\(line)' (\(count) candidates)", runs: 100, unit: .microseconds) {
                _ = executor.completionsFromSnapshot(for: line)
            }
        }
    }

    enum Unit { case milliseconds, microseconds }

    static func report(_ name: String, runs: Int, unit: Unit = .milliseconds, _ body: () throws -> Void) {
        var times: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let start = clock.now
            do { try body() } catch { print("\(name): \(error)") }
            times.append(clock.now - start)
        }
        let median = times.sorted()[times.count / 2]
        let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
        let shown =
            unit == .milliseconds ? String(format: "%.2f ms", seconds * 1e3) : String(format: "%.1f µs", seconds * 1e6)
        print("\(name): \(shown)  (median of \(runs))")
    }
}
