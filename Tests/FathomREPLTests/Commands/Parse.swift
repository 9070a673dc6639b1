@testable import FathomREPL

/// The command a line parses to, as the type the test expects; `nil` when it is another command.
func parse<C: Command>(_ line: String, as type: C.Type = C.self) throws -> C? {
    try CommandParser.parse(line) as? C
}

/// The error a line fails to parse with, or `nil` when it parses.
func parseError(_ line: String) -> CommandError? {
    do {
        _ = try CommandParser.parse(line)
        return nil
    } catch {
        return error
    }
}
