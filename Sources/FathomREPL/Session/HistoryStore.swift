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
    public let path: String?
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
    public func add(_ entry: String) {
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

/// Writes a file so that readers see the old or the new contents, never a mix: a temporary file
/// beside it (created with `mode`), `fsync`, then `rename`.
public enum AtomicFile {
    /// A test seam: with `FATHOM_TEST_STOP_BEFORE_RENAME=1` the process stops itself (SIGSTOP) after
    /// the new contents are on disk and before the rename, so a test can kill it at the worst moment.
    static let stopsBeforeRename = ProcessInfo.processInfo.environment["FATHOM_TEST_STOP_BEFORE_RENAME"] == "1"

    public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, stopsBeforeRename { raise(SIGSTOP) }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
        // A file that existed with a wider mode keeps the one asked for.
        chmod(path, mode)
    }
}
