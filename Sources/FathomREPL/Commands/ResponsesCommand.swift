@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// `responses [--all | search TEXT | search EXPR OP VALUE]`: the numbered response history, the
/// response archive (every session's exchanges), or what in it matches.
struct ResponsesCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "responses", synopsis: "responses [--all | search TEXT | search EXPR OP VALUE]",
        summary: "the numbered response history: #1, #2, …; --all and search read every session's",
        details: """
            The archive keeps every session's exchanges, masked, under $XDG_STATE_HOME/fathom/responses \
            (up to `archive-size`, default 100MB, for `archive-age`, default 30d; `archive off` in the config \
            keeps none). `responses --all` lists them as @ID; `show @ID`, `inspect @ID EXPR` and \
            `diff @ID #N` read them. `search TEXT` finds TEXT (any case) in the method, URL, status or body; \
            `search $.path == value` takes any comparison `expect` takes, over JSON bodies.
            """,
        completion: .words(["--all", "search"]), group: .responses)

    enum Mode: Equatable, Sendable {
        /// This session's history.
        case session
        /// The archive, every session's.
        case all
        /// The archive's exchanges whose text holds this (any case).
        case text(String)
        /// The archive's exchanges whose body keeps this comparison.
        case value(Expectation)
    }

    var mode: Mode = .session

    /// The most entries `responses --all` and `search` list: the newest.
    static let listedLimit = 200

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard let first = try arguments.optionalWord() else { return ResponsesCommand() }
        switch (first.text, first.quoted) {
        case ("--all", false):
            try arguments.end()
            return ResponsesCommand(mode: .all)
        case ("search", false):
            let rest = arguments.raw.trimmingBlanks
            guard !rest.isEmpty else {
                throw CommandError(
                    .parse, .missing("what to search for"), column: arguments.column,
                    hint: "responses search TEXT | responses search $.path == value")
            }
            if let start = rest.first, start == "$" || start == "." {
                let expectation = try ExpectCommand.expect(&arguments)
                guard case .value = expectation.subject, expectation.each == nil else {
                    throw CommandError(.parse, "search takes a JSONPath comparison", column: arguments.column)
                }
                return ResponsesCommand(mode: .value(expectation))
            }
            _ = arguments.rest()
            return ResponsesCommand(mode: .text(CommandParser.unquote(rest)))
        default:
            throw arguments.badChoice(first, ["--all", "search"])
        }
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String {
        switch mode {
        case .session: "responses"
        case .all: "responses --all"
        case .text(let text):
            {
                var writer = LineWriter("responses search")
                writer.word(text)
                return writer.text
            }()
        case .value(let expectation):
            "responses search" + ExpectCommand(expectation: expectation).line.dropFirst("expect".count)
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch mode {
        case .session:
            return .shows(.listing(Listing(kind: .responses, items: Self.session(executor, matching: nil))))
        case .all:
            let archive = try executor.responseArchive()
            let index = archive.index()
            let items = index.suffix(Self.listedLimit).map { Self.item($0, archive: archive) }
            return .shows(
                .listing(Listing(kind: .archive, items: items, source: Self.source(archive, count: index.count))))
        case .text, .value:
            // What this session has not written yet is searched too.
            executor.writeArchive()
            let matches = try ArchiveSearch(mode: mode, executor: executor)
            guard let archive = executor.options.archive else {
                // No archive here: this session's history is what there is to search.
                let items = Self.session(executor, matching: { try matches.matches($0, in: executor) })
                return .shows(.listing(Listing(kind: .responses, items: items)))
            }
            let found = archive.records(archive.index(), where: matches.mayMatch).filter { matches.matches($0) }
            let items = found.suffix(Self.listedLimit).map { record in
                Self.item(
                    ResponseArchive.IndexEntry(
                        id: record.id, at: record.at, session: record.session, number: record.number,
                        listed: record.listed, offset: 0, length: 0), archive: archive)
            }
            let more = found.count > Self.listedLimit ? " (the newest \(Self.listedLimit) shown)" : ""
            return .shows(
                .listing(
                    Listing(
                        kind: .archive, items: items,
                        source: "\(found.count) of the archive's exchanges match\(more)")))
        }
    }

    /// This session's responses and other exchanges, in number order; those `matching` keeps.
    private static func session(
        _ executor: isolated Executor, matching: ((ResponseHistory.Entry) throws -> Bool)?
    ) -> [Listing.Item] {
        let history = executor.record.responses
        let responses = history.entries.filter { entry in (try? matching?(entry) ?? true) ?? false }.map { entry in
            (
                entry.number,
                Listing.Item(name: "#\(entry.number)", value: executor.shownPath(entry.response.url), response: entry)
            )
        }
        // Other exchanges are listed, not searched.
        let exchanges =
            matching != nil
            ? []
            : history.exchanges.map { entry in
                (
                    entry.number,
                    Listing.Item(name: "#\(entry.number)", value: executor.redactor.redact(entry.exchange.listed))
                )
            }
        return (responses + exchanges).sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// An archived exchange as a row: `@12`, when, its line; marked when this session made it.
    private static func item(_ entry: ResponseArchive.IndexEntry, archive: ResponseArchive) -> Listing.Item {
        let mine = entry.session == archive.session
        let when = ArchiveTime.format(entry.at)
        return Listing.Item(
            name: "@\(entry.id)", value: TerminalText.visible(entry.listed),
            detail: mine ? "\(when) #\(entry.number)" : when, marked: mine)
    }

    private static func source(_ archive: ResponseArchive, count: Int) -> String {
        let shown = count > listedLimit ? ", the newest \(listedLimit) shown" : ""
        return
            "\(count) kept in \(archive.directory) (for \(DurationText.long(archive.limits.age)), up to \(ByteCount.format(archive.limits.bytes))\(shown))"
    }
}

/// A `responses search`: what it looks for, its operand expanded once.
struct ArchiveSearch {
    let mode: ResponsesCommand.Mode
    /// A comparison's operand, variables expanded.
    let operand: String?

    init(mode: ResponsesCommand.Mode, executor: isolated Executor) throws {
        self.mode = mode
        if case .value(let expectation) = mode {
            operand = try expectation.operand.map { try executor.session.variables.expand($0) }
        } else {
            operand = nil
        }
    }

    /// Whether a record's line, as the archive holds it, may match: `false` only when it cannot.
    ///
    /// The archive writes text as JSON does — only `"`, `\`, control characters and DEL escaped,
    /// the rest as UTF-8 — so text without those stands in the line as it stands in the body
    /// (a body kept as base64 is always parsed). A search for ASCII text looks for it, any case,
    /// in the bytes; a comparison with a plain string (`$.name == "Ada"`, `$.tags contains "x"`)
    /// for the string, as it is. Anything else is parsed and tested whole.
    func mayMatch(_ line: Data) -> Bool {
        guard let needle else { return true }
        if line.range(of: Data("\"body_base64\"".utf8)) != nil { return true }
        guard caseInsensitive else { return line.range(of: needle) != nil }
        var lowered = line
        lowered.withUnsafeMutableBytes { bytes in
            for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        }
        return lowered.range(of: needle) != nil
    }

    /// What ``mayMatch(_:)`` looks for in a line, lower-cased when ``caseInsensitive``; `nil`
    /// when no test on the bytes is sound.
    private var needle: Data? {
        func plain(_ text: String) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }
                && !text.contains("\"") && !text.contains("\\")
        }
        switch mode {
        case .text(let text):
            return plain(text) ? Data(text.lowercased().utf8) : nil
        case .value(let expectation):
            guard [.equal, .contains, .startsWith, .endsWith].contains(expectation.op), let operand else { return nil }
            // A string's text stands in the body as written (a number may be spelled otherwise:
            // `1999` equals `1.999e3`).
            guard case .string(let text) = ExpectationEvaluator.literal(operand), plain(text) else { return nil }
            return Data(text.utf8)
        case .session, .all:
            return nil
        }
    }

    private var caseInsensitive: Bool {
        if case .text = mode { return true }
        return false
    }

    /// Whether an archived exchange matches.
    func matches(_ record: ArchivedResponse) -> Bool {
        switch mode {
        case .text(let text): return record.searchableText.range(of: text, options: .caseInsensitive) != nil
        case .value(let expectation):
            guard let document = try? record.document() else { return false }
            return holds(expectation, in: document)
        case .session, .all: return true
        }
    }

    /// Whether a response of this session matches (the archive is off).
    func matches(_ entry: ResponseHistory.Entry, in executor: isolated Executor) throws -> Bool {
        switch mode {
        case .text(let text):
            let response = entry.response
            let shown =
                "\(response.request.method.rawValue) \(executor.redactor.redact(response.url)) \(response.status)\n"
                + executor.redactor.redact(body: response.body)
            return shown.range(of: text, options: .caseInsensitive) != nil
        case .value(let expectation):
            guard let document = try? executor.json(of: entry) else { return false }
            return holds(expectation, in: document)
        case .session, .all: return true
        }
    }

    private func holds(_ expectation: Expectation, in document: JSON) -> Bool {
        guard case .value(let written) = expectation.subject else { return false }
        let result = try? ExpectationEvaluator.evaluateValue(written, expectation.op, operand: operand) { path in
            try JSONPath(path).query(document).map(\.value)
        }
        return result?.passed ?? false
    }
}

/// When an archived exchange was kept, as listings show it: `2026-11-28 19:30` in local time.
enum ArchiveTime {
    static func format(_ seconds: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
