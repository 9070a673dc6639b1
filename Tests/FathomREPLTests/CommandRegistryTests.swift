import FathomHTTP
import FathomOpenAPI
import Foundation
import Testing

@testable import FathomREPL

@Suite struct CommandRegistryTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The README's reference is the registry's; `FATHOM_RECORD_SNAPSHOTS=1` rewrites it.
    @Test func readmeReferenceMatchesTheRegistry() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = "<!-- commands: generated from CommandRegistry -->\n"
        let end = "<!-- end of commands -->"
        guard let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex)
        else {
            Issue.record("README.md has no generated command reference")
            return
        }
        let reference = CommandRegistry.markdownReference()
        if ProcessInfo.processInfo.environment["FATHOM_RECORD_SNAPSHOTS"] == "1" {
            try (text[..<from.upperBound] + reference + text[to.lowerBound...]).write(
                to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[from.upperBound..<to.lowerBound]) == reference, "re-record with FATHOM_RECORD_SNAPSHOTS=1")
    }

    @Test func namesAreUnique() {
        let names = CommandRegistry.names
        #expect(Set(names).count == names.count)
    }

    /// Every registered name reaches its own type's parser: bare, it parses or fails with a
    /// usage hint from its own spec — never "unknown command", never another command.
    @Test(
        arguments: CommandRegistry.commands.flatMap { type in type.specs.map { (type, $0) } }.map { ($0.0, $0.1.name) })
    func everyCommandHasItsParser(_ type: any Command.Type, name: String) throws {
        do {
            let command = try CommandParser.parse(name)
            #expect(
                command.map { Swift.type(of: $0) == type } == true, "\(name) parsed as \(String(describing: command))")
        } catch {
            // Bare, a command that needs arguments says what they are: its own synopsis.
            let spec = try #require(CommandRegistry.spec(named: name))
            #expect(error.hint == "usage: \(spec.synopsis)", "\(name): \(error)")
        }
    }

    /// Every spec has help: a synopsis that starts with its name, a summary, and `help NAME` works.
    @Test(arguments: CommandRegistry.all.map(\.name))
    func everyCommandHasHelp(_ name: String) throws {
        let spec = try #require(CommandRegistry.spec(named: name))
        #expect(spec.synopsis.hasPrefix(name))
        #expect(!spec.summary.isEmpty)
        #expect(try CommandParser.parse("help \(name)") as? HelpCommand == HelpCommand(topic: name))
    }

    /// Completion after every command name offers what its spec says.
    @Test(arguments: CommandRegistry.all.map(\.name))
    func everyCommandCompletes(_ name: String) throws {
        let spec = try #require(CommandRegistry.spec(named: name))
        var values = SessionSnapshot.Values()
        values.variableNames = ["token"]
        values.paths = ["/users"]
        values.grpcMethods = ["fathom.test.Users/GetUser", "fathom.test.Admin/GetUser", "fathom.test.Users/ListUsers"]
        values.spec = try APIDescription(
            data: Data(
                #"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/users": {"get": {"operationId": "listUsers", "responses": {"200": {"description": "ok"}}}}}}"#
                    .utf8), name: "t.json")
        let completer = Completer(values: values, listFiles: { _ in ["a.fathom"] })
        let candidates = completer.complete("\(name) ").candidates
        switch spec.completion {
        case .none: #expect(candidates.isEmpty)
        case .words(let words): #expect(Set(candidates.map { $0.trimmingCharacters(in: .whitespaces) }) == Set(words))
        case .headers: #expect(candidates.contains("Accept: "))
        case .paths: #expect(candidates.contains { $0.hasPrefix("/users") })
        case .variables: #expect(candidates.contains { $0.contains("token") })
        case .files: #expect(candidates.contains { $0.contains("a.fathom") })
        case .sequence(let steps):
            guard case .words(let words) = steps.first, case .files = steps.last else {
                Issue.record("\(name): a sequence this test does not know")
                break
            }
            #expect(Set(candidates.map { $0.trimmingCharacters(in: .whitespaces) }) == Set(words))
            #expect(completer.complete("\(name) \(words[0]) ").candidates.contains { $0.contains("a.fathom") })
        case .commands: #expect(candidates.contains { $0.hasPrefix("send") })
        case .wordsOrFiles(let words):
            #expect(Set(words.map { $0 + " " }).isSubset(of: Set(candidates)))
            #expect(candidates.contains("a.fathom"))
        case .operation, .operationIDs: #expect(candidates == ["listUsers "])
        case .environments: #expect(candidates.isEmpty)
        case .grpcMethods:
            // Full names, and a short name only when one method has it.
            #expect(
                candidates == [
                    "fathom.test.Users/GetUser ", "fathom.test.Admin/GetUser ", "fathom.test.Users/ListUsers ",
                    "ListUsers ",
                ])
        case .subcommands(let subcommands):
            #expect(Set(candidates.map { $0.trimmingCharacters(in: .whitespaces) }) == Set(subcommands.map(\.word)))
        case .request:
            #expect(candidates.contains { $0.hasPrefix("/users") })
            #expect(completer.complete("\(name) /users ").candidates.contains("Accept:"))
        }
        // And the command's name itself completes.
        #expect(completer.complete(String(name.prefix(max(1, name.count - 1)))).candidates.contains("\(name) "))
    }

    /// An unknown word sends nothing: it is an error, never a request named after it.
    @Test func anUnknownCommandSendsNothing() async throws {
        let transport = MockTransport()
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        _ = await executor.run("base http://api.test")
        let result = await executor.run("frobnicate /x")
        #expect(result.outcome == .failed)
        guard case .failure(let failure)? = result.outputs.first, case .command(let error) = failure.reason else {
            Issue.record("expected a command failure, got \(result.outputs)")
            return
        }
        #expect(error.message == "unknown command 'frobnicate'")
        #expect(transport.requests.isEmpty)
    }
}
