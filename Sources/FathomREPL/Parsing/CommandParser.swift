import FathomHTTP
import FathomJSON

/// Turns one (possibly multi-line) entry into a ``Command``.
///
/// Errors carry the column where the line went wrong and, where one helps, a hint.
public enum CommandParser {
    public static func parse(_ line: String) throws(CommandError) -> Command {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard let first = trimmed.first, first != "#" else { return .nothing }
        let nameEnd = trimmed.firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" } ?? trimmed.endIndex
        let name = String(trimmed[..<nameEnd])
        let nameColumn = line.distance(from: line.startIndex, to: trimmed.startIndex) + 1
        let afterName = trimmed[nameEnd...]
        let rest = afterName.drop { $0 == " " || $0 == "\t" }
        let restColumn = nameColumn + name.count + afterName.distance(from: afterName.startIndex, to: rest.startIndex)
        var arguments = Arguments(raw: rest, column: restColumn, command: name.lowercased())

        guard let spec = CommandTable.spec(named: name) else {
            throw CommandError(
                "unknown command '\(name)'", column: nameColumn,
                hint: CommandError.suggestion(for: name, among: CommandTable.names) ?? "type `help` for the list")
        }
        return try parse(spec.name, &arguments)
    }

    private static func parse(_ name: String, _ a: inout Arguments) throws(CommandError) -> Command {
        switch name {
        case "base": return .base(try a.optionalWord()?.text)
        case "path": return .path(try a.word("a path or URL").text)
        case "cd": return .cd(try a.optionalWord()?.text ?? "/")
        case "method":
            guard let word = try a.optionalWord() else { return .method(nil) }
            try a.end()
            return .method(try method(word).rawValue)
        case "query": return .query(try a.words().map(queryEdit))
        case "header":
            if a.isEmpty { return .header([]) }
            if a.raw.hasPrefix("-") { return .header(try a.words().map { .remove(String($0.text.dropFirst())) }) }
            return .header([try headerSet(a.raw, column: a.column)])
        case "body": return .body(try body(&a))
        case "send":
            try a.end()
            return .send
        case "show": return .show(try show(&a))
        case "reset":
            try a.end()
            return .reset
        case "default": return .defaults(try defaultEdit(&a))
        case "auth": return .auth(try auth(&a))
        case "set": return try set(&a)
        case "unset": return .unset(try a.single("a variable name").text)
        case "vars":
            try a.end()
            return .vars
        case "secret":
            let name = try a.word("a secret's name")
            try checkVariableName(name)
            if a.isEmpty { return .secret(name: name.text, value: nil) }
            let value = try a.afterEquals()
            return .secret(name: name.text, value: value)
        case "reveal": return .reveal(try a.single("a secret's name").text)
        case "env":
            guard let word = try a.optionalWord() else { return .env(use: nil) }
            guard word.text == "use" else {
                throw CommandError("unknown env action '\(word.text)'", column: word.column, hint: "use `env use NAME`")
            }
            return .env(use: try a.single("an environment name").text)
        case "decoder": return .decoder(try a.optionalChoice(DecoderMode.self))
        case "log":
            guard let word = try a.optionalWord() else { return .log(nil, file: nil) }
            guard let detail = LogDetail(rawValue: word.text.lowercased()) else {
                throw a.badChoice(word, LogDetail.allCases.map(\.rawValue))
            }
            let file = try a.optionalWord()?.text
            try a.end()
            return .log(detail, file: file)
        case "timeout":
            return .timeout(
                try a.setting { word throws(CommandError) in
                    guard let duration = DurationText.parse(word.text), duration > .zero else {
                        throw CommandError(
                            "invalid duration '\(word.text)'", column: word.column, hint: "write 10s, 500ms or 2m")
                    }
                    return duration
                })
        case "redirects":
            return .redirects(
                try a.setting { word throws(CommandError) in
                    guard let count = Int(word.text), count >= 0 else {
                        throw CommandError(
                            "invalid redirect count '\(word.text)'", column: word.column, hint: "write a number or off")
                    }
                    return count
                })
        case "insecure": return .insecure(try a.optionalSwitch())
        case "proxy": return .proxy(try a.setting { $0.text })
        case "cookies":
            guard let word = try a.optionalWord() else { return .cookies(.list) }
            try a.end()
            switch word.text.lowercased() {
            case "clear": return .cookies(.clear)
            case "on": return .cookies(.on)
            case "off": return .cookies(.off)
            default: throw a.badChoice(word, ["clear", "on", "off"])
            }
        case "mock": return .mock(try mock(&a))
        case "pager": return .pager(try a.optionalChoice(PagerMode.self))
        case "responses":
            try a.end()
            return .responses
        case "inspect": return try inspect(&a)
        case "let": return try capture(&a)
        case "diff": return .diff(try diff(&a))
        case "expect": return .expect(try expect(&a))
        case "volatile":
            if a.isEmpty { return .volatile(nil) }
            let word = try a.single("a JSONPath")
            try checkPath(word)
            return .volatile(word.text)
        case "save":
            let file = try a.word("a file name")
            var requestsOnly = false
            if let flag = try a.optionalWord() {
                guard flag.text == "--requests-only" else { throw a.badChoice(flag, ["--requests-only"]) }
                try a.end()
                requestsOnly = true
            }
            return .save(file: file.text, requestsOnly: requestsOnly)
        case "load": return .load(try a.single("a file name").text)
        case "record": return .record(try a.optionalSwitch())
        case "replay":
            var files: [String] = []
            var compare = false
            for word in try a.words() {
                if word.text == "--compare", !word.quoted {
                    compare = true
                } else if word.text.hasPrefix("--"), !word.quoted {
                    throw CommandError(
                        "unknown replay option '\(word.text)'", column: word.column,
                        hint: "at the prompt: replay FILE… [--compare]; `fathom replay --help` has the rest")
                } else {
                    files.append(word.text)
                }
            }
            guard !files.isEmpty else {
                throw CommandError(
                    "missing a file to replay", column: a.column, hint: "usage: replay FILE… [--compare]")
            }
            return .replay(files: files, compare: compare)
        case "help":
            let topic = try a.optionalWord()
            try a.end()
            if let topic, CommandTable.spec(named: topic.text) == nil {
                throw CommandError(
                    "no command '\(topic.text)'", column: topic.column,
                    hint: CommandError.suggestion(for: topic.text, among: CommandTable.names)
                        ?? "type `help` for the list")
            }
            return .help(topic.flatMap { CommandTable.spec(named: $0.text)?.name })
        case "history":
            try a.end()
            return .history
        case "exit":
            try a.end()
            return .exit
        default:
            return try oneLiner(name, &a)
        }
    }

