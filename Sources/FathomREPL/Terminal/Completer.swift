import FathomOpenAPI
import Foundation

/// Tab completion from the command table and the session: command names, subcommands, header
/// names and media types, `{{variable}}` names, files after `@`, and paths seen in this session.
struct Completer: Sendable {
    /// What may replace the word under the cursor.
    struct Completion: Equatable, Sendable {
        /// The word being completed (the text the candidates start with).
        var word: String
        /// Full replacements for ``word``, each with what follows it (a space, `": "`, `/`).
        var candidates: [String]
    }

    static let commonHeaders = [
        "Accept", "Accept-Encoding", "Accept-Language", "Authorization", "Cache-Control", "Content-Type", "Cookie",
        "If-Match", "If-None-Match", "If-Modified-Since", "Origin", "Prefer", "Range", "Referer", "User-Agent",
        "X-API-Key", "X-Request-ID", "X-Correlation-ID", "X-Forwarded-For",
    ]

    static let mediaTypes = [
        "application/json", "application/problem+json", "application/x-www-form-urlencoded", "application/xml",
        "application/octet-stream", "multipart/form-data", "text/plain", "text/html", "text/csv", "*/*",
    ]

    let values: SessionSnapshot.Values
    let listFiles: @Sendable (String) -> [String]

    init(values: SessionSnapshot.Values, listFiles: @escaping @Sendable (String) -> [String] = Completer.files) {
        self.values = values
        self.listFiles = listFiles
    }

    /// Completions for `line`, the text before the cursor.
    func complete(_ line: String) -> Completion {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let endsWithSpace = line.last == " " || line.isEmpty
        let current = endsWithSpace ? "" : (words.last ?? "")
        let previous = endsWithSpace ? words : Array(words.dropLast())

        // A variable reference, anywhere.
        if let open = current.range(of: "{{", options: .backwards), !current[open.upperBound...].contains("}}") {
            let head = String(current[..<open.upperBound])
            let partial = String(current[open.upperBound...])
            let names = values.variableNames.filter { $0.hasPrefix(partial) }
            return Completion(word: current, candidates: names.map { head + $0 + "}}" })
        }
        // A GraphQL operation: the fields, arguments, values and directives where the cursor is.
        if let schema = values.graphQL, GraphQLText.startsOperation(line) {
            return GraphQLCompletion(index: schema).complete(line)
        }
        // A file after `@` (body @f, mock /x @f, item name@f).
        if let at = current.firstIndex(of: "@") {
            let head = String(current[...at])
            let partial = String(current[current.index(after: at)...])
            return Completion(word: current, candidates: listFiles(partial).map { head + $0 })
        }
        guard let command = previous.first?.lowercased() else {
            return Completion(word: current, candidates: Self.matching(CommandRegistry.names, current, suffix: " "))
        }
        guard let spec = CommandRegistry.spec(named: command) else { return Completion(word: current, candidates: []) }
        return Completion(
            word: current, candidates: candidates(spec.completion, arguments: Array(previous.dropFirst()), current))
    }

    /// What `completion` offers for the word after `arguments` (the words already typed after the
    /// command's name).
    private func candidates(_ completion: CommandSpec.Completion, arguments: [String], _ current: String) -> [String] {
        let position = arguments.count
        switch completion {
        case .none:
            return []
        case .words(let words):
            return position == 0 ? Self.matching(words, current, suffix: " ") : []
        case .headers:
            return headerCompletion(arguments[...], current).candidates
        case .paths:
            return position == 0 ? Self.matching(values.paths + specPaths(), current, suffix: "") : []
        case .variables:
            return Self.matching(values.variableNames, current, suffix: " ")
        case .files:
            return listFiles(current)
        case .commands:
            return Self.matching(CommandRegistry.names, current, suffix: "")
        case .environments:
            return position == 0 ? Self.matching(values.environmentNames, current, suffix: "") : []
        case .wordsOrFiles(let words):
            return position == 0 ? Self.matching(words, current, suffix: " ") + listFiles(current) : []
        case .subcommands(let subcommands):
            guard let first = arguments.first else {
                return Self.matching(subcommands.map(\.word), current, suffix: " ")
            }
            guard let chosen = subcommands.first(where: { $0.word == first.lowercased() }) else { return [] }
            return candidates(chosen.then, arguments: Array(arguments.dropFirst()), current)
        case .sequence(let steps):
            guard let last = steps.last else { return [] }
            return candidates(position < steps.count ? steps[position] : last, arguments: [], current)
        case .request(let method):
            if position == 0 { return Self.matching(values.paths + specPaths(), current, suffix: "") }
            var items: [String] = []
            if let api = values.spec,
                let operation = api.operation(
                    method: method,
                    path: api.relativePath(Draft.splitTarget(arguments[0]).path, basePath: values.basePath))
            {
                items = itemCandidates(operation, in: api, current, routesFields: false)
            }
            return items + Self.matching(Self.commonHeaders + values.headerNames, current, suffix: ":")
        case .operationIDs:
            guard let api = values.spec, position == 0 else { return [] }
            return Self.matching(api.operationIDs, current, suffix: " ")
        case .grpcMethods:
            guard position == 0 else { return [] }
            // Full names, and each method's short name when only it has it.
            let short = Dictionary(grouping: values.grpcMethods) {
                $0.split(separator: "/").last.map(String.init) ?? $0
            }
            .compactMap { $0.value.count == 1 ? $0.key : nil }
            return Self.matching(values.grpcMethods + short.sorted(), current, suffix: " ")
        case .operation:
            guard let api = values.spec else { return [] }
            guard let id = arguments.first else { return Self.matching(api.operationIDs, current, suffix: " ") }
            guard let operation = api.operation(id: id) else { return [] }
            return itemCandidates(operation, in: api, current, routesFields: true)
        }
    }

