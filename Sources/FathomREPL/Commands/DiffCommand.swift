import FathomHTTP
import FathomJSON
import Foundation

/// `diff [#A|@ID] [#B|@ID] [--body|--headers|--all] [--ignore EXPR]…`: two responses compared —
/// status and headers as a list, JSON bodies structurally, text bodies as a unified diff.
struct DiffCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "diff", synopsis: "diff [#A|@ID] [#B|@ID] [--body|--headers|--all] [--ignore EXPR]…",
        summary: "compare two responses, the last two by default",
        details: """
            Status and headers as a short list; JSON bodies structurally (volatile fields left out), \
            text bodies as a unified diff. A batch or a WebSocket conversation named by number is \
            compared as the document `inspect #N $` reads. `@ID` names a response the archive kept, from this \
            session or an earlier one: `diff @12 #3` compares yesterday's answer with today's.
            """,
        completion: .words(["--body", "--headers", "--all", "--ignore"]), group: .responses)

    enum Scope: String, Equatable, Sendable {
        /// Status and headers.
        case headers
        case body
        case all
    }

    /// The older response; `nil` for the one before ``new``.
    var old: ResponseReference?
    /// The newer response; `nil` for the last.
    var new: ResponseReference?
    var scope: Scope = .all
    /// JSONPaths left out of the body comparison.
    var ignore: [String] = []

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var request = DiffCommand()
        var numbers: [ResponseReference] = []
        var words = try arguments.words()[...]
        while let word = words.popFirst() {
            switch word.quoted ? "" : word.text {
            case "--body": request.scope = .body
            case "--headers": request.scope = .headers
            case "--all": request.scope = .all
            case "--ignore":
                guard let path = words.popFirst() else {
                    throw CommandError(
                        .parse, .missing("a JSONPath after --ignore"), column: word.column + word.text.count)
                }
                try CommandParser.checkPath(path)
                request.ignore.append(path.text)
            default:
                guard let number = try CommandParser.responseReference(word), numbers.count < 2 else {
                    throw CommandError(.parse, .unexpected(word: word.text), column: word.column, hint: arguments.usage)
                }
                numbers.append(number)
            }
        }
        switch numbers.count {
        case 2: (request.old, request.new) = (numbers[0], numbers[1])
        case 1: request.old = numbers[0]
        default: break
        }
        return request
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String {
        var writer = LineWriter("diff")
        if let old { writer.raw(old.description) }
        if let new { writer.raw(new.description) }
        if scope != .all { writer.raw("--\(scope.rawValue)") }
        for path in ignore {
            writer.raw("--ignore")
            writer.word(path, literal: true)
        }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let entries = executor.record.responses.entries
        let first: ReadEntry
        let second: ReadEntry
        switch (old, new) {
        case (let a?, let b?):
            guard a != b else {
                throw CommandError(.session, "\(a) and \(b) are the same response", hint: "name two: diff #1 #2")
            }
            (first, second) = (try executor.read(a), try executor.read(b))
        case (let a?, nil):
            first = try executor.read(a)
            second = try executor.read(nil)
            guard first.reference != second.reference else {
                throw CommandError(.session, "\(a) is the last response", hint: "name the other one: diff \(a) #N")
            }
        default:
            guard entries.count >= 2 else {
                throw CommandError(
                    .session, "diff needs two responses, the session has \(entries.count)",
                    hint: "send another request first")
            }
            (first, second) = (.response(entries[entries.count - 2]), .response(entries[entries.count - 1]))
        }
        // Any other exchange named (a batch, a WebSocket conversation) is compared as its document.
        guard case .response(let older) = first, case .response(let newer) = second else {
            return try documents(first, second, in: executor)
        }
        let ignored = ignore + executor.session.volatile
        let paths = try ignored.map { try JSONPath($0) }
        let a = older.response
        let b = newer.response
        var diff = ResponseDiff(
            old: Self.side(older, executor), new: Self.side(newer, executor), scope: scope, headers: [],
            ignored: ignored)
        if scope != .body {
            if a.status != b.status { diff.status = (a.status, b.status) }
            diff.headers = Self.headerChanges(a.headers, b.headers)
        }
        if scope != .headers { diff.body = Self.bodyDifference(a, b, ignore: paths) }
        return .shows(.diff(diff))
    }

    /// Header changes by name (values of a repeated header joined), in the old response's order.
    static func headerChanges(_ a: NetworkHeaders, _ b: NetworkHeaders) -> [ResponseDiff.HeaderChange] {
        func grouped(_ headers: NetworkHeaders) -> [(String, String)] {
            var order: [String] = []
            var values: [String: [String]] = [:]
            var names: [String: String] = [:]
            for field in headers {
                let key = field.name.canonicalName
                if values[key] == nil {
                    order.append(key)
                    names[key] = field.name.rawName
                }
                values[key, default: []].append(field.value)
            }
            return order.map { (names[$0] ?? $0, values[$0, default: []].joined(separator: ", ")) }
        }
        let old = grouped(a)
        let new = grouped(b)
        var changes: [ResponseDiff.HeaderChange] = []
        for (name, value) in old {
            if let other = new.first(where: { $0.0.lowercased() == name.lowercased() }) {
                if other.1 != value { changes.append(.init(kind: .changed, name: name, old: value, new: other.1)) }
            } else {
                changes.append(.init(kind: .removed, name: name, old: value))
            }
        }
        for (name, value) in new where !old.contains(where: { $0.0.lowercased() == name.lowercased() }) {
            changes.append(.init(kind: .added, name: name, new: value))
        }
        return changes
    }

    /// A response as a side of a diff: its number, method and path as lists show it.
    private static func side(_ entry: ResponseHistory.Entry, _ executor: isolated Executor) -> ResponseDiff.Side {
        let response = entry.response
        return ResponseDiff.Side(
            number: entry.number, title: "\(response.request.method) \(executor.shownPath(response.url))",
            archived: entry.archived)
    }

    /// Two entries of which one is not an HTTP response (a batch, a WebSocket conversation):
    /// their documents, as `inspect #N $` reads them, compared structurally. Status and headers
    /// are a response's; asking for them here is an error.
    private func documents(_ old: ReadEntry, _ new: ReadEntry, in executor: isolated Executor) throws -> CommandResult {
        guard scope != .headers else {
            throw CommandError(
                .session, "only responses have headers to compare",
                hint: "`diff \(old.reference) \(new.reference)` compares the two whole")
        }
        func side(_ read: ReadEntry) throws -> (ResponseDiff.Side, JSON) {
            switch read {
            case .document(let number, let archived, let title, let document):
                return (ResponseDiff.Side(number: number, title: title, archived: archived), document)
            case .response(let entry):
                return (Self.side(entry, executor), try executor.json(of: entry))
            }
        }
        let (a, oldDocument) = try side(old)
        let (b, newDocument) = try side(new)
        let ignored = ignore + executor.session.volatile
        let paths = try ignored.map { try JSONPath($0) }
        var diff = ResponseDiff(old: a, new: b, scope: scope, headers: [], ignored: ignored)
        let changes = JSONDiff(from: oldDocument, to: newDocument, options: JSONDiff.Options(ignore: paths))
        diff.body = changes.isEmpty ? nil : .json(changes)
        return .shows(.diff(diff))
    }

    /// The body change: structural for JSON, by lines for text; `nil` when the bodies are the same.
    static func bodyDifference(
        _ a: NetworkResponse<Data>, _ b: NetworkResponse<Data>, ignore: [JSONPath]
    ) -> ResponseDiff.Body? {
        // Streams compare as the arrays of their events.
        if let old = ParsedStream(a)?.json ?? (try? JSON(parsing: a.body)),
            let new = ParsedStream(b)?.json ?? (try? JSON(parsing: b.body))
        {
            let diff = JSONDiff(from: old, to: new, options: JSONDiff.Options(ignore: ignore))
            return diff.isEmpty ? nil : .json(diff)
        }
        guard a.body != b.body else { return nil }
        if let old = BodyText.decode(a.body, contentType: a.contentType),
            let new = BodyText.decode(b.body, contentType: b.contentType),
            BodyText.looksLikeText(old), BodyText.looksLikeText(new)
        {
            return .text(TextDiff(from: old, to: new))
        }
        return .binary(oldSize: a.body.count, newSize: b.body.count)
    }
}
