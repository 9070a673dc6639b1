@_spi(Fathom) import FathomHTTP
import Foundation

/// `mock PATH @FILE | mock PATH status CODE | mock off`: answers matching paths locally through
/// the library's MockTransport, in front of the network.
struct MockCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "mock", synopsis: "mock PATH @FILE | mock PATH status CODE | mock off",
        summary: "answer matching paths locally (the library's MockTransport); bare `mock` lists",
        details: """
            A mock belongs to the API it was set for: it answers requests to that origin whose path \
            and query contain PATH (a full URL names its own origin), and every other request goes \
            to the network. A mocked response says `mock` where the protocol would be.
            """,
        completion: .paths, group: .client)

    enum Action: Equatable, Sendable {
        case list
        case off
        case file(path: String, file: String)
        case status(path: String, code: Int)
    }

    var action: Action

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        MockCommand(action: try mock(&arguments))
    }

    var logKind: SessionLog.Kind? { action == .list ? nil : .setting }

    var filesRead: [String] {
        guard case .file(_, let file) = action else { return [] }
        return [file]
    }

    var line: String {
        var writer = LineWriter("mock")
        switch action {
        case .list: break
        case .off: writer.raw("off")
        case .file(let path, let file):
            writer.word(path, literal: true)
            writer.raw("@" + Quoting.word(file))
        case .status(let path, let code):
            writer.word(path, literal: true)
            writer.raw("status \(code)")
        }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch action {
        case .list:
            let items = executor.session.settings.mocks.map { route in
                Listing.Item(
                    name: route.origin.description + route.path, value: "\(route.status)",
                    detail: route.file.map { "@\($0)" })
            }
            return .shows(.listing(Listing(kind: .mocks, items: items)))
        case .off: executor.session.settings.mocks = []
        case .file(let path, let file):
            let expanded = executor.resolvePath(try executor.session.variables.expand(file))
            guard FileManager.default.isReadableFile(atPath: expanded) else {
                throw CommandError(.file, .cannotRead(path: file, reason: nil), hint: "give a readable file after @")
            }
            // Held in memory to answer every request that matches: bounded.
            if let problem = BoundedFile.problem(expanded, limit: BoundedFile.mock, what: "a mock's answer") {
                throw CommandError(.file, problem)
            }
            let (origin, route) = try Self.scope(path, executor)
            add(ClientSettings.MockRoute(origin: origin, path: route, status: 200, file: expanded), executor)
        case .status(let path, let code):
            let (origin, route) = try Self.scope(path, executor)
            add(ClientSettings.MockRoute(origin: origin, path: route, status: code, file: nil), executor)
        }
        return .done
    }

    /// The origin a mock answers for — the URL's when the path is a full URL, else the base's
    /// API's — and the path it matches.
    private static func scope(
        _ written: String, _ executor: isolated Executor
    ) throws -> (origin: Origin, path: String) {
        let path = try executor.session.variables.expand(written)
        if path.contains("://") {
            let url = try RequestURL(parsing: path)
            return (Origin(url), url.pathAndQuery)
        }
        let index = try executor.currentAPIIndex(for: "mock")
        return (executor.session.apis[index].origin, path)
    }

    private func add(_ route: ClientSettings.MockRoute, _ executor: isolated Executor) {
        executor.session.settings.mocks.removeAll { $0.path == route.path && $0.origin == route.origin }
        executor.session.settings.mocks.append(route)
    }

    private static func mock(_ a: inout Arguments) throws(CommandError) -> Action {
        guard let first = try a.optionalWord() else { return .list }
        if first.text.lowercased() == "off", !first.quoted, a.isEmpty { return .off }
        let what = try a.word("@FILE or status CODE")
        if what.text.hasPrefix("@"), !what.quoted {
            try a.end()
            return .file(path: first.text, file: String(what.text.dropFirst()))
        }
        guard what.text.lowercased() == "status" else { throw a.badChoice(what, ["@FILE", "status"]) }
        let codeWord = try a.single("a status code")
        guard let code = Int(codeWord.text), (100...599).contains(code) else {
            throw CommandError(
                .file, .invalid(kind: "status code", value: codeWord.text), column: codeWord.column, hint: "100–599")
        }
        return .status(path: first.text, code: code)
    }
}
