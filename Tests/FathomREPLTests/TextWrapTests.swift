import Testing

@testable import FathomREPL

@Suite struct TextWrapTests {
    @Test func linesBreakAtBlanksWithinTheWidth() {
        let text = "  Inline JSON may span lines until its brackets balance, and a heredoc reads lines"
        let wrapped = TextWrap.wrap(text, width: 30, indent: "  ")
        for line in wrapped.split(separator: "\n") { #expect(line.count <= 30, "\(line)") }
        #expect(wrapped.replacingOccurrences(of: "\n  ", with: " ") == text, "no word is split or lost")
        #expect(wrapped.hasPrefix("  Inline JSON may span lines\n  until"))
    }

    @Test func escapesTakeNoColumnsAndLongWordsStayWhole() {
        let bold = "\u{1B}[1mbold\u{1B}[0m"
        #expect(TextWrap.visibleWidth(bold) == 4)
        #expect(TextWrap.wrap("\(bold) \(bold)", width: 9) == "\(bold) \(bold)")
        let long = String(repeating: "x", count: 50)
        #expect(TextWrap.wrap("a \(long) b", width: 20) == "a\n\(long)\nb")
        #expect(TextWrap.wrap("short", width: 0) == "short")
    }

    /// `help COMMAND` on a narrow terminal: every line fits, every word whole.
    @Test func helpWrapsToTheTerminal() {
        let renderer = OutputRenderer(palette: Palette(enabled: false), redactor: .init(), width: 50)
        let text = renderer.render(.help(CommandRegistry.spec(named: "body"))).text
        for line in text.split(separator: "\n").dropFirst() { #expect(line.count <= 50, "\(line)") }
        #expect(text.contains("`body <<EOF` reads lines until one is"))
    }
}
