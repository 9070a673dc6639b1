import FathomJSON

/// `body …`: the draft's body — JSON or text as written, a file, a heredoc, a form, JSON fields,
/// multipart, or none.
struct BodyCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "body",
        synopsis:
            "body JSON | TEXT | @FILE | <<EOF | form k=v… | json k=v k:=raw… | multipart k=v f@path | example | none",
        summary: "set the draft's body",
        details: """
            Inline JSON may span lines until its brackets balance. `body <<EOF` reads lines until one is \
            exactly `EOF`. `json` fields: `name=text` is a string, `name:=42` raw JSON. `multipart`: \
            `name=text` fields and `name@path` files. `example`: the draft's operation's example from the \
            loaded description, or an instance made from its schema. Without arguments, shows the body.
            """,
        completion: .words(["form", "json", "multipart", "example", "none"]), group: .draft)

    /// `nil` shows the body (unless ``example``).
    var body: BodySpec?
    /// `body example`: made from the description when it runs.
    var example = false

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        if a(arguments, is: "example") {
            _ = try arguments.word("example")
            try arguments.end()
            return BodyCommand(body: nil, example: true)
        }
        return BodyCommand(body: try body(&arguments))
    }

    private static func a(_ arguments: Arguments, is word: String) -> Bool {
        var copy = arguments
        guard let first = try? copy.optionalWord() else { return false }
        return !first.quoted && first.text == word
    }

    var logKind: SessionLog.Kind? { body == nil && !example ? nil : .draft }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if example { return try Self.example(in: executor) }
        guard let body else { return .shows(.value(name: "body", value: executor.session.draft.body.description)) }
        if case .text(let text) = body, text.first == "{" || text.first == "[", !text.contains("{{") {
            do {
                _ = try JSON(parsing: text)
            } catch {
                throw CommandError("the body is not valid JSON: \(error.summary)", hint: "fix it or quote it as text")
            }
        }
        if case .json(let items) = body { _ = try executor.jsonObject(items) }
        executor.session.draft.body = body
        return .done
    }

    /// The draft's operation's example body, or one made from its schema.
    private static func example(in executor: isolated Executor) throws -> CommandResult {
        let operation = try executor.draftOperation(hint: "set its method and path first, or `op OPERATION_ID`")
        guard let (mediaType, value) = try executor.requireSpec().description.exampleBody(for: operation) else {
            throw CommandError("\(operation.title) takes no request body")
        }
        let body: BodySpec
        if mediaType == "application/x-www-form-urlencoded", case .object(let members) = value {
            body = .form(
                members.map { member in
                    var text = {
                        if case .string(let s) = member.value { return s }
                        return member.value.formatted(.compactText)
                    }()
                    if text.hasSuffix("\n") { text.removeLast() }
                    return BodySpec.Field(name: member.key, value: text)
                })
        } else if case .string(let text) = value, !mediaType.lowercased().hasSuffix("json") {
            body = .text(text)
        } else {
            var text = value.formatted(.pretty)
            if text.hasSuffix("\n") { text.removeLast() }
            body = .text(text)
        }
        executor.session.draft.body = body
        return .shows(.value(name: "body", value: body.description))
    }

    private static func body(_ a: inout Arguments) throws(CommandError) -> BodySpec? {
        if a.isEmpty { return nil }
        let raw = a.raw
        if raw.hasPrefix("{") || raw.hasPrefix("[") { return .text(String(raw)) }
        if raw.hasPrefix("<<") {
            // The line assembler has already gathered the heredoc: the text follows the first line.
            guard let newline = raw.firstIndex(of: "\n") else {
                throw CommandError("heredoc without an end marker line", column: a.column)
            }
            let lines = raw[raw.index(after: newline)...].split(separator: "\n", omittingEmptySubsequences: false)
            return .text(lines.dropLast().joined(separator: "\n"))
        }
        let first = try a.word("a body")
        switch first.text {
        case "none":
            try a.end()
            return BodySpec.none
        case "form":
            return .form(
                try a.words().map { word throws(CommandError) in
                    guard let equals = word.text.firstIndex(of: "="), equals != word.text.startIndex else {
                        throw CommandError("expected name=value", column: word.column, hint: "e.g. body form a=1 b=2")
                    }
                    return BodySpec.Field(
                        name: String(word.text[..<equals]), value: String(word.text[word.text.index(after: equals)...]))
                })
        case "json":
            return .json(
                try a.words().map { word throws(CommandError) in
                    try CommandParser.item(word, allowed: [.field, .rawJSON])
                })
        case "multipart":
            return .multipart(
                try a.words().map { word throws(CommandError) in try CommandParser.item(word, allowed: [.field, .file])
                })
        default:
            if first.text.hasPrefix("@"), !first.quoted {
                try a.end()
                let path = String(first.text.dropFirst())
                guard !path.isEmpty else { throw CommandError("missing file name after '@'", column: first.column) }
                return .file(path)
            }
            return .text(String(raw))
        }
    }
}
