import FathomHTTP
import Foundation

/// Writes a file so that readers see the old or the new contents, never a mix: a temporary file
/// beside it (created with `mode`), `fsync`, then `rename`.
enum AtomicFile {
    /// A test seam: with `FATHOM_TEST_STOP_BEFORE_RENAME=1` the process stops itself (SIGSTOP) after
    /// the new contents are on disk and before the rename, so a test can kill it at the worst moment.
    static let stopsBeforeRename = ProcessEnvironment.current["FATHOM_TEST_STOP_BEFORE_RENAME"] == "1"

    static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
        try write(to: path, mode: mode) { emit in
            _ = data.withUnsafeBytes { emit($0) }
        }
    }

    /// Writes what `produce` hands to `emit`, block by block, so that a large output never sits
    /// in memory whole. A failed write stops the rest: `emit` returns `false` from then on.
    ///
    /// - Throws: `POSIXError` when the file cannot be written; the old file is then as it was.
    static func write(
        to path: String, mode: mode_t = 0o644, _ produce: (_ emit: (UnsafeRawBufferPointer) -> Bool) throws -> Void
    ) throws {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        do {
            try produce { block in
                guard failure == 0 else { return false }
                if let code = StandardStreams.write(block, to: descriptor) { failure = code }
                return failure == 0
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
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
