import FathomHTTP
import Foundation
import Synchronization

/// The lines entered, kept in memory and (for interactive sessions) in a file that survives
/// restarts: `$XDG_STATE_HOME/fathom/history`, mode 0600, secrets already masked by the caller.
///
/// The file holds one entry per line; a multi-line entry has its newlines written as `\n` and
/// backslashes as `\\`. Each entry is appended (one `write`, no rewrite, no `fsync`: a long
/// session costs the same per line as a short one); when the file holds twice ``limit`` lines it
/// is compacted to the last ``limit`` through a temporary file and a rename, so an interrupted
/// compaction never leaves it half-written.
public final class HistoryStore: Sendable {
    public static let defaultLimit = 1000

    private let entries: Mutex<[String]>
    /// Lines in the file now (entries kept in memory are at most ``limit`` of them).
    private let fileLines: Mutex<Int>
    let path: String?
    private let limit: Int

    /// - Parameters:
    ///   - path: The file to load from and save to; `nil` keeps history in memory only.
    ///   - limit: The most entries kept.
    public init(path: String?, limit: Int = HistoryStore.defaultLimit) {
        self.path = path
        self.limit = limit
        var loaded: [String] = []
        if let path, let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        {
            loaded = text.split(separator: "\n").map { Self.unescape(String($0)) }
        }
        entries = Mutex(Array(loaded.suffix(limit)))
        fileLines = Mutex(loaded.count)
    }

    /// `$XDG_STATE_HOME/fathom/history`, or `~/.local/state/fathom/history`.
    public static func defaultPath(environment: [String: String] = ProcessEnvironment.current) -> String {
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/fathom/history"
    }

    public var all: [String] { entries.withLock { $0 } }

    /// Adds an entry (skipping a repeat of the last one) and appends it to the file.
    func add(_ entry: String) {
        let snapshot: [String]? = entries.withLock { entries in
            guard entries.last != entry else { return nil }
            entries.append(entry)
            if entries.count > limit { entries.removeFirst(entries.count - limit) }
            return entries
        }
        guard let snapshot, let path else { return }
        let compact = fileLines.withLock { lines in
            lines += 1
            guard lines > 2 * limit else { return false }
            lines = snapshot.count
            return true
        }
        if compact {
            rewrite(snapshot, at: path)
        } else {
            append(entry, at: path)
        }
    }

    private func append(_ entry: String, at path: String) {
        var descriptor = open(path, O_WRONLY | O_APPEND, 0o600)
        if descriptor < 0 {
            createDirectory(for: path)
            descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        }
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        StandardStreams.write(Self.escape(entry) + "\n", to: descriptor)
    }

    private func rewrite(_ entries: [String], at path: String) {
        createDirectory(for: path)
        let text = entries.map(Self.escape).joined(separator: "\n") + "\n"
        try? AtomicFile.write(Data(text.utf8), to: path, mode: 0o600)
    }

    private func createDirectory(for path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    static func escape(_ entry: String) -> String {
        entry.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func unescape(_ line: String) -> String {
        var result = ""
        var escaping = false
        for character in line {
            if escaping {
                result.append(character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
