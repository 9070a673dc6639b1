import Foundation
import Testing

/// Rules of the code's shape that keep knowledge where it belongs, read from the sources.
@Suite struct ArchitectureTests {
    /// `Sources/FathomREPL`, beside this test's folder.
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FathomREPL")

    /// Each Swift file under `Sources/FathomREPL`, by its path there, with its lines (comments
    /// left out: they may name anything).
    static func files() throws -> [(path: String, lines: [String])] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
        return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            return (path, code)
        }
    }

    /// Where `pattern` is found outside the files `allowed` says may have it: `path:line: text`.
    static func uses(of pattern: String, allowed: (String) -> Bool) throws -> [String] {
        let regex = try Regex(pattern)
        var found: [String] = []
        for (path, lines) in try files() where !allowed(path) {
            for (number, line) in lines.enumerated() where line.contains(regex) {
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    /// What a command is (reads the last response, asks for a secret, opens a conversation) is
    /// a property of the command: no file outside `Commands/` casts to a command type.
    @Test func noFileOutsideCommandsCastsToACommandType() throws {
        let casts = try Self.uses(of: #"\b(is|as[?!]?)\s+[A-Z][A-Za-z]*Command\b"#) { $0.hasPrefix("Commands/") }
        #expect(casts.isEmpty, "\(casts.joined(separator: "\n"))")
    }

    /// Which API a request belongs to is decided in one place, `ScopeRules`: nothing else
    /// searches the session's APIs by origin or asks an API what it claims.
    @Test func scopingIsDecidedInOnePlace() throws {
        let decisions = try Self.uses(of: #"apis\.(firstIndex|indices\.first|first\(|contains|filter)|\.claims\("#) {
            $0 == "Session/Scope.swift" || $0 == "Session/API.swift"
        }
        #expect(decisions.isEmpty, "\(decisions.joined(separator: "\n"))")
    }

    /// A failure's sentence is made in one place, `ErrorRenderer`, from its values: nothing
    /// reads a sentence back apart on its dash to get the hint, and nothing outside
    /// `Parsing/CommandError.swift` and the renderers reads a line's error as its text to decide.
    @Test func noCodeSplitsASentenceToGetItsParts() throws {
        let splits = try Self.uses(of: #"(separatedBy|split\(separator|range\(of|components\(separatedBy):?\s*"\s*—"#) {
            _ in false
        }
        #expect(splits.isEmpty, "\(splits.joined(separator: "\n"))")
        let readsText = try Self.uses(of: #"\.message\.(hasPrefix|contains|hasSuffix)\("#) { _ in false }
        #expect(readsText.isEmpty, "\(readsText.joined(separator: "\n"))")
    }

    /// No line is run by its text from inside the program: commands are values.
    @Test func noCommandIsRunByItsText() throws {
        let byText = try Self.uses(of: #"\brun\("[a-z]"#) { _ in false }
        #expect(byText.isEmpty, "\(byText.joined(separator: "\n"))")
    }

    /// The session core stands apart from the terminal: nothing outside `Terminal/` (the prompt,
    /// the line editor, completion, the loop) names a type declared there, so the executor,
    /// commands, replay and rendering run the same with no terminal at all (a script, a replay,
    /// an MCP client).
    @Test func theCoreDoesNotReachIntoTheTerminal() throws {
        let keywords: Set<Substring> = ["class", "struct", "enum", "actor", "protocol"]
        let modifiers: Set<Substring> = ["public", "final", "private", "fileprivate", "internal", "@_spi(Fathom)"]
        var terminalTypes: Set<String> = []
        for (path, lines) in try Self.files() where path.hasPrefix("Terminal/") {
            for line in lines where !line.hasPrefix(" ") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(where: { keywords.contains($0) }), index + 1 < words.count,
                    words[..<index].allSatisfy({ modifiers.contains($0) })
                else { continue }
                let name = words[index + 1].prefix { $0.isLetter || $0.isNumber }
                if name.first?.isUppercase == true { terminalTypes.insert(String(name)) }
            }
        }
        #expect(terminalTypes.contains("REPL") && terminalTypes.contains("EditLineReader"))
        var uses: [String] = []
        for name in terminalTypes.sorted() {
            uses += try Self.uses(of: #"\b"# + name + #"\b"#) { $0.hasPrefix("Terminal/") }
        }
        #expect(uses.isEmpty, "\(uses.joined(separator: "\n"))")
    }
}
