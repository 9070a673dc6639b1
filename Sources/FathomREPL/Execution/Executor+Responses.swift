import FathomHTTP
import FathomJSON
import Foundation

extension Executor {
    // MARK: - responses

    func listResponses() {
        let entries = session.responses.entries
        guard !entries.isEmpty else {
            say("no responses yet — `send` or `get PATH`")
            return
        }
        let width = String(entries.last?.number ?? 0).count + 1
        say(
            entries.map { entry in
                let response = entry.response
                let number = "#\(entry.number)".padding(toLength: width, withPad: " ", startingAt: 0)
                return [
                    palette.bold(number), response.request.method.rawValue, shownPath(response.url),
                    palette.status(response.status), palette.dim(response.timing.total.shortDescription),
                    palette.dim(ByteCount.format(response.body.count)),
                ].joined(separator: " ")
            }.joined(separator: "\n"))
    }

    /// A URL as lists show it: path and query (secrets masked), or the whole URL on another origin.
    func shownPath(_ url: RequestURL) -> String {
        let masked = redactor.redact(url)
        let origin = "\(url.scheme)://\(url.authority)"
        if let base = baseURL(), base.hasPrefix(origin), masked.hasPrefix(origin),
            base.count == origin.count || base.dropFirst(origin.count).first == "/"
        {
            return String(masked.dropFirst(origin.count))
        }
        return masked
    }

    // MARK: - inspect

    func inspect(_ number: Int?, _ expression: String, paths: Bool) throws {
        let entry = try session.responses.entry(number)
        let nodes = try query(expression, in: entry)
        guard !nodes.isEmpty else {
            say(palette.dim("no match for \(expression) in #\(entry.number)"))
            return
        }
        var text = ""
        for node in nodes {
            if paths { text += palette.cyan(node.path.description) + "\n" }
            text += node.value.formatted(palette.json)
        }
        show(long: text)
    }

    /// The nodes `expression` (variables expanded) selects in a response's body.
    func query(_ expression: String, in entry: ResponseHistory.Entry) throws -> [JSONPath.Node] {
        try JSONPath(try session.variables.expand(expression)).query(try json(of: entry))
    }

    /// A response's body as JSON, parsed once however many lines read it (numbers never repeat).
    func json(of entry: ResponseHistory.Entry) throws -> JSON {
        if let parsedBody, parsedBody.number == entry.number { return parsedBody.json }
        let json = try ExpectationEvaluator.json(entry.response, number: entry.number)
        parsedBody = (entry.number, json)
        return json
    }

    // MARK: - let

    func capture(_ name: String, _ source: CaptureSource, _ number: Int?) throws {
        if number == nil { try checkLastRequestAnswered() }
        let entry = try session.responses.entry(number)
        let response = entry.response
        var secret = SecretNames.looksSecret(name)
        let value: String
        switch source {
        case .status:
            value = String(response.status.code)
        case .header(let header):
            let headerName = NetworkHeaders.Name(header)
            guard let found = response.headers[headerName] else {
                throw CommandError("response #\(entry.number) has no \(header) header")
            }
            value = found
            secret = secret || redactor.isSecretHeader(headerName)
        case .value(let expression):
            let nodes = try query(expression, in: entry)
            guard nodes.count == 1 else {
                throw CommandError(
                    nodes.isEmpty
                        ? "\(expression) matches nothing in #\(entry.number)"
                        : "\(expression) matches \(nodes.count) values in #\(entry.number)",
                    hint: nodes.isEmpty ? "look with `inspect \(expression)`" : "narrow it to one, e.g. with [0]")
            }
            let node = nodes[0]
            if case .name(let field)? = node.path.components.last, SecretNames.looksSecret(field) { secret = true }
            if case .string(let string) = node.value {
                value = string
            } else {
                value = String(node.value.formatted(.compactText).dropLast())
            }
        }
        secret = secret || session.variables.isSecret(name)
        if secret { redactor.addSecret(value) }
        session.variables.set(name, value, secret: secret)
        say(palette.cyan(name) + " = " + (secret ? Redactor.masked(value) + palette.dim("  (secret)") : value))
    }

    // MARK: - diff

