import FathomJSON
import FathomOpenAPI

/// `body …`: the draft's body — JSON or text as written, a file, a heredoc, a form, JSON fields,
/// multipart, text sent exactly as it is (`raw`), or none.
struct BodyCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "body",
        synopsis:
            "body JSON | TEXT | @FILE | <<EOF | form k=v… | json k=v k:=raw… | multipart k=v f@path | data PIECE… | upload @FILE | raw TEXT|<<EOF | text WORD | example | none",
        summary: "set the draft's body",
        details: """
            Inline JSON may span lines until its brackets balance. `body <<EOF` reads lines until one is \
            exactly `EOF`. `json` fields: `name=text` is a string, `name:=42` raw JSON. `multipart`: \
            `name=text` fields and `name@path` files. `data`: curl's `-d`: pieces joined with `&`, \
            `@FILE` a file without its line breaks, `--binary @FILE` one as it is — read as the request \
            is sent, never held whole. `upload @FILE`: the file as it is, with no Content-Type of its own \
            (curl's `-T`). `raw`: the text goes exactly as written — no \
            {{variables}}, no JSON check, no Content-Type of its own (a curl line's body). `text WORD`: the \
            text of one quoted word (`$'a\\r\\nb'` for what a line cannot carry). `example`: the \
            draft's operation's example from the loaded description, or an instance made from its schema. \
            Without arguments, shows the body.
            """,
        completion: .words(["form", "json", "multipart", "data", "upload", "raw", "text", "example", "none"]),
        continuation: .body,
        group: .draft)

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

    var filesRead: [String] {
        switch body {
        case .file(let path)?, .upload(let path)?: [path]
        case .json(let items)?, .multipart(let items)?: items.compactMap(\.filePath)
        case .data(let pieces)?:
            pieces.compactMap { piece in
                if case .file(let path, _) = piece { path } else { nil }
            }
        default: []
        }
    }

    var line: String {
        if example { return "body example" }
        guard let body else { return "body" }
        var writer = LineWriter("body")
        switch body {
        case .none: writer.raw("none")
        case .file(let path): writer.raw("@" + Quoting.word(path))
        case .upload(let path): writer.raw("upload @" + Quoting.word(path))
        case .form(let fields):
            writer.raw("form")
            writer.words(fields.map { "\($0.name)=\($0.value)" }, literal: true)
        case .json(let items):
            writer.raw("json")
            writer.words(items.map(\.text), literal: true)
        case .multipart(let items):
            writer.raw("multipart")
            writer.words(items.map(\.text), literal: true)
        case .data(let pieces):
            writer.raw("data")
            for word in BodySpec.words(pieces) { writer.raw(word) }
        case .text(let text):
            // As written on the line when that reads back the same text; else a heredoc.
            let inline = "body " + text
            if !text.contains("\n"), !text.contains("\r"),
                let parsed = try? CommandParser.parse(inline), parsed.isEqual(to: self)
            {
                return inline
            }
            return Self.heredoc("body", text) ?? "body text " + Quoting.word(text)
        case .raw(let text):
            let word = "body raw " + Quoting.word(text)
            return text.contains("\n") ? Self.heredoc("body raw", text) ?? word : word
        }
        return writer.text
    }

    /// `head <<EOF`, the text, `EOF` (a marker no line of the text is); `nil` when a heredoc
    /// cannot carry the text as it is (a carriage return, which files lose at line ends).
    static func heredoc(_ head: String, _ text: String) -> String? {
        guard !text.contains("\r") else { return nil }
        var marker = "EOF"
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        while lines.contains(where: { $0 == marker }) { marker += "_" }
        return "\(head) <<\(marker)\n\(text)\n\(marker)"
    }

    func credentialName(for value: String) -> String? {
        switch body {
        case .form(let fields)?:
            return fields.first { $0.value.contains(value) }.map { SecretNames.variableName($0.name) }
        case .json(let items)?, .multipart(let items)?:
            return items.lazy.compactMap { item -> String? in
                guard case .field(let name, let given) = item, given.contains(value) else { return nil }
                return SecretNames.variableName(name)
            }.first
        case .text(let text)?, .raw(let text)?:
            return SessionWriter.jsonMemberName(holding: value, in: text).map(SecretNames.variableName)
        case .data(let pieces)?:
            // `password=…` in a piece names the credential.
            return pieces.lazy.compactMap { piece -> String? in
                guard case .text(let text) = piece, text.contains(value), let equals = text.firstIndex(of: "=") else {
                    return nil
                }
                return SecretNames.variableName(String(text[..<equals]))
            }.first
        default: return nil
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if example { return try Self.example(in: executor) }
        guard let body else {
            let shown = executor.session.draft.body
            return .shows(
                .setting(SettingShown(name: "body", value: shown == .none ? .unset : .text(shown.description))))
        }
        if case .text(let text) = body, text.first == "{" || text.first == "[", !text.contains("{{") {
            do {
                _ = try JSON(parsing: text)
            } catch {
                throw CommandError(
                    .session, "the body is not valid JSON: \(error.summary)", hint: "fix it or quote it as text")
            }
        }
        if case .json(let items) = body { _ = try executor.builder.jsonObject(items) }
        executor.session.draft.body = body
        executor.session.draft.bodyIsExample = false
        return .done
    }

    /// The draft's operation's example body, or one made from its schema.
    private static func example(in executor: isolated Executor) throws -> CommandResult {
        let operation = try executor.draftOperation(hint: "set its method and path first, or `op OPERATION_ID`")
        guard let (mediaType, value) = try executor.requireSpec().description.exampleBody(for: operation) else {
            throw CommandError(.session, "\(operation.title) takes no request body")
        }
        let body: BodySpec
        let essence = APIOperation.essence(of: mediaType)
        if essence == "application/x-www-form-urlencoded", case .object(let members) = value {
            body = .form(
                members.map { member in
                    var text = {
                        if case .string(let s) = member.value { return s }
                        return member.value.formatted(.compactText)
                    }()
                    if text.hasSuffix("\n") { text.removeLast() }
                    return BodySpec.Field(name: member.key, value: text)
                })
        } else if case .string(let text) = value, !essence.hasSuffix("json") {
            body = .text(text)
        } else {
            var text = value.formatted(.pretty)
            if text.hasSuffix("\n") { text.removeLast() }
            body = .text(text)
        }
        executor.session.draft.body = body
        // Made up, not typed: a field named like a password here is a placeholder, not a secret.
        executor.session.draft.bodyIsExample = true
        return .shows(.setting(SettingShown(name: "body", value: .text(body.description))))
    }

    /// The text of a heredoc the line assembler has gathered: the lines after the first, without
    /// the end marker.
    private static func heredocText(_ raw: Substring, column: Int) throws(CommandError) -> String {
        guard let newline = raw.firstIndex(of: "\n") else {
            throw CommandError(.parse, "heredoc without an end marker line", column: column)
        }
        let lines = raw[raw.index(after: newline)...].split(separator: "\n", omittingEmptySubsequences: false)
        return lines.dropLast().joined(separator: "\n")
    }

    private static func body(_ a: inout Arguments) throws(CommandError) -> BodySpec? {
        if a.isEmpty { return nil }
        let raw = a.raw
        if raw.hasPrefix("{") || raw.hasPrefix("[") { return .text(String(raw)) }
        if raw.hasPrefix("<<") { return .text(try heredocText(raw, column: a.column)) }
        let first = try a.word("a body")
        switch first.quoted ? "" : first.text {
        case "text":
            // One word, quoted as needed: text a line or a heredoc cannot carry (carriage returns).
            // More words are text as written, as `body text and more` always was.
            var copy = a
            if let words = try? copy.words(), words.count == 1 { return .text(words[0].text) }
            return .text(String(raw))
        case "upload":
            let file = try a.single("@FILE to upload")
            guard file.text.hasPrefix("@"), !file.quoted, file.text.count > 1 else {
                throw CommandError(
                    .parse, "expected @FILE after upload", column: file.column, hint: "body upload @photo.jpg")
            }
            return .upload(String(file.text.dropFirst()))
        case "raw":
            let rest = a.raw
            if rest.hasPrefix("<<") { return .raw(try heredocText(rest, column: a.column)) }
            return .raw(try a.single("the text").text)
        case "none":
            try a.end()
            return BodySpec.none
        case "form":
            return .form(
                try a.words().map { word throws(CommandError) in
                    guard let equals = word.text.firstIndex(of: "="), equals != word.text.startIndex else {
                        throw CommandError(
                            .parse, "expected name=value", column: word.column, hint: "e.g. body form a=1 b=2")
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
        case "data":
            var pieces: [BodySpec.DataPiece] = []
            var binary: Word?
            for word in try a.words() {
                if !word.quoted, word.text == "--binary" {
                    binary = word
                    continue
                }
                if !word.quoted, word.text.hasPrefix("@") {
                    let path = String(word.text.dropFirst())
                    guard !path.isEmpty else {
                        throw CommandError(.parse, .missing("file name after '@'"), column: word.column)
                    }
                    pieces.append(.file(path, binary: binary != nil))
                } else if let binary {
                    throw CommandError(.parse, "--binary goes before an @FILE", column: binary.column)
                } else {
                    pieces.append(.text(word.text))
                }
                binary = nil
            }
            if let binary { throw CommandError(.parse, "--binary goes before an @FILE", column: binary.column) }
            guard !pieces.isEmpty else {
                throw CommandError(
                    .parse, .missing("the pieces"), column: a.column, hint: "e.g. body data name=ada @payload.txt")
            }
            return .data(pieces)
        default:
            if first.text.hasPrefix("@"), !first.quoted {
                try a.end()
                let path = String(first.text.dropFirst())
                guard !path.isEmpty else {
                    throw CommandError(.parse, .missing("file name after '@'"), column: first.column)
                }
                return .file(path)
            }
            return .text(String(raw))
        }
    }
}
