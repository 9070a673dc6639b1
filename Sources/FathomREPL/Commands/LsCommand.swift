import FathomOpenAPI

/// `ls [PATH]`: what the description has under a path — child segments and operations — relative
/// to the draft's path, so `cd` and `ls` walk the API like a directory.
struct LsCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "ls", synopsis: "ls [PATH]",
        summary: "list the description's segments and operations under a path (the draft's, by default)",
        completion: .paths, group: .api)

    var path: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let path = try arguments.optionalWord().map(\.text)
        try arguments.end()
        return LsCommand(path: path)
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String { "ls" + (path.map { " " + Quoting.word($0) } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if let explorer = executor.graphQLExplorer(describing: path) {
            return .shows(.listing(try explorer.list(path)))
        }
        if (try? executor.requireSpec()) == nil, let explorer = executor.grpcExplorer() {
            return .shows(.listing(try explorer.list(path)))
        }
        let loaded = try executor.requireSpec()
        var draft = executor.session.draft
        if let path { draft.cd(path) }
        let absolute = Draft.splitTarget(draft.target).path
        let relative = loaded.description.relativePath(absolute, basePath: executor.session.basePath)
        guard let listing = loaded.description.listing(at: relative) else {
            throw CommandError(.session, "the description has nothing under \(relative)", hint: "`ls /` lists the top")
        }
        var items = listing.operations.map { operation in
            Listing.Item(name: operation.method, value: operation.operationID ?? "", detail: operation.summary)
        }
        items += listing.children.map { child in
            Listing.Item(name: child.name + (child.hasChildren ? "/" : ""), count: child.operationCount)
        }
        return .shows(.listing(Listing(kind: .paths, items: items, source: relative)))
    }
}
