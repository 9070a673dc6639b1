import Foundation
import Synchronization

/// The lines entered, kept in memory and (for interactive sessions) in a file that survives
/// restarts: `$XDG_STATE_HOME/fathom/history`, mode 0600, secrets already masked by the caller.
///
/// The file holds one entry per line; a multi-line entry has its newlines written as `\n` and
/// backslashes as `\\`. It is rewritten whole through a temporary file and a rename, so an
/// interrupted write never leaves it half-written.
public final class HistoryStore: Sendable {
    public static let defaultLimit = 1000

    private let entries: Mutex<[String]>
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
    }

    /// `$XDG_STATE_HOME/fathom/history`, or `~/.local/state/fathom/history`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/fathom/history"
    }

    public var all: [String] { entries.withLock { $0 } }

    /// Adds an entry (skipping a repeat of the last one) and saves the file.
    func add(_ entry: String) {
        let snapshot: [String]? = entries.withLock { entries in
            guard entries.last != entry else { return nil }
            entries.append(entry)
            if entries.count > limit { entries.removeFirst(entries.count - limit) }
            return entries
        }
        if let snapshot { save(snapshot) }
    }

    private func save(_ entries: [String]) {
        guard let path else { return }
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let text = entries.map(Self.escape).joined(separator: "\n") + "\n"
        try? AtomicFile.write(Data(text.utf8), to: path, mode: 0o600)
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
