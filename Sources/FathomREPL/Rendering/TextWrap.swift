/// Text broken at blanks to a terminal's width, so a word is never split at the edge: `help` and
/// `describe` lay their sentences out with it. Colour escapes take no columns.
enum TextWrap {
    /// `text`, each line broken at blanks so none is wider than `width` columns; a line it breaks
    /// goes on after `indent`. A word wider than the line stays whole. `width` 0 leaves it as it is.
    static func wrap(_ text: String, width: Int, indent: String = "") -> String {
        guard width > 0 else { return text }
        let indentWidth = visibleWidth(indent)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard visibleWidth(line) > width else { return String(line) }
            var lines: [String] = []
            var current = ""
            var currentWidth = 0
            // Keep the line's own leading blanks on its first row.
            let leading = line.prefix { $0 == " " }
            current = String(leading)
            currentWidth = leading.count
            var first = true
            for word in line.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false) {
                let wordWidth = visibleWidth(word)
                let room = first ? 0 : 1
                if currentWidth + room + wordWidth > width, currentWidth > (lines.isEmpty ? leading.count : indentWidth)
                {
                    lines.append(current)
                    current = indent + word
                    currentWidth = indentWidth + wordWidth
                } else {
                    current += (first ? "" : " ") + word
                    currentWidth += room + wordWidth
                }
                first = false
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Columns a text takes: its characters, less ANSI escape sequences (and the palette's
    /// escapes as they stand before ``TerminalText/finish(_:)``).
    static func visibleWidth<S: StringProtocol>(_ text: S) -> Int {
        var width = 0
        var inEscape = false
        var inToken = false
        for character in text {
            if inToken {
                if character == "\u{E001}" {
                    inToken = false
                    inEscape = true
                }
            } else if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else if character == "\u{E000}" {
                inToken = true
            } else {
                width += 1
            }
        }
        return width
    }
}
