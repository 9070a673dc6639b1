@_spi(Fathom) import FathomHTTP
import Foundation

/// The files Fathom reads whole — a `.env`, a batch's CSV rows, a mock's answer, a recording, a
/// session file, a WebSocket message — each with a bound: a file over it (or a device, a FIFO)
/// is one line naming the file and the bound, never a process that runs out of memory or waits
/// forever. Bodies are not read here: they stream from disk as they are sent.
enum BoundedFile {
    /// A `.env` file.
    static let dotEnv = 1 << 20
    /// A batch's rows (`--data rows.csv`).
    static let rows = 64 << 20
    /// A mock's answer (`mock PATH @FILE`), held in memory to answer every match.
    static let mock = 64 << 20
    /// A recording beside a session file.
    static let recording = 256 << 20
    /// A session file (`load`, `replay`).
    static let session = 64 << 20
    /// A GraphQL schema (`graphql --schema FILE`): GitHub's public one is 1.5 MB of SDL.
    static let schema = 64 << 20

    /// Why `path` cannot be read whole within `limit` — not a regular file, or too large — or
    /// `nil` when it can (or does not exist: the reader says so in its own words).
    static func problem(_ path: String, limit: Int, what: String) -> String? {
        FileStatus(path: path).flatMap { problem(path, status: $0, limit: limit, what: what) }
    }

    /// Why the file at `path`, whose status is `status`, cannot be read whole within `limit`.
    static func problem(_ path: String, status: FileStatus, limit: Int, what: String) -> String? {
        if status.kind != .regular {
            return "'\(path)' is not a regular file (a device, a FIFO or a socket): \(what) is read from a file"
        }
        guard status.size <= limit else {
            return "'\(path)' is \(ByteCount.format(status.size)): \(what) may be at most \(ByteCount.format(limit))"
        }
        return nil
    }

    /// The file's bytes.
    ///
    /// - Throws: ``CommandError`` naming the file and the bound, or saying it cannot be read.
    static func read(_ path: String, limit: Int, what: String) throws(CommandError) -> Data {
        if let problem = problem(path, limit: limit, what: what) { throw CommandError(.file, problem) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandError(.file, .cannotRead(path: path, reason: nil))
        }
        defer { try? handle.close() }
        // A byte past the bound: a file that grew since it was measured is still refused.
        guard let data = try? handle.read(upToCount: limit + 1) else { return Data() }
        guard data.count <= limit else {
            throw CommandError(
                .file, "'\(path)' is larger than \(ByteCount.format(limit)): \(what) may be at most that")
        }
        return data
    }
}
