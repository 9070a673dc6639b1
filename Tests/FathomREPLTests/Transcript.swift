import FathomDemo
import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

/// Runs a script through an executor against a real loopback server and returns what a person
/// would have seen, each entry echoed as `» line`, with times, ports and dates made stable.
struct Transcript {
    let console: BufferConsole
    let executor: Executor
    let printer: OutputPrinter

    init(
        console: BufferConsole = BufferConsole(), environment: [String: String] = [:],
        environmentPaths: [String] = [], transport: (any Transport)? = nil
    ) {
        self.console = console
        executor = Executor(
            options: Executor.Options(
                environmentPaths: environmentPaths, dotEnvPath: nil, environment: environment, prompter: console,
                transport: transport))
        printer = OutputPrinter(
            console: console, format: .text, palette: Palette(enabled: false), redactor: executor.redactor)
    }

    /// Runs every entry of `script` (multi-line bodies and heredocs gathered as the REPL does).
    @discardableResult
    func run(_ script: String) async -> [Executor.Outcome] {
        var assembler = LineAssembler()
        var outcomes: [Executor.Outcome] = []
        for line in script.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let entry = assembler.add(String(line)), !entry.isEmpty else { continue }
            console.echo("» \(entry.replacingOccurrences(of: "\n", with: "\n  "))\n")
            let result = await executor.run(entry)
            printer.print(result.outputs)
            if let followUp = result.followUp {
                outcomes.append(
                    await REPL.perform(followUp, executor: executor, printer: printer, colors: false))
            } else {
                outcomes.append(result.outcome)
            }
        }
        return outcomes
    }

    var text: String { Self.normalize(console.transcript) }

    static func normalize(_ text: String) -> String {
        var result = text
        let rules: [(String, String)] = [
            (#"\d+(\.\d+)? (ms|s)\b"#, "<t>"),
            (#"127\.0\.0\.1:\d+"#, "127.0.0.1:<port>"),
            (#"(?m)^Date: .*$"#, "Date: <date>"),
            // Two responses a second apart differ in Date: `diff` says so, sometimes.
            (#"(?m)^~ Date: .*\n"#, ""),
            (#"demo_[0-9a-f]{32}"#, "demo_<token>"),
            // A masked token shows its last four characters, which differ on every run.
            (#"••••[0-9a-f]{4}\b"#, "••••<last4>"),
        ]
        for (pattern, replacement) in rules {
            result = result.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return result
    }
}

/// Snapshot files in `Snapshots/`, re-recorded only on purpose: `FATHOM_RECORD_SNAPSHOTS=1 swift test`.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Snapshots")

    static func check(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["FATHOM_RECORD_SNAPSHOTS"] == "1" {
            try Data(text.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "no snapshot \(name).txt — record it with FATHOM_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        if text != expected {
            let diff = zip(
                text.split(separator: "\n", omittingEmptySubsequences: false),
                expected.split(separator: "\n", omittingEmptySubsequences: false)
            )
            .enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record(
                "\(name).txt differs at line \((diff?.offset ?? 0) + 1):\n  got:      \(diff?.element.0 ?? "")\n  expected: \(diff?.element.1 ?? "")\n--- whole output ---\n\(text)",
                sourceLocation: sourceLocation)
        }
    }
}
