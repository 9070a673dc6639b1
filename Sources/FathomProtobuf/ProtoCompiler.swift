import Foundation

/// Descriptors from `.proto` files, through `protoc`: the files compiled with their imports and
/// comments into a FileDescriptorSet, then linked.
///
/// What goes wrong is one line: an import found in none of the directories names the import and
/// says to add `-I`, a file outside them says which directory to add, a syntax error is protoc's
/// first message, no `protoc` says how to install one.
public struct ProtoCompiler: Sendable {
    /// The command that runs protoc (`["protoc"]`, or `["python3", "-m", "grpc_tools.protoc"]`).
    public let command: [String]
    /// The import directories (`-I`); when empty, each file's own directory.
    public let importPaths: [String]
    /// How long protoc may run before it is stopped and the compile fails.
    public let timeout: Duration

    /// A compiler running `command` with `importPaths`, stopped after `timeout`.
    public init(command: [String] = ["protoc"], importPaths: [String] = [], timeout: Duration = .seconds(60)) {
        self.command = command
        self.importPaths = importPaths
        self.timeout = timeout
    }

    /// The descriptors of `files` and everything they import.
    public func compile(_ files: [String]) throws(ProtobufError) -> DescriptorPool {
        try DescriptorPool(fileDescriptorSet: try descriptorSet(files))
    }

    /// The serialized FileDescriptorSet of `files` and everything they import.
    public func descriptorSet(_ files: [String]) throws(ProtobufError) -> [UInt8] {
        guard !files.isEmpty else { throw ProtobufError("no .proto file given") }
        let paths =
            importPaths.isEmpty
            ? Array(Set(files.map { ($0 as NSString).deletingLastPathComponent })).map { $0.isEmpty ? "." : $0 }
                .sorted()
            : importPaths
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-protoc-\(UUID()).pb").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            command + paths.map { "-I\($0)" } + [
                "--descriptor_set_out=\(output)", "--include_imports", "--include_source_info",
            ] + files
        // protoc's messages go to a file, not a pipe: a child it left running cannot hold the
        // wait open after it is stopped.
        let messages = output + ".txt"
        defer { try? FileManager.default.removeItem(atPath: messages) }
        guard FileManager.default.createFile(atPath: messages, contents: nil),
            let errors = FileHandle(forWritingAtPath: messages)
        else { throw ProtobufError("cannot write to \(FileManager.default.temporaryDirectory.path)") }
        defer { try? errors.close() }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Self.notInstalled(command)
        }
        // The wait is bounded: protoc is stopped after the timeout.
        let started = ContinuousClock.now
        // SIGKILL, not terminate(): a child inherits the signal mask of the thread that started it,
        // and one that blocks SIGTERM would never see it.
        let stop = DispatchWorkItem { [process] in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .milliseconds(Int(timeout / .milliseconds(1))), execute: stop)
        process.waitUntilExit()
        stop.cancel()
        let text = String(decoding: FileManager.default.contents(atPath: messages) ?? Data(), as: UTF8.self)
        if process.terminationReason == .uncaughtSignal {
            throw ProtobufError(
                ContinuousClock.now - started >= timeout
                    ? "\(command.first ?? "protoc") did not finish within \(timeout)"
                    : "\(command.first ?? "protoc") stopped on signal \(process.terminationStatus)")
        }
        // env exits 127 when it finds no such command.
        if process.terminationStatus == 127 { throw Self.notInstalled(command) }
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: output) else {
            throw Self.explain(text, importPaths: paths)
        }
        return [UInt8](data)
    }

    private static func notInstalled(_ command: [String]) -> ProtobufError {
        ProtobufError(
            "\(command.first ?? "protoc") is not installed: apt-get install protobuf-compiler (or give descriptors with --protoset)"
        )
    }

    /// protoc's messages as one line: the first that says what to do.
    static func explain(_ text: String, importPaths: [String]) -> ProtobufError {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let directories = importPaths.joined(separator: ", ")
        for line in lines {
            // `a.proto:2:1: Import "b.proto" was not found or had errors.`
            if let range = line.range(of: #"Import ""#), let end = line[range.upperBound...].firstIndex(of: "\""),
                lines.contains(where: { $0.hasPrefix(line[range.upperBound..<end] + ": File not found") })
            {
                let importer = line.prefix { $0 != ":" }
                let imported = line[range.upperBound..<end]
                return ProtobufError(
                    "\(importer) imports \(imported), which is in none of the import directories (\(directories)): add -I DIR"
                )
            }
        }
        if let line = lines.first(where: { $0.contains("File does not reside within any path") }) {
            let file = line.prefix { $0 != ":" }
            return ProtobufError(
                "\(file) is in none of the import directories (\(directories)): add -I with its directory")
        }
        if let line = lines.first(where: { $0.hasSuffix(": File not found.") }) {
            return ProtobufError(String(line.dropLast()))
        }
        return ProtobufError(lines.first ?? "protoc failed without saying why")
    }
}
