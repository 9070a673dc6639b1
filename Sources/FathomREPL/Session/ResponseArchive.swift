import FathomHTTP
import FathomJSON
import Foundation
import Synchronization

/// Every session's exchanges, kept masked on disk so that a later session lists, searches and
/// compares them (`responses --all`, `responses search`, `show @ID`): the directory
/// `$XDG_STATE_HOME/fathom/responses/` (or `~/.local/state/fathom/responses/`), mode 0700.
///
/// Two files, both appended to and never rewritten in place:
/// - `records`: one ``ArchivedResponse`` per line, as JSON, its ID first;
/// - `index`: one short line per record — ID, time, session, number, listed line, and where its
///   record starts and how long it is — so that a listing never reads the bodies, and `@ID` is
///   one read at a known offset (checked to start with that ID before it is believed).
///
/// Sessions running at once share it: a writer holds an exclusive `flock` on `index` while it
/// takes the next ID and appends (one `write` per file), and waits at most ``lockWait`` for it. Bounded by size and age
/// (``Limits``): when `records` passes the size, or holds a record older than the age, it is
/// compacted under the same lock to the newest records that fit in three quarters of the size
/// (the rest kept for later appends), through temporary files and renames — a reader sees the old
/// files or the new ones, and an index that points at the wrong place is caught by the ID check.
public final class ResponseArchive: Sendable {
    /// How much the archive keeps.
    public struct Limits: Sendable, Equatable {
        /// The most bytes of records kept.
        public var bytes: Int
        /// The oldest record kept.
        public var age: Duration

        public init(bytes: Int, age: Duration) {
            self.bytes = bytes
            self.age = age
        }

        /// 100 MiB and 30 days.
        public static let standard = Limits(bytes: 100 << 20, age: .seconds(30 * 86_400))

        /// The largest body a record keeps: an eighth of the bound, at most 1 MiB (a bigger one is
        /// listed and searchable by its request and status, its size said).
        var bodyLimit: Int { min(bytes / 8, 1 << 20) }
    }

    /// One line of the index.
    struct IndexEntry: Sendable, Equatable {
        var id: Int
        var at: Double
        var session: String
        var number: Int
        var listed: String
        var offset: Int
        var length: Int
    }

    public let directory: String
    public let limits: Limits
    /// This process's session, as records name it.
    let session: String
    /// Whether this process has compacted for age once (records older than the age go at the
    /// first write, not only when the size is passed).
    private let agedOut = Mutex(false)

    /// - Parameter directory: Where the files are (created on the first write).
    public init(directory: String, limits: Limits = .standard, session: String = ResponseArchive.newSessionName()) {
        self.directory = directory
        self.limits = limits
        self.session = session
    }

    /// `$XDG_STATE_HOME/fathom/responses`, or `~/.local/state/fathom/responses`.
    public static func defaultDirectory(
        environment: [String: String] = ProcessEnvironment.current
    ) -> String {
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/fathom/responses"
    }

