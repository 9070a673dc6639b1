import FathomJSON
import FathomOpenAPI
import FathomTestSupport
import Foundation
import Testing

/// Runs the built `fathom` binary as a user would.
enum FathomBinary {
    /// The `fathom` executable beside the test bundle, or `FATHOM_BIN`.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["FATHOM_BIN"] { return path }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        var directory = testBinary.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("fathom").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return packageRoot + "/.build/debug/fathom"
    }

    /// The repository's root: the folder that holds `Package.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The state folder (the response archive, the line history) of every run this test process
    /// makes, unless a test gives its own.
    static let stateHome = NSTemporaryDirectory() + "fathom-e2e-state-\(getpid())"

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `fathom` with `arguments`, feeding `input` to its standard input.
    static func run(
        _ arguments: [String], script: String, environment: [String: String] = [:], directory: String? = nil
    )
        throws -> Run
    {
        try run(arguments, input: Array(script.utf8), environment: environment, directory: directory)
    }

    static func run(
        _ arguments: [String], input: [UInt8]? = nil, environment: [String: String] = [:], directory: String? = nil
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        // No person's config file reaches a test unless the test gives one, and no run keeps its
        // responses in the person's archive: the test process's own state folder has them.
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["FATHOM_CONFIG": "/nonexistent/fathom/config", "XDG_STATE_HOME": stateHome].merging(environment) { $1 }
        ) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            Thread {
                stdin.fileHandleForWriting.write(Data(input))
                try? stdin.fileHandleForWriting.close()
            }.start()
        }
        // Read standard error on its own thread: a full pipe on either stream would stall the child.
        let stderrData = Locked(Data())
        let stderrDone = DispatchSemaphore(value: 0)
        Thread {
            stderrData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }
            stderrDone.signal()
        }.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        stderrDone.wait()
        let stderr = stderrData.value
        process.waitUntilExit()
        let run = Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
        if let option = arguments.firstIndex(of: "--output"), arguments.dropFirst(option + 1).first == "json" {
            OutputSchema.check(run.stdout, arguments: arguments)
        }
        return run
    }
}

/// `docs/output.schema.json`, the documented shape of `--output json`: every line the suite's
/// runs print with it is checked against the schema, with Fathom's own JSON Schema validator.
enum OutputSchema {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/output.schema.json").path

    static let validator: SchemaValidator = {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        let schema = (try? JSON(parsing: data)) ?? .null
        return SchemaValidator(
            schema: schema, baseURI: "https://fathom.example/output.schema.json", dialect: .draft2020_12)
    }()

    /// Lines checked so far, by type: the suite reports what it covered.
    static let seen = Locked([String: Int]())

    /// Records an issue for each line of `stdout` that is not JSON or breaks the schema.
    static func check(_ stdout: String, arguments: [String]) {
        for line in stdout.split(separator: "\n") {
            guard let object = try? JSON(parsing: Data(line.utf8)) else {
                Issue.record("not a JSON object (fathom \(arguments.joined(separator: " "))): \(line.prefix(200))")
                continue
            }
            let violations = validator.validate(object)
            if !violations.isEmpty {
                Issue.record(
                    "breaks docs/output.schema.json: \(violations.prefix(5).map(\.description)) — \(line.prefix(300))")
            }
            if case .string(let type)? = object["type"] { seen.withLock { $0[type, default: 0] += 1 } }
        }
    }
}

/// Runs another program a test needs (swiftc, a Python, bash) and reads what it printed.
enum Program {
    /// `command` found on PATH through `env`; standard output and error together.
    static func run(_ command: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
