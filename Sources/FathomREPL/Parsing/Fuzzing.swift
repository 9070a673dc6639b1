import Foundation

/// Entry points for the fuzz targets in `Fuzz/` (`make fuzz`): the parsers as a line or a file
/// reaches them, with no session and no network. Not API: `@_spi(Fuzzing)`.
@_spi(Fuzzing) public enum Fuzzing {
    /// Lines through the line assembler, each entry through the command parser, and every error
    /// through the error renderer.
    public static func commandLine(_ text: String) {
        var assembler = LineAssembler()
        var entries: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let entry = assembler.add(String(line)) { entries.append(entry) }
        }
        if let rest = assembler.flush() { entries.append(rest) }
        for entry in entries {
            do {
                _ = try CommandParser.parse(entry)
            } catch {
                _ = ErrorRenderer().line(Failure(.command(error)))
            }
        }
    }

    /// Lines as ``commandLine(_:)`` reads them; each command that parses writes its line, and
    /// that line must parse back to an equal command (a trap otherwise, which libFuzzer reports).
    public static func lineRoundTrip(_ text: String) {
        var assembler = LineAssembler()
        var entries: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let entry = assembler.add(String(line)) { entries.append(entry) }
        }
        if let rest = assembler.flush() { entries.append(rest) }
        for entry in entries {
            let parsed: (any Command)?
            do { parsed = try CommandParser.parse(entry) } catch { continue }
            guard let command = parsed else { continue }
            let line = command.line
            let again: (any Command)?
            do {
                again = try CommandParser.parse(line)
            } catch {
                fatalError("'\(entry)' wrote '\(line)', which does not parse: \(error)")
            }
            guard let again, again.isEqual(to: command) else {
                fatalError("'\(entry)' wrote '\(line)', which parses to another command")
            }
        }
    }

    /// Bytes as an import: the first byte picks the format (curl, HAR, Postman), the rest is the
    /// input, read with no file system (a curl line's `-H @file` reads nothing). Every command
    /// the import makes writes a line that parses back to it (a trap otherwise).
    public static func importText(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let format = Importer.Format.allCases[Int(first) % Importer.Format.allCases.count]
        guard
            let imported = try? Importer.read(
                Data(bytes.dropFirst()), name: "fuzz", place: "fuzz", format: format, readFile: { _ in Data() })
        else { return }
        for command in imported.commands {
            let line = command.line
            let again: (any Command)?
            do {
                again = try CommandParser.parse(line)
            } catch {
                fatalError("an import wrote '\(line)', which does not parse: \(error)")
            }
            guard let again, again.isEqual(to: command) else {
                fatalError("an import wrote '\(line)', which parses to another command")
            }
        }
    }

    /// Text as the contents of a session file.
    public static func sessionFile(_ text: String) {
        _ = try? SessionFile.parse(text, path: "fuzz.fathom")
    }

    /// Bytes as one of the files Fathom reads besides session files: the first byte picks the
    /// reader — a `.env`, the user config, a `--data` CSV, a recording, the response archive's
    /// index and records — the rest is the file. Each must end, in time linear in the input, with
    /// values or one error, never a trap.
    public static func dataFile(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let data = Data(bytes.dropFirst())
        let text = String(decoding: data, as: UTF8.self)
        switch first % 5 {
        case 0: _ = DotEnv.parse(text)
        case 1: _ = UserConfig(contents: text, path: "fuzz-config").problems
        case 2: _ = try? CSVTable(parsing: text, source: "fuzz.csv")
        case 3: _ = try? Recording.parse(data, path: "fuzz.recording.json")
        default:
            // An archive's lines as another version or a damaged disk may leave them: each read
            // back as a record (and rebuilt as a response) or skipped.
            _ = ResponseArchive.entries(in: data)
            for line in data.split(separator: 10) {
                guard let record = ArchivedResponse(line: line) else { continue }
                _ = record.entry()
                _ = try? record.document()
                _ = record.searchableText
            }
        }
    }
}