    func diff(_ request: DiffRequest) throws {
        let entries = session.responses.entries
        let old: ResponseHistory.Entry
        let new: ResponseHistory.Entry
        switch (request.old, request.new) {
        case (let a?, let b?):
            guard a != b else {
                throw CommandError("#\(a) and #\(b) are the same response", hint: "name two: diff #1 #2")
            }
            (old, new) = (try session.responses.entry(a), try session.responses.entry(b))
        case (let a?, nil):
            old = try session.responses.entry(a)
            new = try session.responses.entry(nil)
            guard old.number != new.number else {
                throw CommandError("#\(a) is the last response", hint: "name the other one: diff #\(a) #N")
            }
        default:
            guard entries.count >= 2 else {
                throw CommandError(
                    "diff needs two responses, the session has \(entries.count)", hint: "send another request first")
            }
            (old, new) = (entries[entries.count - 2], entries[entries.count - 1])
        }
        var ignore: [JSONPath] = []
        for expression in request.ignore + session.volatile { ignore.append(try JSONPath(expression)) }
        let a = old.response
        let b = new.response
        var text =
            palette.bold("#\(old.number)") + " \(a.request.method) \(shownPath(a.url)) → "
            + palette.bold("#\(new.number)") + " \(b.request.method) \(shownPath(b.url))\n"
        var same = true
        if request.scope != .body, a.status != b.status {
            text += "status  \(palette.status(a.status)) → \(palette.status(b.status))\n"
            same = false
        }
        if request.scope != .body {
            let lines = headerDifferences(a.headers, b.headers)
            if !lines.isEmpty {
                text += lines.joined(separator: "\n") + "\n"
                same = false
            }
        }
        if request.scope != .headers, let body = bodyDifference(a, b, ignore: ignore) {
            text += body
            same = false
        }
        if same {
            text +=
                palette.dim(
                    request.scope == .all ? "no differences" : "no differences in the \(request.scope.rawValue)") + "\n"
        }
        if !request.ignore.isEmpty || !session.volatile.isEmpty {
            text += palette.dim("ignoring \((request.ignore + session.volatile).joined(separator: ", "))") + "\n"
        }
        show(long: text)
    }

    /// Header changes, one per line: `~ Name: old → new`, `+ Name: value`, `- Name: value`.
    func headerDifferences(_ a: NetworkHeaders, _ b: NetworkHeaders) -> [String] {
        func grouped(_ headers: NetworkHeaders) -> [(String, String)] {
            var order: [String] = []
            var values: [String: [String]] = [:]
            var names: [String: String] = [:]
            for field in redactor.redact(headers) {
                let key = field.name.canonicalName
                if values[key] == nil {
                    order.append(key)
                    names[key] = field.name.rawName
                }
                values[key, default: []].append(field.value)
            }
            return order.map { (names[$0]!, values[$0]!.joined(separator: ", ")) }
        }
        let old = grouped(a)
        let new = grouped(b)
        var lines: [String] = []
        for (name, value) in old {
            if let other = new.first(where: { $0.0.lowercased() == name.lowercased() }) {
                if other.1 != value {
                    lines.append("\(palette.yellow("~")) \(name): \(palette.red(value)) → \(palette.green(other.1))")
                }
            } else {
                lines.append(palette.red("- \(name): \(value)"))
            }
        }
        for (name, value) in new where !old.contains(where: { $0.0.lowercased() == name.lowercased() }) {
            lines.append(palette.green("+ \(name): \(value)"))
        }
        return lines
    }

    /// The body change: structural for JSON, unified for text; `nil` when the bodies are the same.
    func bodyDifference(_ a: NetworkResponse<Data>, _ b: NetworkResponse<Data>, ignore: [JSONPath]) -> String? {
        if let old = try? JSON(parsing: a.body), let new = try? JSON(parsing: b.body) {
            let diff = JSONDiff(from: old, to: new, options: JSONDiff.Options(ignore: ignore))
            return diff.isEmpty ? nil : diff.tree(colors: palette.enabled)
        }
        guard a.body != b.body else { return nil }
        let renderer = ResponseRenderer(
            palette: Palette(enabled: false), decoder: .text, showHeaders: false, redactor: redactor)
        if let old = renderer.text(a.body, contentType: a.contentType),
            let new = renderer.text(b.body, contentType: b.contentType),
            ResponseRenderer.looksLikeText(old), ResponseRenderer.looksLikeText(new)
        {
            return TextDiff(from: old, to: new).unified(colors: palette.enabled)
        }
        return "bodies differ: \(ByteCount.format(a.body.count)) → \(ByteCount.format(b.body.count)) (binary)\n"
    }

    // MARK: - expect

    /// Checks the last response; a failed expectation is printed and makes the line fail, but is
    /// no error: the session goes on, and `replay` counts it.
    func expect(_ expectation: Expectation, line: String) throws -> Outcome {
        try checkLastRequestAnswered()
        let entry = try session.responses.entry(nil)
        let operand = try expectation.operand.map { try session.variables.expand($0) }
        let result = try ExpectationEvaluator.evaluate(expectation, operand: operand, response: entry.response) {
            try query($0, in: entry).map(\.value)
        }
        let text = line.trimmingBlanksAround
        events.append(.expectation(line: text, result: result))
        if result.passed {
            if options.reportsPassedExpectations { say(palette.green("✓ ") + text) }
            return .succeeded
        }
        fail("✗ \(text) — expected \(result.expected), got \(result.actual)")
        return .failed
    }

    /// `expect` and `let` read the last response: after a request that got none, that would be
    /// an older request's.
    func checkLastRequestAnswered() throws {
        guard lastRequestFailed else { return }
        throw CommandError(
            "the last request got no response", hint: "send it again, or name an earlier response: let NAME = EXPR #N")
    }

    // MARK: - volatile

    func volatile(_ expression: String?) {
        guard let expression else {
            say(
                session.volatile.isEmpty
                    ? "no volatile fields — `volatile $.updatedAt`" : session.volatile.joined(separator: "\n"))
            return
        }
        if !session.volatile.contains(expression) { session.volatile.append(expression) }
    }
}

extension String {
    var trimmingBlanksAround: String { Substring(self).trimmingBlanks }
}