    /// Six lowercase letters and digits: enough to tell apart the sessions of 30 days.
    public static func newSessionName() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<6).map { _ in alphabet.randomElement()! })
    }

    var indexPath: String { directory + "/index" }
    var recordsPath: String { directory + "/records" }

    // MARK: - Writing

    /// Keeps `record` and returns its ID.
    ///
    /// - Throws: `POSIXError` when the files cannot be written (the archive is as it was).
    func keep(_ record: ArchivedResponse) throws -> Int {
        try keep([record])[0]
    }

    /// Keeps `records`, in order, and returns their IDs: one lock, one write to each file.
    ///
    /// - Throws: `POSIXError` when the files cannot be written (the archive is as it was).
    func keep(_ records: [ArchivedResponse]) throws -> [Int] {
        guard !records.isEmpty else { return [] }
        var index = open(indexPath, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if index < 0, errno == ENOENT {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            index = open(indexPath, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        }
        guard index >= 0 else { throw Self.error() }
        defer { close(index) }
        try Self.lock(index)
        defer { flock(index, LOCK_UN) }
        let file = open(recordsPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw Self.error() }
        var offset = Int(lseek(file, 0, SEEK_END))
        var id = Self.lastID(in: index)
        var lines = Data()
        var entries = Data()
        var ids: [Int] = []
        for var record in records {
            id += 1
            record.id = id
            let line = record.line()
            let entry = IndexEntry(
                id: id, at: record.at, session: record.session, number: record.number,
                listed: String(record.listed.prefix(300)), offset: offset, length: line.count)
            lines.append(line)
            entries.append(Self.indexLine(entry))
            offset += line.count
            ids.append(id)
        }
        let failed = lines.withUnsafeBytes { StandardStreams.write($0, to: file) }
        close(file)
        if let failed {
            // A partial line is left at the end of `records` and no index line names it: the
            // next record starts after it, and compaction drops it.
            throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .EIO)
        }
        if let failed = entries.withUnsafeBytes({ StandardStreams.write($0, to: index) }) {
            throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .EIO)
        }
        let firstWrite = agedOut.withLock { done in
            defer { done = true }
            return !done
        }
        if offset > limits.bytes || firstWrite && oldestIsTooOld(index) {
            try compact(index: index)
        }
        return ids
    }

    /// The longest a session waits for another to finish writing: past it, this write fails (and
    /// the session keeps nothing more there) rather than a line hanging on a stopped process.
    static let lockWait = Duration.seconds(2)

    /// Takes the index's exclusive lock, waiting at most ``lockWait``.
    private static func lock(_ descriptor: Int32) throws {
        let deadline = ContinuousClock.now + lockWait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                throw errno == EWOULDBLOCK ? POSIXError(.ETIMEDOUT) : error()
            }
            usleep(5_000)
        }
    }

    /// Whether the index's first record is older than the age.
    private func oldestIsTooOld(_ index: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = pread(index, &buffer, buffer.count, 0)
        guard count > 0, let end = buffer[..<count].firstIndex(of: 10),
            let first = Self.indexEntry(buffer[..<end])
        else { return false }
        return first.at < cutoff
    }

    /// The earliest time a record may be from.
    private var cutoff: Double {
        Date().timeIntervalSince1970 - Double(limits.age.components.seconds)
    }

    /// Rewrites both files with the newest records that are young enough and fit in three
    /// quarters of the size. Called with the lock held.
    private func compact(index: Int32) throws {
        let entries = Self.entries(in: Self.read(index))
        let cutoff = cutoff
        var kept: [IndexEntry] = []
        var total = 0
        for entry in entries.reversed() where entry.at >= cutoff {
            guard total + entry.length <= limits.bytes * 3 / 4 else { break }
            kept.append(entry)
            total += entry.length
        }
        kept.reverse()
        let records = open(recordsPath, O_RDONLY | O_CLOEXEC)
        guard records >= 0 else { throw Self.error() }
        defer { close(records) }
        var moved: [IndexEntry] = []
        try AtomicFile.write(to: recordsPath, mode: 0o600) { emit in
            var offset = 0
            for var entry in kept {
                guard let line = Self.record(entry, in: records) else { continue }
                guard line.withUnsafeBytes({ emit($0) }) else { return }
                entry.offset = offset
                offset += line.count
                moved.append(entry)
            }
        }
        // The last record's ID stays in the index even when every record went: IDs never repeat.
        if moved.last?.id != entries.last?.id, let last = entries.last {
            var marker = last
            (marker.offset, marker.length) = (0, 0)
            moved.append(marker)
        }
        try AtomicFile.write(Data(moved.map(Self.indexLine).joined()), to: indexPath, mode: 0o600)
    }

    // MARK: - Reading

    /// The records' index lines, oldest first, those past the age left out (a marker line kept
    /// only for its ID too).
    func index() -> [IndexEntry] {
        let descriptor = open(indexPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        let cutoff = cutoff
        return Self.entries(in: Self.read(descriptor)).filter { $0.at >= cutoff && $0.length > 0 }
    }

    /// The record `id`; `nil` when the archive never had it, or no longer does.
    func record(_ id: Int) -> ArchivedResponse? {
        guard let entry = index().first(where: { $0.id == id }) else { return nil }
        return records([entry]).first
    }

    /// The records the index entries name, in their order (any the files no longer hold left out);
    /// only those whose line `mayMatch` keeps are parsed (a search's cheap test on the bytes).
    func records(_ entries: [IndexEntry], where mayMatch: (Data) -> Bool = { _ in true }) -> [ArchivedResponse] {
        let descriptor = open(recordsPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        return entries.compactMap { entry in
            guard let line = Self.record(entry, in: descriptor), mayMatch(line) else { return nil }
            return ArchivedResponse(line: line.dropLast())
        }
    }

    /// The bytes of `entry`'s record, newline included; `nil` unless they start with its ID.
    private static func record(_ entry: IndexEntry, in descriptor: Int32) -> Data? {
        guard entry.length > 0, entry.offset >= 0 else { return nil }
        var data = Data(count: entry.length)
        let count = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, entry.length, off_t(entry.offset)) }
        guard count == entry.length, data.last == 10, data.starts(with: Data("{\"id\":\(entry.id),".utf8)) else {
            return nil
        }
        return data
    }

    // MARK: - The index's lines

    static func indexLine(_ entry: IndexEntry) -> Data {
        let json = JSON.object([
            .init(key: "id", value: .number(String(entry.id))), .init(key: "at", value: .number(String(entry.at))),
            .init(key: "session", value: .string(entry.session)),
            .init(key: "number", value: .number(String(entry.number))),
            .init(key: "listed", value: .string(entry.listed)),
            .init(key: "offset", value: .number(String(entry.offset))),
            .init(key: "length", value: .number(String(entry.length))),
        ])
        return Data(json.formatted(.compactText).utf8)
    }

    static func indexEntry(_ line: some Collection<UInt8>) -> IndexEntry? {
        guard let json = try? JSON(parsing: line) else { return nil }
        func int(_ key: String) -> Int? {
            if case .number(let text)? = json[key] { return Int(text) }
            return nil
        }
        guard let id = int("id"), case .number(let atText)? = json["at"], let at = Double(atText),
            case .string(let session)? = json["session"], let number = int("number"),
            case .string(let listed)? = json["listed"], let offset = int("offset"), let length = int("length")
        else { return nil }
        return IndexEntry(
            id: id, at: at, session: session, number: number, listed: listed, offset: offset, length: length)
    }

    /// Every well-formed line's entry, in file order (a torn or foreign line skipped).
    static func entries(in data: Data) -> [IndexEntry] {
        data.split(separator: 10).compactMap { indexEntry($0) }
    }

    /// The ID of the index's last well-formed line (a torn or foreign line after it skipped):
    /// read from the file's end, the whole file only when its last 4 KiB hold none.
    private static func lastID(in descriptor: Int32) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return 0 }
        let size = Int(status.st_size)
        let length = min(size, 4096)
        var data = Data(count: length)
        let count = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(size - length)) }
        if count == length, let id = data.split(separator: 10).reversed().lazy.compactMap(indexEntry).first?.id {
            return id
        }
        guard size > length else { return 0 }
        return entries(in: read(descriptor)).last?.id ?? 0
    }

    /// The whole file open at `descriptor`.
    private static func read(_ descriptor: Int32) -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, &buffer, buffer.count, offset)
            guard count > 0 else { break }
            result.append(contentsOf: buffer[..<count])
            offset += off_t(count)
        }
        return result
    }

    private static func error() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