    /// The description's path templates, a template's `{name}` written as `{{name}}` when a
    /// variable of that name is set.
    private func specPaths() -> [String] {
        guard let api = values.spec else { return [] }
        let variables = Set(values.variableNames)
        return api.paths.map { path in
            var filled = path
            for name in variables where filled.contains("{\(name)}") {
                filled = filled.replacingOccurrences(of: "{\(name)}", with: "{{\(name)}}")
            }
            return filled
        }
    }

    /// Items an operation takes: `name==` query parameters (their enum values after `==`),
    /// `Name:` header parameters, `name=`/`name:=` body fields; with `op`, `name=` also for path,
    /// query and header parameters, which it routes.
    private func itemCandidates(
        _ operation: APIOperation, in api: APIDescription, _ current: String, routesFields: Bool
    ) -> [String] {
        for separator in ["==", "="] {
            guard let range = current.range(of: separator) else { continue }
            let name = String(current[..<range.lowerBound])
            let head = name + separator
            let partial = String(current[range.upperBound...])
            let values: [String]
            if let parameter = operation.parameters.first(where: { $0.name == name }) {
                values = api.enumValues(of: parameter)
            } else if separator == "=" {
                values = api.enumValues(ofBodyField: name, for: operation)
            } else {
                values = []
            }
            return values.filter { $0.hasPrefix(partial) }.map { head + $0 + " " }
        }
        var words: [String] = []
        for parameter in operation.parameters {
            switch parameter.location {
            case .path where routesFields: words.append(parameter.name + "=")
            case .query: words.append(parameter.name + (routesFields ? "=" : "=="))
            case .header: words.append(parameter.name + ":")
            default: break
            }
        }
        for field in api.bodyFields(for: operation) {
            words.append(field.name + (field.type == nil || field.type == "string" ? "=" : ":="))
        }
        return Self.matching(words, current, suffix: "")
    }

    private func headerCompletion(_ before: ArraySlice<String>, _ current: String) -> Completion {
        if let name = before.first, name.hasSuffix(":") {
            let header = name.dropLast().lowercased()
            if header == "content-type" || header == "accept" {
                return Completion(word: current, candidates: Self.matching(Self.mediaTypes, current, suffix: ""))
            }
            return Completion(word: current, candidates: [])
        }
        let names = Array(Set(Self.commonHeaders + values.headerNames)).sorted()
        return Completion(word: current, candidates: Self.matching(names, current, suffix: ": "))
    }

    static func matching(_ words: [String], _ prefix: String, suffix: String) -> [String] {
        var seen = Set<String>()
        return words.filter { $0.lowercased().hasPrefix(prefix.lowercased()) && seen.insert($0).inserted }
            .map { $0 + suffix }
    }

    /// Files and directories starting with `partial` (directories end with `/`).
    static func files(_ partial: String) -> [String] {
        let expanded = partial.hasPrefix("~/") ? NSHomeDirectory() + partial.dropFirst() : partial
        let directory: String
        let namePrefix: String
        if let slash = expanded.lastIndex(of: "/") {
            directory = String(expanded[...slash])
            namePrefix = String(expanded[expanded.index(after: slash)...])
        } else {
            directory = ""
            namePrefix = expanded
        }
        let shownDirectory = partial.lastIndex(of: "/").map { String(partial[...$0]) } ?? ""
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)
        else { return [] }
        return names.filter { $0.hasPrefix(namePrefix) && (namePrefix.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted()
            .map { name in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: directory + name, isDirectory: &isDirectory)
                return shownDirectory + name + (isDirectory.boolValue ? "/" : "")
            }
    }

    /// The longest prefix all candidates share.
    static func commonPrefix(_ candidates: [String]) -> String {
        guard var prefix = candidates.first else { return "" }
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}

extension Executor {
    /// What Tab offers after `line`, as the prompt computes it (from the snapshot the line editor
    /// reads, brought up to date first). For benchmarks and tools; the prompt calls the completer
    /// directly.
    @_spi(Fathom) public func completions(for line: String) -> [String] {
        refreshSnapshot()
        return Completer(values: feeds.snapshot.current, listFiles: { _ in [] }).complete(line).candidates
    }

    /// Runs one line as the prompt would, for benchmarks and tools (its outputs are not printed).
    @_spi(Fathom) public func runQuietly(_ line: String) async -> Outcome { await run(line).outcome }

    /// The same without bringing the snapshot up to date: the cost of one Tab.
    @_spi(Fathom) public nonisolated func completionsFromSnapshot(for line: String) -> [String] {
        Completer(values: feeds.snapshot.current, listFiles: { _ in [] }).complete(line).candidates
    }
}
