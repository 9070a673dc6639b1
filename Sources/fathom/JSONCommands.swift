import ArgumentParser
import FathomJSON
import FathomREPL
import Foundation

/// Reading and printing JSON for the `query`, `diff` and `patch` commands.
enum JSONIO {
    /// Reads and parses a document, or prints why not and exits with `status`.
    static func document(_ path: String, command: String, invalidStatus: Int32) throws -> JSON {
        let data: Data
        do {
            data = try InputFile.read(path)
        } catch {
            fail("fathom \(command): \(error)", status: 2)
        }
        do {
            return try JSON(parsing: data)
        } catch {
            fail("fathom \(command): \(path == "-" ? "standard input" : path): \(error)", status: invalidStatus)
        }
    }

    static func print(_ json: JSON, format: JSONFormat) {
        let output = StandardOutput()
        json.write(format, to: output.write)
    }

    static func print(_ text: String) {
        var text = text
        text.withUTF8 { StandardOutput().write($0) }
    }

    /// Ends the process without freeing `documents`: a multi-million-node tree takes longer to free
    /// than to print, and the operating system reclaims it anyway. Output is written unbuffered.
    static func finish(keeping documents: JSON..., status: Int32) -> Never {
        withExtendedLifetime(documents) { exit(status) }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        StandardStreams.diagnose(message)
        exit(status)
    }
}

/// `fathom query`: RFC 9535 JSONPath over a document.
struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Select values with an RFC 9535 JSONPath expression (`.items[0].name` works as `$.items[0].name`).",
        discussion: "Exit status: 0 (even with no match), 1 invalid JSON, 2 invalid expression or unreadable input.")

    @Argument(help: "The expression (unless -f is given), then a JSON file or - for standard input.")
    var arguments: [String] = []

    @Option(name: .customShort("f"), help: "Read the expression from this file.")
    var expressionFile: String?

    @Flag(help: "Print all matches as one JSON array.")
    var array = false

    @Flag(help: "Print the normalized path of each match instead of its value.")
    var paths = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        let needed = expressionFile == nil ? 1 : 0
        guard arguments.count >= needed, arguments.count <= needed + 1 else {
            throw ValidationError(expressionFile == nil ? "expected EXPR [FILE]" : "expected at most one FILE with -f")
        }
    }

    func run() throws {
        let expression: String
        if let expressionFile {
            guard let text = try? String(contentsOfFile: expressionFile, encoding: .utf8) else {
                JSONIO.fail("fathom query: cannot read '\(expressionFile)'", status: 2)
            }
            expression = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            expression = arguments[0]
        }
        let file = arguments.count > (expressionFile == nil ? 1 : 0) ? arguments.last! : "-"
        let path: JSONPath
        do {
            path = try JSONPath(expression)
        } catch {
            JSONIO.fail("fathom query: \(error)", status: 2)
        }
        let document = try JSONIO.document(file, command: "query", invalidStatus: 1)
        let colors: JSONFormat.Colors? = output.colorMode.isEnabled ? .jq : nil
        // Paths cost an allocation per node visited: compute them only when they are printed.
        switch (array, paths) {
        case (false, false):
            let values = path.values(in: document)
            let output = StandardOutput()
            let format = JSONFormat(compact: true, colors: colors)
            for value in values { value.write(format, to: output.write) }
        case (true, false):
            JSONIO.print(.array(path.values(in: document)), format: JSONFormat(colors: colors))
        case (false, true):
            JSONIO.print(path.query(document).map { $0.path.description + "\n" }.joined())
        case (true, true):
            JSONIO.print(
                .array(path.query(document).map { .string($0.path.description) }), format: JSONFormat(colors: colors))
        }
        JSONIO.finish(keeping: document, status: 0)
    }
}

/// `fathom diff`: structural differences between two documents.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show the structural differences between two JSON documents.",
        discussion: "Exit status, as diff(1): 0 the same, 1 different, 2 trouble (invalid JSON, a bad path).")

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case tree, patch, json
    }

    @Argument(help: "The first document (a file, or -).")
    var old: String

    @Argument(help: "The second document.")
    var new: String

    @Option(help: "tree (for people), patch (RFC 6902) or json (a summary).")
    var format: OutputFormat = .tree

    @Option(help: "A JSONPath whose values are not compared; repeatable.")
    var ignore: [String] = []

    @Option(help: "Match array elements that are objects by this member, such as id.")
    var arrayKey: String?

    @OptionGroup var output: OutputOptions

    func run() throws {
        var ignored: [JSONPath] = []
        for expression in ignore {
            do {
                ignored.append(try JSONPath(expression))
            } catch {
                JSONIO.fail("fathom diff: --ignore: \(error)", status: 2)
            }
        }
        let first = try JSONIO.document(old, command: "diff", invalidStatus: 2)
        let second = try JSONIO.document(new, command: "diff", invalidStatus: 2)
        let diff = JSONDiff(from: first, to: second, options: .init(arrayKey: arrayKey, ignore: ignored))
        let colors = output.colorMode.isEnabled
        switch format {
        case .tree: JSONIO.print(diff.tree(colors: colors))
        case .patch: JSONIO.print(diff.patch.json, format: JSONFormat(colors: colors ? .jq : nil))
        case .json: JSONIO.print(diff.summaryJSON, format: JSONFormat(colors: colors ? .jq : nil))
        }
        JSONIO.finish(keeping: first, second, status: diff.isEmpty ? 0 : 1)
    }
}

/// `fathom patch`: apply an RFC 6902 patch.
struct Patch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Apply an RFC 6902 JSON Patch to a document and print the result.",
        discussion: "Exit status: 0 applied, 1 the patch does not apply (nothing is changed), 2 invalid input.")

    @Argument(help: "The document (a file, or -).")
    var document: String

    @Argument(help: "The patch (a file, or -).")
    var patch: String

    @OptionGroup var output: OutputOptions

    func run() throws {
        let target = try JSONIO.document(document, command: "patch", invalidStatus: 2)
        let operations = try JSONIO.document(patch, command: "patch", invalidStatus: 2)
        let result: JSON
        do {
            result = try JSONPatch(operations).apply(to: target)
        } catch {
            JSONIO.fail("fathom patch: \(error)", status: 1)
        }
        JSONIO.print(result, format: JSONFormat(colors: output.colorMode.isEnabled ? .jq : nil))
        JSONIO.finish(keeping: target, result, status: 0)
    }
}
