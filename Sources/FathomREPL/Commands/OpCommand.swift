import FathomHTTP
@_spi(Fathom) import FathomJSON
import FathomOpenAPI

/// `op OPERATION_ID [ITEMS…]`: the draft set from an operation of the description, and sent.
/// Path parameters come from `name=value` items or, failing those, variables of the same name;
/// other `name=value` items go where the operation takes that parameter (query or header), else
/// into the JSON body, as in one-liners.
struct OpCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "op", synopsis: "op OPERATION_ID [ITEMS…]",
        summary: "set the draft from an operation of the description and send it",
        details: """
            `op showPetById petId=42`: path parameters from `name=value` items or variables of the same name; \
            a `name=value` the operation takes as a query or header parameter goes there; other items as in \
            one-liners (`name==value` query, `Name:Value` header, `name=value`/`name:=json` body fields).
            """,
        completion: .operation, group: .api)

    var operationID: String
    var items: [RequestItem]

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let id = try arguments.word("an operationId")
        let items = try arguments.words().map { word throws(CommandError) in
            try CommandParser.item(word, allowed: RequestItem.Kind.allCases)
        }
        return OpCommand(operationID: id.text, items: items)
    }

    var logKind: SessionLog.Kind? { .request }

    var line: String {
        var writer = LineWriter("op")
        writer.word(operationID)
        writer.words(items.map(\.text), literal: true)
        return writer.text
    }

    func credentialName(for value: String) -> String? { items.credentialName(for: value) }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let loaded = try executor.requireSpec()
        let api = loaded.description
        let operation = try DescribeCommand.operation(id: operationID, in: api)
        // A field that is no parameter and no body field the operation declares is a slip.
        let fields = api.bodyFields(for: operation).map(\.name)
        let parameters = operation.parameters.map(\.name)
        for case .field(let name, _) in items
        where !parameters.contains(name) && !fields.contains(name) && (operation.requestBody == nil || !fields.isEmpty)
        {
            let known = parameters + fields
            throw CommandError(
                .session,
                "\(operationID) has no parameter '\(name)'"
                    + (operation.requestBody == nil ? "" : " and no body field so named"),
                hint: Spelling.closest(to: name, among: known).map { "did you mean '\($0)'?" }
                    ?? (known.isEmpty ? "it takes none" : "it takes \(known.joined(separator: ", "))"))
        }
        var remaining = items
        func take(_ name: String) -> String? {
            guard let index = remaining.firstIndex(where: { Self.parameter($0)?.name == name }),
                let (_, value) = Self.parameter(remaining[index])
            else { return nil }
            remaining.remove(at: index)
            return value
        }
        var path = operation.path
        for parameter in operation.parameters where parameter.location == .path {
            let value: String
            if let given = take(parameter.name) {
                // A slash in a value stays in its segment; the rest is encoded when the request is prepared.
                value = given.replacingOccurrences(of: "/", with: "%2F")
            } else if executor.session.variables.names.contains(parameter.name) {
                value = "{{\(parameter.name)}}"
            } else {
                throw CommandError(
                    .session, "\(operationID) needs path parameter '\(parameter.name)'",
                    hint: "give \(parameter.name)=VALUE, or `set \(parameter.name) VALUE`")
            }
            path = path.replacingOccurrences(of: "{\(parameter.name)}", with: value)
        }
        // In the order given: a `name=value` the operation takes as a query or header parameter goes there.
        let routed = remaining.map { item -> RequestItem in
            guard let (name, value) = Self.parameter(item),
                let parameter = operation.parameters.first(where: {
                    $0.name == name && ($0.location == .query || $0.location == .header)
                })
            else { return item }
            return parameter.location == .query ? .query(name: name, value: value) : .header(name: name, value: value)
        }
        // One self-contained request, as a one-liner with a path is.
        var draft = Draft()
        draft.method = HTTPMethod(rawValue: operation.method)
        draft.target = path
        draft.apply(routed)
        let outgoing = try executor.prepare(draft)
        executor.session.draft = draft
        return try await executor.send(outgoing)
    }

    /// An item as a parameter's name and text: `name=value`, or `name:=2` / `name:=true` (a number
    /// or a boolean written as JSON, as a tool's arguments are) — not an object or an array.
    static func parameter(_ item: RequestItem) -> (name: String, value: String)? {
        switch item {
        case .field(let name, let value): return (name, value)
        case .rawJSON(let name, let text):
            switch try? JSON(parsing: text) {
            case .number(let number)?: return (name, number)
            case .bool(let flag)?: return (name, flag ? "true" : "false")
            default: return nil
            }
        default: return nil
        }
    }
}
