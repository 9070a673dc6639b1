import Foundation
import Testing

@testable import FathomREPL

/// The one sanitiser between outside text and the terminal.
@Suite struct TerminalTextTests {
    @Test func controlCharactersBecomeVisibleSymbols() {
        let outside = "a\u{1B}]0;pwned\u{07}b\u{0}c\u{7F}d\u{9B}31me\rf\tg\nh"
        let shown = TerminalText.finish(outside)
        #expect(shown == "a␛]0;pwned␇b␀c␡d\\x9b31me␍f\tg\nh")
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\n" })
        #expect(TerminalText.visible("x\u{1B}[2J") == "x␛[2J")
        #expect(TerminalText.finish("plain text, ünïcödé ✓") == "plain text, ünïcödé ✓")
    }

    /// Fathom's own colors become escapes; an escape inside the colored text does not.
    @Test func onlyThePalettesColorsBecomeEscapes() {
        let palette = Palette(enabled: true)
        let text = palette.red("status \u{1B}[8mhidden")
        #expect(TerminalText.finish(text) == "\u{1B}[31mstatus ␛[8mhidden\u{1B}[0m")
        // Someone who does not know the token cannot forge the introducer.
        let forged = "\u{E000}abcdefghijkl\u{E001}[8m"
        #expect(TerminalText.finish(forged) == forged)
        #expect(TerminalText.adopting("\u{1B}[1;39m{") == TerminalText.sgr("1;39") + "{")
    }

    /// A body asked for as it is (`decoder raw`) passes untouched, the rest around it does not.
    @Test func verbatimTextPassesAsItIs() {
        let raw = "bytes \u{1B}[31m as sent\u{0}"
        let text = "before \u{7}" + TerminalText.verbatim(raw) + " after \u{7}"
        #expect(TerminalText.finish(text) == "before ␇" + raw + " after ␇")
    }

    @Test func widthsIgnoreThePalettesCodes() {
        #expect(TextWrap.visibleWidth(Palette(enabled: true).bold("abc")) == 3)
    }
}
