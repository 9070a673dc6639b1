@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// How far the session's history has reached the response archive.
struct ArchiveProgress: Sendable {
    /// Every entry numbered up to this one has been kept, or is ``waiting``.
    var through = 0
    /// Exchanges that are not responses, kept once no conversation is open: a conversation's
    /// document is whole only when it ends.
    var waiting: [Int] = []
    /// The archive could not be written: said once, and this session keeps nothing more there.
    var failed = false
    /// Records made and not yet written: written together (one lock, one write) when there are
    /// ``ArchiveProgress/batch`` of them or half a second has passed, before anything reads the
    /// archive, and at the session's end — so a script of many requests pays for the archive
    /// once per batch, and a person at the prompt has each line's written as it ends.
    var unwritten: [ArchivedResponse] = []
    var lastWrite = ContinuousClock.now

    static let batch = 64
    static let interval = Duration.milliseconds(500)
}

/// What a line that reads an entry of the history gets: a response, or another exchange's
/// document (a batch, a conversation), from this session (`#3`) or the archive (`@12`).
enum ReadEntry {
    case response(ResponseHistory.Entry)
    /// `number` in the session that made it; `archived` its ID when read from the archive.
    case document(number: Int, archived: Int?, title: String, JSON)

    /// `#3` or `@12`.
    var reference: ResponseReference {
        switch self {
        case .response(let entry): entry.reference
        case .document(let number, let archived, _, _): archived.map { .archived($0) } ?? .number(number)
        }
    }
}

/// The response archive (``ResponseArchive``) from the session's side: what the history gains
/// is kept there after each line, and `@ID` reads it back.
extension Executor {
    /// Keeps in the archive what the history gained since the last line ran (called after each
    /// line typed, and when a conversation ends without one). Masked by the redactor as it is
    /// now: what the screen masked, the file does.
    func archiveNewExchanges() {
        guard let archive = options.archive, !record.archiving.failed else { return }
        let history = record.responses
        let through = record.archiving.through
        guard history.lastNumber > through || !record.archiving.waiting.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        var records = history.entries.reversed().prefix { $0.number > through }.reversed().map { entry in
            (
                entry.number,
                ArchivedResponse(
                    entry, session: archive.session, at: now, redactor: redactor, bodyLimit: archive.limits.bodyLimit)
            )
        }
        record.archiving.waiting += history.exchanges.map(\.number).filter { $0 > through }
        record.archiving.through = history.lastNumber
        if record.conversation.map({ $0.ended != nil }) ?? true {
            for number in record.archiving.waiting {
                guard let entry = history.exchanges.first(where: { $0.number == number }) else { continue }
                records.append((number, ArchivedResponse(entry, session: archive.session, at: now, redactor: redactor)))
            }
            record.archiving.waiting = []
        }
        record.archiving.unwritten += records.sorted(by: { $0.0 < $1.0 }).map(\.1)
        let progress = record.archiving
        if progress.unwritten.count >= ArchiveProgress.batch
            || ContinuousClock.now - progress.lastWrite >= ArchiveProgress.interval
        {
            writeArchive()
        }
    }

    /// Writes the records made and not yet written (``ArchiveProgress/unwritten``): before the
    /// archive is read, and at the session's end.
    public func writeArchive() {
        guard let archive = options.archive, !record.archiving.failed, !record.archiving.unwritten.isEmpty else {
            return
        }
        let records = record.archiving.unwritten
        record.archiving.unwritten = []
        record.archiving.lastWrite = .now
        do {
            _ = try archive.keep(records)
        } catch {
            record.archiving.failed = true
            let reason = (error as? POSIXError).map { String(cString: strerror($0.code.rawValue)).lowercased() }
            feeds.notice(
                .failure(
                    Failure(
                        .other(
                            "the response archive at \(archive.directory) cannot be written"
                                + (reason.map { " (\($0))" } ?? "")
                                + ": this session's responses are not kept there from now on"))))
        }
    }

    /// The archive, or why a line that reads it cannot; what this session has not written yet
    /// is written first, so the line reads it too.
    func responseArchive() throws(CommandError) -> ResponseArchive {
        writeArchive()
        guard let archive = options.archive else {
            throw CommandError(
                .session, "the response archive is off here",
                hint: "a `replay` and `fathom mcp` keep none; at the prompt, `archive on` in the config keeps responses"
            )
        }
        return archive
    }

    /// The archive's record `@id`, or why there is none.
    func archived(_ id: Int) throws(CommandError) -> ArchivedResponse {
        let archive = try responseArchive()
        if let record = archive.record(id) { return record }
        let index = archive.index()
        guard let first = index.first, let last = index.last else {
            throw CommandError(
                .session, "no @\(id): the response archive is empty", hint: "responses are kept there as they come")
        }
        let bound = "it keeps \(DurationText.long(archive.limits.age)) up to \(ByteCount.format(archive.limits.bytes))"
        throw CommandError(
            .session,
            id < first.id ? "@\(id) is no longer in the response archive" : "no @\(id) in the response archive",
            hint: "it holds @\(first.id)–@\(last.id) (`responses --all`); \(bound)")
    }

    /// The entry a line names (`#3`, `@12`; the last when `nil`) as what it can read.
    func read(_ reference: ResponseReference?) throws -> ReadEntry {
        switch reference {
        case .archived(let id)?:
            let archived = try archived(id)
            if let entry = archived.entry() { return .response(entry) }
            return .document(number: archived.number, archived: id, title: archived.listed, try archived.document())
        case .number(let number)?:
            return try read(number: number)
        case nil:
            return try read(number: nil)
        }
    }

    private func read(number: Int?) throws -> ReadEntry {
        let history = record.responses
        if let entry = history.exchange(number) {
            return .document(
                number: entry.number, archived: nil, title: redactor.redact(entry.exchange.listed),
                entry.exchange.document())
        }
        return .response(try history.entry(number))
    }
}
