/// `default [header Name: value | header -Name | query name=value | query -name]`: headers and
/// query items every request to the base's API gets (a request to another origin gets none).
struct DefaultCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "default", synopsis: "default [header Name: value | header -Name | query name=value | query -name]",
        summary: "headers and query items every request to the base's API gets; bare `default` lists",
        completion: .subcommands([.init("header", then: .headers), .init("query")]), group: .session)

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

    var line: String {
        switch edit {
        case nil: "default"
        case .header(let edit)?: "default header " + edit.text
        case .query(let edit)?: "default query " + edit.word
        }
    }

    func credentialName(for value: String) -> String? {
        switch edit {
        case .header(let edit)?: [edit].credentialName(for: value)
        case .query(.add(let name, _))?: SecretNames.variableName(name)
        default: nil
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        guard let edit else {
            let api = executor.session.currentAPI
            var items = (api?.defaultHeaders ?? []).map {
                Listing.Item(name: $0.name, value: executor.shown.headerValue($0), detail: "header")
            }
            items += (api?.defaultQuery ?? []).map { Listing.Item(name: $0.name, value: $0.value, detail: "query") }
            return .shows(.listing(Listing(kind: .defaults, items: items, source: api?.base)))
        }
        let index = try executor.currentAPIIndex(for: "default")
        switch edit {
        case .header(let headerEdit):
            if case .set(let name, let value) = headerEdit { executor.registerIfSecret(header: name, value: value) }
            var holder = Draft()
            for header in executor.session.apis[index].defaultHeaders {
                holder.apply(.set(name: header.name, value: header.value))
            }
            holder.apply(headerEdit)
            executor.session.apis[index].defaultHeaders = holder.headers
        case .query(let queryEdit):
            var holder = Draft()
            holder.query = executor.session.apis[index].defaultQuery
            if case .add(let name, _) = queryEdit { holder.apply(QueryEdit.remove(name)) }
            holder.apply(queryEdit)
            executor.session.apis[index].defaultQuery = holder.query
        }
        return .done
    }

    private static func defaultEdit(_ a: inout Arguments) throws(CommandError) -> Edit? {
        guard let word = try a.optionalWord() else { return nil }
        switch word.quoted ? "" : word.text.lowercased() {
        case "header":
            if a.raw.hasPrefix("-") { return .header(.remove(String(try a.single("a header name").text.dropFirst()))) }
            return .header(try CommandParser.headerSet(a.raw, column: a.column))
        case "query":
            let edits = try a.words().map(CommandParser.queryEdit)
            guard edits.count == 1 else {
                throw CommandError(
                    .parse, "expected one query item", column: a.column, hint: "e.g. default query api-version=2")
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
