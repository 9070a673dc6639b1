import FathomTestSupport
import Foundation

/// The external test suites, copied into the repository under `Tests/Corpora` (see its README).
enum Corpus {
    /// `FATHOM_CORPORA`, else `Tests/Corpora` in this repository.
    static let root = TestCorpora.root

    /// The corpora folder, or a failure that says where it was looked for.
    static func require() throws -> URL {
        guard FileManager.default.fileExists(atPath: root.path) else {
            throw MissingCorpora(path: root.path)
        }
        return root
    }

    struct MissingCorpora: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "test corpora not found at \(path): expected Tests/Corpora in the repository, or set FATHOM_CORPORA"
        }
    }

    /// JSONTestSuite's `test_parsing` files as (name, bytes), sorted by name.
    static func jsonTestSuite() throws -> [(name: String, bytes: [UInt8])] {
        let directory = try require().appendingPathComponent("jsontestsuite")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        return try names.sorted().map { name in
            (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }
}

/// Runs jq, when installed, on `input` with `arguments`; `nil` when jq is missing or rejects the input.
enum JQ {
    static let path = "/usr/bin/jq"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    static func run(_ arguments: [String], input: [UInt8]) throws -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Array(output) : nil
    }
}
