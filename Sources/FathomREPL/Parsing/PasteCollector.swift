/// Gathers what is pasted after `import curl|har|postman -` at the prompt, until it is whole: a
/// curl command where its last line ends (no `\` or `^` after it, no quote left open), a HAR log
/// or a Postman collection where its JSON brackets close.
struct PasteCollector: Sendable {
    let format: Importer.Format
    private var lines: [String] = []
    private var assembler = LineAssembler()
    private var depth = 0

    init(format: Importer.Format) {
        self.format = format
    }

    /// The text pasted so far.
    var text: String { lines.joined(separator: "\n") }

    /// Adds a line; `true` when the paste is whole. Blank lines before it are passed over.
    mutating func add(_ line: String) -> Bool {
        if lines.isEmpty, line.allSatisfy(\.isWhitespace) { return false }
        lines.append(line)
        switch format {
        case .curl:
            return assembler.add(line) != nil
        case .har, .postman:
            depth += LineAssembler.bracketBalance(line)
            return depth <= 0
        }
    }
}