    // MARK: - Pieces

    static func method(_ word: Word) throws(CommandError) -> HTTPMethod {
        let upper = word.text.uppercased()
        guard !upper.isEmpty, upper.allSatisfy({ $0.isLetter || $0 == "-" }) else {
            throw CommandError("invalid method '\(word.text)'", column: word.column, hint: "e.g. GET, POST, PUT")
        }
        return HTTPMethod(rawValue: upper)
    }

    private static func queryEdit(_ word: Word) throws(CommandError) -> QueryEdit {
        if word.text.hasPrefix("-"), !word.quoted {
            let name = String(word.text.dropFirst())
            guard !name.isEmpty else { throw CommandError("missing query name after '-'", column: word.column) }
            return .remove(name)
        }
        guard let equals = word.text.firstIndex(of: "=") else { return .add(name: word.text, value: nil) }
        let name = String(word.text[..<equals])
        guard !name.isEmpty else {
            throw CommandError("missing query name before '='", column: word.column, hint: "write name=value")
        }
        return .add(name: name, value: String(word.text[word.text.index(after: equals)...]))
    }

    private static func headerSet(_ raw: Substring, column: Int) throws(CommandError) -> HeaderEdit {
        guard let colon = raw.firstIndex(of: ":") else {
            throw CommandError("expected 'Name: value'", column: column, hint: "e.g. header Accept: application/json")
        }
        let name = raw[..<colon].trimmingBlanks
        try checkHeaderName(name, column: column)
        let value = raw[raw.index(after: colon)...].trimmingBlanks
        return .set(name: name, value: value)
    }

