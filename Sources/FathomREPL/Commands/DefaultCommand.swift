/// `default [header Name: value | header -Name | query name=value | query -name]`: headers and
/// query items every request gets.
struct DefaultCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "default", synopsis: "default [header Name: value | header -Name | query name=value | query -name]",
        summary: "headers and query items every request gets; bare `default` lists",
        completion: .words(["header", "query"]), group: .session)

    enum Edit: Equatable, Sendable {
        case header(HeaderEdit)
        case query(QueryEdit)
    }

    /// `nil` lists the defaults.
    var edit: Edit?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        DefaultCommand(edit: try defaultEdit(&arguments))
    }

    var logKind: SessionLog.Kind? { edit == nil ? nil : .setting }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let edit else {
            var items = executor.session.defaultHeaders.map {
                Listing.Item(name: "header", value: "\($0.name): \(executor.shownHeaderValue($0))")
            }
            items += executor.session.defaultQuery.map {
                Listing.Item(name: "query", value: "\($0.name)\($0.value.map { "=\($0)" } ?? "")")
            }
            return .shows(.listing(Listing(kind: .defaults, items: items, empty: "no defaults")))
        }
        switch edit {
        case .header(let headerEdit):
            if case .set(let name, let value) = headerEdit { executor.registerIfSecret(header: name, value: value) }
            var holder = Draft()
            holder.headers = executor.session.defaultHeaders
            holder.apply(headerEdit)
            executor.session.defaultHeaders = holder.headers
        case .query(let queryEdit):
            var holder = Draft()
            holder.query = executor.session.defaultQuery
            if case .add(let name, _) = queryEdit { holder.apply(QueryEdit.remove(name)) }
            holder.apply(queryEdit)
            executor.session.defaultQuery = holder.query
        }
        return .done
    }

    private static func defaultEdit(_ a: inout Arguments) throws(CommandError) -> Edit? {
        guard let word = try a.optionalWord() else { return nil }
        switch word.text.lowercased() {
        case "header":
            if a.raw.hasPrefix("-") { return .header(.remove(String(try a.single("a header name").text.dropFirst()))) }
            return .header(try CommandParser.headerSet(a.raw, column: a.column))
        case "query":
            let edits = try a.words().map(CommandParser.queryEdit)
            guard edits.count == 1 else {
                throw CommandError(
                    "expected one query item", column: a.column, hint: "e.g. default query api-version=2")
            }
            return .query(edits[0])
        default:
            if word.text.hasPrefix("-"), !word.quoted {
                try a.end()
                return .header(.remove(String(word.text.dropFirst())))
            }
            throw a.badChoice(word, ["header", "query"])
        }
    }
}
