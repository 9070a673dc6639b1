import ArgumentParser
import FathomJSON
import FathomREPL
import Foundation

/// `fathom fmt`: validates and pretty-prints JSON as `jq .` does, without building a tree.
struct Format: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Validate and pretty-print JSON (like `jq .`, keeping numbers as written).",
        discussion: "Exit status: 0 valid, 1 invalid JSON (the error on standard error), 2 unreadable input.")

    @Argument(help: "A JSON file, or - for standard input.")
    var file = "-"

    @OptionGroup var output: OutputOptions

    @Option(help: "Spaces per level (0–7); 0 prints compactly.")
    var indent = 2

    @Flag(name: [.short, .long], help: "Print on one line.")
    var compact = false

    func validate() throws {
        guard (0...7).contains(indent) else { throw ValidationError("--indent must be between 0 and 7") }
    }

    func run() throws {
        let input: Data
        do {
            input = try InputFile.read(file)
        } catch {
            StandardStreams.diagnose("fathom fmt: \(error)")
            throw ExitCode(2)
        }
        let format = JSONFormat(indent: indent, compact: compact, colors: output.colorMode.isEnabled ? .jq : nil)
        let output = StandardOutput()
        do {
            try input.withUnsafeBytes { raw in
                try JSONFormatter.format(raw.bindMemory(to: UInt8.self), as: format, sink: output.write)
            }
        } catch {
            let name = file == "-" ? "standard input" : file
            StandardStreams.diagnose("fathom fmt: \(name): \(error)")
            throw ExitCode(1)
        }
    }
}

/// Reading a named file or standard input.
enum InputFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(description: "cannot read '\(path)': no such file")
        }
        guard !isDirectory.boolValue else { throw Failure(description: "cannot read '\(path)': is a directory") }
        do {
            // Mapped, not copied: a 100 MB document costs no 100 MB of heap.
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw Failure(description: "cannot read '\(path)': permission denied")
        }
    }
}

/// Writes blocks straight to file descriptor 1.
/// Standard output for the JSON commands: a failed write ends the process cleanly.
struct StandardOutput {
    func write(_ block: UnsafeBufferPointer<UInt8>) {
        if let code = StandardStreams.write(UnsafeRawBufferPointer(block), to: STDOUT_FILENO) {
            StandardStreams.outputFailed(code)
        }
    }
}
