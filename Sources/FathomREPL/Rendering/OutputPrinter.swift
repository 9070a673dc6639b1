import FathomHTTP

/// How outputs are written: text for a person (colored at a terminal), or one JSON object per
/// output for a script (`--output json`).
public enum OutputFormat: String, CaseIterable, Sendable {
    case text
    case json
}

/// Writes what commands returned: rendered, through the pager when long at a terminal, each to
/// its stream. The prompt loop, the script runner and replay print through it.
struct OutputPrinter: Sendable {
    let console: any Console
    let format: OutputFormat
    let text: OutputRenderer
    let json: JSONOutputRenderer

    init(console: any Console, format: OutputFormat, palette: Palette, redactor: Redactor) {
        self.console = console
        self.format = format
        self.text = OutputRenderer(palette: palette, redactor: redactor)
        self.json = JSONOutputRenderer(redactor: redactor)
    }

    func print(_ outputs: [Output], pager: PagerMode = .off) {
        for output in outputs { print(output, pager: pager) }
    }

    func print(_ output: Output, pager: PagerMode = .off) {
        switch format {
        case .json:
            console.write(json.render(output))
        case .text:
            var renderer = text
            if console.isInteractive { renderer.width = console.columns }
            let rendered = renderer.render(output)
            switch rendered.stream {
            case .standardError: console.writeError(rendered.text)
            case .standardOutput:
                if rendered.pageable, console.isInteractive, pager != .off {
                    let lines = rendered.text.reduce(into: 0) { count, character in if character == "\n" { count += 1 }
                    }
                    if pager == .on || (console.rows > 0 && lines > console.rows - 2), console.page(rendered.text) {
                        return
                    }
                }
                console.write(rendered.text)
            }
        }
    }
}
