@_spi(Fathom) import FathomJSON

/// `call SERVICE/METHOD [JSON | name=value name:=json…]`: calls a method of the current API's
/// gRPC services (`grpc`) with the request written as JSON or as items.
struct CallCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "call", synopsis: "call SERVICE/METHOD [JSON | name=value name:=json nested.name=value…]",
        summary: "call a gRPC method (`grpc` loads the services); the answer is kept as a response",
        details: """
            The method is its full name (`pkg.Users/GetUser`) or any shorter one only it has (`GetUser`). The \
            request is JSON by the proto3 mapping (`{"id": 2}`; int64 as a number or a string, enums by name, \
            bytes as base64) or items: `name=text` a string, `name:=json` any JSON, `a.b=x` a nested field. A \
            client or bidirectional stream takes an array: each element is one message, then the call \
            half-closes; called with none, it stays open like `ws`: the prompt becomes `grpc Service/Method>`, \
            `send JSON|items` sends a message (an array, one per element), the server's print as they come, \
            `expect message $.x == …` waits for one, and `close` (or Ctrl-D) half-closes and shows the call's \
            end as a response. The draft's headers, the API's default headers and its credentials go as metadata; \
            `timeout` is the deadline (60 s unless set, a stream's whole life included); Ctrl-C cancels. A \
            server stream's messages print as they arrive (`stream limit N` ends it after N) and are kept as a \
            stream (`expect events`, `expect event`). `expect status NOT_FOUND` checks the gRPC status (by name \
            or number), `expect trailer NAME …` its trailers. Batch flags (`--repeat N -c C`) make a unary \
            call many times.
            """,
        completion: .grpcMethods, continuation: .jsonAfterWord, group: .draft)

    /// The request as written: expanded and read when the line runs.
    enum Request: Equatable, Sendable {
        case none
        /// JSON as written (an array: one message per element, for a client stream).
        case json(String)
        /// `name=value`, `name:=json`, `a.b=value`.
        case items([String])

        /// The messages: an array's elements, or the one value; items as one object.
        func json(expanding variables: Variables) throws(CommandError) -> [JSON] {
            switch self {
            case .none: return []
            case .json(let text):
                let expanded = try variables.expand(text)
                let value: JSON
                do {
                    value = try JSON(parsing: expanded)
                } catch {
                    throw CommandError(.parse, "the request is not JSON: \(error.summary)")
                }
                if case .array(let messages) = value { return messages }
                return [value]
            case .items(let items):
                var object = JSON.object([])
                for written in items {
                    let item = try variables.expand(written)
                    let name: String
                    let value: JSON
                    switch RequestItem(parsing: item) {
                    case .field(let field, let text)?:
                        (name, value) = (field, .string(text))
                    case .rawJSON(let field, let text)?:
                        do {
                            value = try JSON(parsing: text)
                        } catch {
                            throw CommandError(.parse, "'\(written)': the value after := is not JSON: \(error.summary)")
                        }
                        name = field
                    default:
                        throw CommandError(
                            .parse, "'\(written)' is not a field", hint: "write name=text or name:=json (a.b=x nests)")
                    }
                    object = Self.setting(object, path: name.split(separator: ".").map(String.init)[...], to: value)
                }
                return [object]
            }
        }

        /// `object` with the field at `path` set, objects made on the way.
        private static func setting(_ object: JSON, path: ArraySlice<String>, to value: JSON) -> JSON {
            guard let key = path.first else { return value }
            var members: [JSON.Member] = []
            if case .object(let existing) = object { members = existing }
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index] = JSON.Member(
                    key: key, value: setting(members[index].value, path: path.dropFirst(), to: value))
            } else {
                members.append(JSON.Member(key: key, value: setting(.object([]), path: path.dropFirst(), to: value)))
            }
            return .object(members)
        }
    }

    var method: String
    var request: Request
    /// `--repeat N -c C …`: a unary call made as a batch.
    var batch: BatchOptions? = nil

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let method = try arguments.word("a method (SERVICE/METHOD)").text
        let column = arguments.column
        let rest = arguments.rest()
        if rest.isEmpty || rest.hasPrefix("#") { return CallCommand(method: method, request: .none) }
        var request = Request.none
        var after = Substring(rest)
        if rest.hasPrefix("{") || rest.hasPrefix("[") {
            // The JSON ends where its brackets close; batch flags may follow it.
            let end = Self.endOfJSON(rest)
            request = .json(String(rest[..<end]))
            after = rest[end...]
        }
        var remaining = Arguments(
            raw: after, column: column + rest.distance(from: rest.startIndex, to: after.startIndex), command: "call")
        var words = try remaining.words()
        let batch = try BatchOptions.take(from: &words)
        if case .json = request {
            if let extra = words.first {
                throw CommandError(
                    .parse, .unexpected(word: extra.text), column: extra.column,
                    hint: "the request is one JSON value; batch flags may follow it")
            }
        } else if !words.isEmpty {
            request = .items(words.map(\.text))
        }
        return CallCommand(method: method, request: request, batch: batch)
    }

    /// Where the JSON value `text` starts with ends: after the bracket that closes its first,
    /// strings skipped; the whole text when it never closes (the JSON error says why).
    static func endOfJSON(_ text: String) -> String.Index {
        var depth = 0
        var inString = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { return text.index(after: index) }
            default: break
            }
        }
        return text.endIndex
    }

    var logKind: SessionLog.Kind? { .request }

    /// A client or bidirectional stream called with no messages opens for `send` lines.
    var opensConversation: Bool { request == .none && batch == nil }

    var line: String {
        var writer = LineWriter("call")
        writer.word(method)
        switch request {
        case .none: break
        case .json(let text): writer.raw(text)
        case .items(let items): writer.words(items, literal: true)
        }
        if let batch { writer.raw(batch.words.joined(separator: " ")) }
        return writer.text
    }

    var filesRead: [String] { batch?.data.map { [$0] } ?? [] }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if let batch { return try await executor.callGRPCBatch(method, request: request, options: batch) }
        return try await executor.callGRPC(method, request: request)
    }
}
