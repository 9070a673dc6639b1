/// Gathers physical lines into one entry, as the entry's command says its line goes on
/// (``CommandSpec/Continuation``): a body's inline JSON until its brackets balance, or its heredoc
/// (`body <<EOF` … `EOF`, `body raw <<EOF`); a pasted shell command over `\`, `^` or an open quote.
struct LineAssembler: Sendable {
    private var lines: [String] = []
    private var heredocEnd: String?
    private var depth = 0
    /// A pasted shell command going on over lines ending in `\` (bash) or `^` (Windows `cmd`).
    private var continuingShell = false
    /// A GraphQL operation going on until its braces close.
    private var graphQL = false

    init() {}

    /// Whether an entry is half-read (the prompt shows a continuation marker).
    var isContinuing: Bool { !lines.isEmpty }

    /// Adds a line; returns the whole entry when it is complete.
    mutating func add(_ line: String) -> String? {
        if let end = heredocEnd {
            lines.append(line)
            guard line.trimmingTrailingBlanks == end else { return nil }
            return finish()
        }
        let continuation = lines.isEmpty ? Self.continuation(of: line) : nil
        if continuingShell || continuation?.kind == .shellWords {
            lines.append(line)
            let end = line.trimmingTrailingBlanks
            // Goes on after `\` or `^`, or while a quote is open (a JSON body over lines).
            continuingShell =
                end.hasSuffix("\\") || end.hasSuffix("^") || Self.hasOpenQuote(lines.joined(separator: "\n"))
            return continuingShell ? nil : finish()
        }
        if lines.isEmpty, GraphQLText.startsOperation(line) {
            depth = 0
            graphQL = true
        }
        if graphQL {
            lines.append(line)
            depth += GraphQLText.depth(line)
            return depth > 0 ? nil : finish()
        }
        if lines.isEmpty {
            if let continuation, continuation.kind == .jsonAfterWord {
                let rest = continuation.rest.drop { $0 != " " && $0 != "\t" }.drop { $0 == " " || $0 == "\t" }
                guard rest.hasPrefix("{") || rest.hasPrefix("[") else { return line }
                depth = 0
                lines.append(line)
                depth += Self.bracketBalance(line)
                return depth > 0 ? nil : finish()
            }
            guard let continuation, continuation.kind == .body else { return line }
            let rest = continuation.rest
            // A heredoc's marker ends the first line: `body <<EOF`, `body raw <<EOF`.
            let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let last = words.last, last.hasPrefix("<<"), words.count <= 2 {
                let tag = String(last.dropFirst(2)).trimming(" \t'\"")
                guard !tag.isEmpty else { return line }
                heredocEnd = tag
                lines.append(line)
                return nil
            }
            guard rest.hasPrefix("{") || rest.hasPrefix("[") else { return line }
            depth = 0
        }
        lines.append(line)
        depth += Self.bracketBalance(line)
        return depth > 0 ? nil : finish()
    }

    /// Drops a half-read entry (Ctrl-C at a continuation prompt).
    mutating func cancel() {
        lines = []
        heredocEnd = nil
        depth = 0
        continuingShell = false
        graphQL = false
    }

    /// The half-read entry, for end of input: it runs as it is and fails with a clear error.
    mutating func flush() -> String? {
        guard !lines.isEmpty else { return nil }
        return finish()
    }

    private mutating func finish() -> String {
        let entry = lines.joined(separator: "\n")
        cancel()
        return entry
    }

    /// How the command a line starts with goes on, and the line after the command's name.
    private static func continuation(of line: String) -> (kind: CommandSpec.Continuation, rest: Substring)? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        let name = trimmed.prefix { $0 != " " && $0 != "\t" }
        guard let spec = CommandRegistry.spec(named: String(name)), spec.continuation != .none else { return nil }
        return (spec.continuation, trimmed.dropFirst(name.count).drop { $0 == " " || $0 == "\t" })
    }

    /// Whether a shell quote is still open at the end of `text`.
    static func hasOpenQuote(_ text: String) -> Bool {
        var quote: Unicode.Scalar?
        var escaped = false
        for character in text.unicodeScalars {
            if escaped {
                escaped = false
                continue
            }
            switch (quote, character) {
            case (nil, "\\"), ("\"", "\\"): escaped = true
            case (nil, "'"), (nil, "\""): quote = character
            case ("'", "'"), ("\"", "\""): quote = nil
            default: break
            }
        }
        return quote != nil
    }

    /// Opening minus closing brackets outside JSON strings. Strings do not span lines in JSON.
    static func bracketBalance(_ line: String) -> Int {
        var balance = 0
        var inString = false
        var escaped = false
        for byte in line.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): balance += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): balance -= 1
            default: break
            }
        }
        return balance
    }
}

extension String {
    func trimming(_ set: String) -> String {
        var copy = Substring(self)
        while let first = copy.first, set.contains(first) { copy.removeFirst() }
        while let last = copy.last, set.contains(last) { copy.removeLast() }
        return String(copy)
    }
}
