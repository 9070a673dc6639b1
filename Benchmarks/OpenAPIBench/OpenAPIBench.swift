import FathomJSON
import FathomOpenAPI
@_spi(Fathom) import FathomREPL
import Foundation

/// `fathom-openapi-bench CORPUS_DIR`: the measures issue 13 asks for, on Twilio's description —
/// load time (JSON and YAML, whole and by phase), path completion with it loaded, and the
/// validation of a 1 MB response. Medians of several runs, in a release build.
@main
struct OpenAPIBench {
    static func main() async throws {
        let corpus = CommandLine.arguments.dropFirst().first ?? "Tests/Corpora/openapi"
        let json = try Data(contentsOf: URL(fileURLWithPath: corpus + "/twilio/twilio_api_v2010.json"))
        let yaml = try Data(contentsOf: URL(fileURLWithPath: corpus + "/twilio/twilio_api_v2010.yaml"))
        print("Twilio's API description: JSON \(json.count / 1024) KB, YAML \(yaml.count / 1024) KB")

        report("load JSON (parse, OpenAPIKit check, index)", runs: 7) {
            _ = try APIDescription(data: json, name: "twilio.json")
        }
        report("load JSON without the OpenAPIKit check", runs: 7) {
            _ = try APIDescription(data: json, name: "twilio.json", checkStructure: false)
        }
        report("  FathomJSON parse alone", runs: 7) { _ = try JSON(parsing: json) }
        report("load YAML (Yams, OpenAPIKit check, index)", runs: 5) {
            _ = try APIDescription(data: yaml, name: "twilio.yaml")
        }
        report("load YAML without the OpenAPIKit check", runs: 5) {
            _ = try APIDescription(data: yaml, name: "twilio.yaml", checkStructure: false)
        }

        let api = try APIDescription(data: json, name: "twilio.json")
        // Completion: the candidates under a partly typed path, as Tab asks for them.
        let prefixes = [
            "/", "/2010-04-01/Accounts/{AccountSid}/", "/2010-04-01/Accounts/AC123/Calls/",
            "/2010-04-01/Accounts/AC123/SIP/Domains/SD1/",
        ]
        report("completion: listing under 4 paths (per Tab)", runs: 200, unit: .microseconds) {
            for prefix in prefixes { _ = api.listing(at: prefix) }
        }
        report("completion: every path template and operationId", runs: 200, unit: .microseconds) {
            _ = api.paths.filter { $0.hasPrefix("/2010-04-01/Accounts/{AccountSid}/Ca") }
            _ = api.operationIDs.filter { $0.hasPrefix("Create") }
        }

        // Tab at the prompt, through the REPL's own completer, with Twilio's description loaded.
        let executor = Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:]))
        _ = await executor.runQuietly("base https://api.twilio.com")
        _ = await executor.runQuietly("set AccountSid AC123")
        _ = await executor.runQuietly("spec \(corpus)/twilio/twilio_api_v2010.json")
        _ = await executor.completions(for: "get /")
        let lines = [
            "get /2010-04-01/Accounts/{{AccountSid}}/Ca", "op Create", "get /2010-04-01/Accounts/AC1/Calls.json ",
            "get /2010-04-01/Accounts/AC1/Calls.json Status==q", "post /2010-04-01/Accounts/AC1/Calls.json ",
            "describe ", "get /",
        ]
        for line in lines {
            let count = executor.completionsFromSnapshot(for: line).count
            report("Tab after '\(line)' (\(count) candidates)", runs: 100, unit: .microseconds) {
                _ = executor.completionsFromSnapshot(for: line)
            }
        }

        // A 1 MB response: a page of calls, checked against the operation's schema.
        let operation = api.operation(method: "GET", path: "/2010-04-01/Accounts/AC1/Calls.json")!
        let body = page(of: api, operation: operation, bytes: 1 << 20)
        print("response: \(body.count / 1024) KB")
        var violations = 0
        report("validate a 1 MB response", runs: 7) {
            violations =
                api.validateResponse(status: 200, contentType: "application/json", body: body, for: operation).count
        }
        print("  (\(violations) violations)")
    }

    /// The operation's own example page, its list repeated until the body reaches `bytes`.
    static func page(of api: APIDescription, operation: APIOperation, bytes: Int) -> Data {
        let schema = operation.response(for: 200)!.content.first!.schema!
        guard case .object(var members) = api.example(of: schema) else { return Data() }
        guard let index = members.firstIndex(where: { if case .array = $0.value { true } else { false } }),
            case .array(let items) = members[index].value, let item = items.first
        else { return Data() }
        let itemSize = item.formatted(.compactText).utf8.count
        members[index].value = .array(Array(repeating: item, count: max(1, bytes / max(itemSize, 1))))
        return Data(JSON.object(members).formatted(.compactText).utf8)
    }

    enum Unit { case milliseconds, microseconds }

    static func report(_ name: String, runs: Int, unit: Unit = .milliseconds, _ body: () throws -> Void) {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            do { try body() } catch {
                print("\(name): \(error)")
                return
            }
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        times.sort()
        let scale = unit == .milliseconds ? 1.0 : 1000.0
        let suffix = unit == .milliseconds ? "ms" : "µs"
        print(
            String(
                format: "%@: median %.1f %@ (min %.1f, max %.1f, %d runs)", name, times[times.count / 2] * scale,
                suffix,
                times[0] * scale, times[times.count - 1] * scale, runs))
    }
}