    static func checkHeaderName(_ name: String, column: Int) throws(CommandError) {
        guard !name.isEmpty else { throw CommandError("missing header name", column: column) }
        let token = "!#$%&'*+-.^_`|~"
        if let bad = name.firstIndex(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || token.contains($0))) }) {
            throw CommandError(
                "invalid character '\(name[bad])' in header name '\(name)'",
                column: column + name.distance(from: name.startIndex, to: bad))
        }
    }

    private static func checkVariableName(_ word: Word) throws(CommandError) {
        guard let first = word.text.first, first.isLetter || first == "_",
            word.text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." })
        else {
            throw CommandError(
                "invalid variable name '\(word.text)'", column: word.column,
                hint: "use letters, digits, '_', '-' and '.', starting with a letter")
        }
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
                try a.words().map { word throws(CommandError) in try item(word, allowed: [.field, .rawJSON]) })
        case "multipart":
            return .multipart(
                try a.words().map { word throws(CommandError) in try item(word, allowed: [.field, .file]) })
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

    private static func show(_ a: inout Arguments) throws(CommandError) -> ShowTarget {
        guard let word = try a.optionalWord() else { return .request }
        switch word.text.lowercased() {
        case "request":
            try a.end()
            return .request
        case "response":
            try a.end()
            return .response(nil)
        case "session":
            try a.end()
            return .session
        case "headers":
            guard let on = try a.optionalSwitch() else {
                throw CommandError("expected on or off", column: a.column, hint: "show headers on|off")
            }
            return .headers(on)
        default:
            if word.text.hasPrefix("#"), let number = Int(word.text.dropFirst()), number > 0 {
                try a.end()
                return .response(number)
            }
            throw a.badChoice(word, ["request", "response", "session", "headers", "#N"])
        }
    }

    private static func defaultEdit(_ a: inout Arguments) throws(CommandError) -> DefaultEdit? {
        guard let word = try a.optionalWord() else { return nil }
        switch word.text.lowercased() {
        case "header":
            if a.raw.hasPrefix("-") { return .header(.remove(String(try a.single("a header name").text.dropFirst()))) }
            return .header(try headerSet(a.raw, column: a.column))
        case "query":
            let edits = try a.words().map(queryEdit)
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

    private static func auth(_ a: inout Arguments) throws(CommandError) -> AuthSpec? {
        guard let kind = try a.optionalWord() else { return nil }
        switch kind.text.lowercased() {
        case "none":
            try a.end()
            return AuthSpec.none
        case "bearer": return .bearer(try a.single("a token").text)
        case "basic":
            let credentials = try a.single("a user name").text
            if let colon = credentials.firstIndex(of: ":") {
                return .basic(
                    user: String(credentials[..<colon]),
                    password: String(credentials[credentials.index(after: colon)...])
                )
            }
            return .basic(user: credentials, password: nil)
        case "apikey":
            let placement = try a.word("header or query")
            guard let where_ = AuthSpec.ApiKeyPlacement(rawValue: placement.text.lowercased()) else {
                throw a.badChoice(placement, ["header", "query"])
            }
            let name = try a.word("the key's name").text
            let value = try a.single("the key's value").text
            return .apiKey(where_, name: name, value: value)
        case "oauth2":
            let flow = try a.word("client-credentials")
            guard flow.text.lowercased() == "client-credentials" else {
                throw a.badChoice(flow, ["client-credentials"])
            }
            let url = try a.word("the token URL").text
            let id = try a.word("the client ID").text
            let secret = try a.word("the client secret").text
            let scope = try a.optionalWord()?.text
            try a.end()
            return .oauth2ClientCredentials(tokenURL: url, clientID: id, clientSecret: secret, scope: scope)
        default:
            throw a.badChoice(kind, ["bearer", "basic", "apikey", "oauth2", "none"])
        }
    }

    private static func set(_ a: inout Arguments) throws(CommandError) -> Command {
        let name = try a.word("a variable name")
        if let equals = name.text.firstIndex(of: "="), !name.quoted {
            // `set a=1`
            let variable = Word(String(name.text[..<equals]), column: name.column)
            try checkVariableName(variable)
            let inline = String(name.text[name.text.index(after: equals)...])
            let more = a.raw.isEmpty ? "" : " " + a.raw
            return .set(name: variable.text, value: unquote(inline + more))
        }
        try checkVariableName(name)
        let value = try a.afterEquals()
        return .set(name: name.text, value: value)
    }

    private static func mock(_ a: inout Arguments) throws(CommandError) -> MockAction {
        guard let first = try a.optionalWord() else { return .list }
        if first.text.lowercased() == "off", a.isEmpty { return .off }
        let what = try a.word("@FILE or status CODE")
        if what.text.hasPrefix("@") {
            try a.end()
            return .file(path: first.text, file: String(what.text.dropFirst()))
        }
        guard what.text.lowercased() == "status" else { throw a.badChoice(what, ["@FILE", "status"]) }
        let codeWord = try a.single("a status code")
        guard let code = Int(codeWord.text), (100...599).contains(code) else {
            throw CommandError("invalid status code '\(codeWord.text)'", column: codeWord.column, hint: "100–599")
        }
        return .status(path: first.text, code: code)
    }

    private static func oneLiner(_ name: String, _ a: inout Arguments) throws(CommandError) -> Command {
        let method = HTTPMethod(rawValue: name.uppercased())
        var words = try a.words()
        var target: String?
        if let first = words.first, RequestItem.looksLikeTarget(first) {
            target = first.text
            words.removeFirst()
        }
        let items = try words.map { word throws(CommandError) in try item(word, allowed: RequestItem.Kind.allCases) }
        return .oneLiner(method: method, target: target, items: items)
    }

    // MARK: - Responses

    /// `#3` as 3.
    static func responseNumber(_ word: Word) throws(CommandError) -> Int? {
        guard word.text.hasPrefix("#"), !word.quoted else { return nil }
        guard let number = Int(word.text.dropFirst()), number > 0 else {
            throw CommandError("invalid response number '\(word.text)'", column: word.column, hint: "write #1, #2, …")
        }
        return number
    }

    /// Compiles a JSONPath so that a bad one is reported where it is written, before anything runs.
    static func checkPath(_ word: Word) throws(CommandError) {
        do {
            _ = try JSONPath(word.text)
        } catch {
            throw CommandError(
                "invalid JSONPath: \(error.reason)", column: word.column + max(0, error.column - 1),
                hint: "e.g. $.items[0].name or .items[0].name")
        }
    }

    private static func inspect(_ a: inout Arguments) throws(CommandError) -> Command {
        var number: Int?
        var paths = false
        var expression: Word?
        for word in try a.words() {
            if word.text == "--paths", !word.quoted {
                paths = true
            } else if let n = try responseNumber(word) {
                number = n
            } else if expression == nil {
                expression = word
            } else {
                throw CommandError(
                    "unexpected '\(word.text)'", column: word.column,
                    hint: "quote an expression that has blanks: inspect '$[?@.age > 30]'")
            }
        }
        guard let expression else {
            throw CommandError("missing a JSONPath", column: a.column, hint: "usage: inspect [#N] EXPR [--paths]")
        }
        try checkPath(expression)
        return .inspect(response: number, expression: expression.text, paths: paths)
    }

    private static func capture(_ a: inout Arguments) throws(CommandError) -> Command {
        var name = try a.word("a variable name")
        var words = try a.words()
        if let equals = name.text.firstIndex(of: "="), !name.quoted {
            // `let id=$.id`
            let after = String(name.text[name.text.index(after: equals)...])
            if !after.isEmpty {
                words.insert(
                    Word(after, column: name.column + name.text.distance(from: name.text.startIndex, to: equals) + 1),
                    at: 0)
            }
            name = Word(String(name.text[..<equals]), column: name.column)
        } else {
            guard let first = words.first, first.text == "=" || first.text.hasPrefix("=") else {
                throw CommandError(
                    "expected '=' after '\(name.text)'", column: words.first?.column ?? a.column,
                    hint: "let NAME = $.path")
            }
            if first.text == "=" {
                words.removeFirst()
            } else {
                words[0] = Word(String(first.text.dropFirst()), column: first.column + 1)
            }
        }
        try checkVariableName(name)
        var number: Int?
        if let last = words.last, let n = try responseNumber(last) {
            number = n
            words.removeLast()
        }
        guard let first = words.first else {
            throw CommandError(
                "missing what to capture", column: a.column, hint: "let NAME = $.path | header NAME | status")
        }
        let source: CaptureSource
        switch (first.text.lowercased(), first.quoted) {
        case ("status", false):
            guard words.count == 1 else { throw CommandError("unexpected '\(words[1].text)'", column: words[1].column) }
            source = .status
        case ("header", false):
            guard words.count == 2 else {
                throw CommandError(
                    words.count < 2 ? "missing a header name" : "unexpected '\(words[2].text)'",
                    column: words.count < 2 ? first.column + first.text.count + 1 : words[2].column,
                    hint: "let NAME = header Location")
            }
            try checkHeaderName(words[1].text, column: words[1].column)
            source = .header(words[1].text)
        default:
            guard words.count == 1 else {
                throw CommandError(
                    "unexpected '\(words[1].text)'", column: words[1].column,
                    hint: "quote an expression that has blanks")
            }
            try checkPath(first)
            source = .value(first.text)
        }
        return .capture(name: name.text, source: source, response: number)
    }

    private static func diff(_ a: inout Arguments) throws(CommandError) -> DiffRequest {
        var request = DiffRequest()
        var numbers: [Int] = []
        var words = try a.words()[...]
        while let word = words.popFirst() {
            switch word.text {
            case "--body": request.scope = .body
            case "--headers": request.scope = .headers
            case "--all": request.scope = .all
            case "--ignore":
                guard let path = words.popFirst() else {
                    throw CommandError("missing a JSONPath after --ignore", column: word.column + word.text.count)
                }
                try checkPath(path)
                request.ignore.append(path.text)
            default:
                guard let number = try responseNumber(word), numbers.count < 2 else {
                    throw CommandError(
                        "unexpected '\(word.text)'", column: word.column,
                        hint: "usage: diff [#A] [#B] [--body|--headers|--all] [--ignore EXPR]…")
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

    private static func expect(_ a: inout Arguments) throws(CommandError) -> Expectation {
        let first = try a.word("what to check")
        let subject: Expectation.Subject
        switch (first.text.lowercased(), first.quoted) {
        case ("status", false): subject = .status
        case ("time", false): subject = .time
        case ("body", false): subject = .body
        case ("header", false):
            let name = try a.word("a header name")
            try checkHeaderName(name.text, column: name.column)
            subject = .header(name.text)
        default:
            try checkPath(first)
            subject = .value(first.text)
        }
        let allowed: [Expectation.Operator] =
            switch subject {
            case .status: [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
            case .time: [.less, .lessOrEqual, .greater, .greaterOrEqual]
            case .body: [.equal, .notEqual, .matches, .notMatches]
            case .header: [.equal, .notEqual, .matches, .notMatches, .exists, .absent]
            case .value: Expectation.Operator.allCases
            }
        let opColumn = a.column
        guard let opWord = try a.optionalWord() else {
            throw CommandError(
                "missing a comparison", column: opColumn,
                hint: "one of \(allowed.map(\.rawValue).joined(separator: " "))")
        }
        var op: Expectation.Operator
        var operandText: String
        var operandColumn: Int
        if subject == .status, Expectation.Operator(rawValue: opWord.text) == nil {
            // `expect status 200`
            op = .equal
            operandText = opWord.text
            operandColumn = opWord.column
            try a.end()
        } else {
            guard let parsed = Expectation.Operator(rawValue: opWord.text.lowercased()), allowed.contains(parsed) else {
                throw CommandError(
                    "unknown comparison '\(opWord.text)'", column: opWord.column,
                    hint: "one of \(allowed.map(\.rawValue).joined(separator: " "))")
            }
            op = parsed
            if op == .exists || op == .absent {
                try a.end()
                return Expectation(subject: subject, op: op, operand: nil)
            }
            operandColumn = a.column
            operandText = a.raw.trimmingBlanks
            guard !operandText.isEmpty else {
                throw CommandError("missing a value to compare with", column: operandColumn)
            }
            if op == .matches || op == .notMatches || subject != .value(first.text) {
                operandText = unquote(operandText)
            }
        }
        switch subject {
        case .status:
            guard StatusPattern(operandText) != nil, op == .equal || op == .notEqual || Int(operandText) != nil else {
                throw CommandError(
                    "invalid status '\(operandText)'", column: operandColumn,
                    hint: "write a code (200) or a class (2xx)")
            }
        case .time:
            guard DurationText.parse(operandText) != nil else {
                throw CommandError(
                    "invalid duration '\(operandText)'", column: operandColumn, hint: "write 500ms or 2s")
            }
        default:
            if op == .matches || op == .notMatches, !operandText.contains("{{") {
                do {
                    _ = try Regex(operandText)
                } catch {
                    throw CommandError("invalid regular expression '\(operandText)'", column: operandColumn)
                }
            }
        }
        _ = op
        return Expectation(subject: subject, op: op, operand: operandText)
    }

    static func item(_ word: Word, allowed: [RequestItem.Kind]) throws(CommandError) -> RequestItem {
        guard let item = RequestItem(parsing: word.text), allowed.contains(item.kind) else {
            let forms = allowed.map(\.form).joined(separator: ", ")
            throw CommandError("invalid item '\(word.text)'", column: word.column, hint: "expected \(forms)")
        }
        if case .header(let name, _) = item { try checkHeaderName(name, column: word.column) }
        return item
    }

    static func unquote(_ text: String) -> String {
        if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
            return String(text.dropFirst().dropLast())
        }
        return text
    }
}

extension Substring {
    var trimmingBlanks: String {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(self[first...last])
    }
}
