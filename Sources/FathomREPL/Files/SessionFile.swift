import Foundation

/// A `.fathom` file read and checked: its entries (lines, or several gathered by
/// ``LineAssembler``), each with the line it starts on and its parsed command.
///
/// Reading checks every line before any runs, so that `load` and `replay` refuse a broken file
/// whole instead of stopping half-way through it.
struct SessionFile: Sendable {
    struct Entry: Sendable {
        /// The 1-based line the entry starts on.
        var line: Int
        var text: String
        /// Parsed once, when the file is read: `load` and `replay` run this value.
        var command: any Command
        /// A `# name: …` comment above the line: what a replay's report calls its request.
        var name: String? = nil
    }

    /// Why a file cannot be run: `FILE:LINE:COLUMN: reason`.
    struct Problem: Error, Sendable, CustomStringConvertible {
        var path: String
        var line: Int?
        var column: Int?
        var message: String
        /// What to do about it, apart from what is wrong: renderers join them, replay's report
        /// shows it as its own field.
        var hint: String? = nil
        /// The line's own failure, when a line does not parse: its domain, problem and values.
        var error: CommandError? = nil

        var description: String {
            var location = path
            if let line { location += ":\(line)" }
            if let column { location += ":\(column)" }
            return "\(location): \(message)" + (hint.map { " — \($0)" } ?? "")
        }
    }

    var path: String
    var entries: [Entry]

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: ``Problem`` when the file is missing, unreadable, empty, binary, or has a line
    ///   that does not parse.
    static func read(_ path: String) throws(Problem) -> SessionFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Problem(path: path, message: "no such file")
        }
        guard !isDirectory.boolValue else { throw Problem(path: path, message: "is a directory, not a session file") }
        if let problem = BoundedFile.problem(path, limit: BoundedFile.session, what: "a session file") {
            throw Problem(path: path, message: problem)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(path: path, message: "cannot read it (permission denied?)")
        }
        guard !data.isEmpty else { throw Problem(path: path, message: "the file is empty") }
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, message: "not a text file (binary or not UTF-8)")
        }
        return try parse(text, path: path)
    }

    /// Checks `text` as the contents of a file named `path`.
    static func parse(_ text: String, path: String) throws(Problem) -> SessionFile {
        var entries: [Entry] = []
        var assembler = LineAssembler()
        var start = 1
        var name: String?
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        for (index, raw) in lines.enumerated() {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            if !assembler.isContinuing {
                start = index + 1
                if let given = Self.name(in: line) { name = given }
            }
            guard let entry = assembler.add(line) else { continue }
            let command: (any Command)?
            do {
                command = try CommandParser.parse(entry)
            } catch {
                let (lineOffset, column) = position(of: error.column, in: entry)
                throw Problem(
                    path: path, line: start + lineOffset, column: column, message: error.message, hint: error.advice,
                    error: error)
            }
            if let command {
                entries.append(Entry(line: start, text: entry, command: command, name: name))
                name = nil
            }
        }
        if assembler.isContinuing {
            throw Problem(
                path: path, line: start,
                message: "this body does not end: a heredoc without its end line, or unbalanced JSON")
        }
        guard !entries.isEmpty else { throw Problem(path: path, message: "no commands in the file, only comments") }
        return SessionFile(path: path, entries: entries)
    }

    /// The name a `# name: NAME` comment gives the line under it.
    static func name(in line: String) -> String? {
        let text = line.trimmingBlanksAround
        guard text.hasPrefix("#") else { return nil }
        let comment = text.dropFirst().trimmingBlanks
        guard comment.lowercased().hasPrefix("name:") else { return nil }
        let name = comment.dropFirst(5).trimmingBlanks
        return name.isEmpty ? nil : String(name)
    }

    /// A column in a multi-line entry as (line offset, column on that line).
    static func position(of column: Int?, in entry: String) -> (Int, Int?) {
        guard let column else { return (0, nil) }
        var line = 0
        var lineStart = 0
        for (offset, character) in entry.enumerated() where offset < column - 1 && character == "\n" {
            line += 1
            lineStart = offset + 1
        }
        return (line, column - lineStart)
    }

    /// The `secret NAME` lines that ask for a value (not `secret NAME = VALUE`).
    var secretNames: [String] {
        entries.compactMap { $0.command.secretAskedFor }
    }
}
