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

    /// Text as the contents of a session file.
    public static func sessionFile(_ text: String) {
        _ = try? SessionFile.parse(text, path: "fuzz.fathom")
    }
}
