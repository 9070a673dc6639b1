/// Gathers physical lines into one entry: inline JSON bodies that span lines until their brackets
/// balance, and heredocs (`body <<EOF` … `EOF`).
struct LineAssembler: Sendable {
    private var lines: [String] = []
    private var heredocEnd: String?
    private var depth = 0
    /// A pasted curl command going on over lines ending in `\` (bash) or `^` (Windows `cmd`).
    private var continuingCurl = false

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
        if continuingCurl || (lines.isEmpty && line.trimmingLeadingBlanks.lowercased().hasPrefix("curl ")) {
            lines.append(line)
            let end = line.trimmingTrailingBlanks
            // Goes on after `\` or `^`, or while a quote is open (a JSON body over lines).
            continuingCurl =
                end.hasSuffix("\\") || end.hasSuffix("^") || Self.hasOpenQuote(lines.joined(separator: "\n"))
            return continuingCurl ? nil : finish()
        }
        if lines.isEmpty {
            let trimmed = line.trimmingLeadingBlanks
            guard trimmed.lowercased().hasPrefix("body") else { return line }
            let rest = trimmed.dropFirst(4).trimmingLeadingBlanks
            if rest.hasPrefix("<<") {
                let tag = String(rest.dropFirst(2)).trimming(" \t'\"")
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
        continuingCurl = false
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

    /// Whether a shell quote is still open at the end of `text`.
    static func hasOpenQuote(_ text: String) -> Bool {
        var quote: Character?
        var escaped = false
        for character in text {
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
