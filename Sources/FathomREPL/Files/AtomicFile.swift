import Foundation

/// Writes a file so that readers see the old or the new contents, never a mix: a temporary file
/// beside it (created with `mode`), `fsync`, then `rename`.
enum AtomicFile {
    /// A test seam: with `FATHOM_TEST_STOP_BEFORE_RENAME=1` the process stops itself (SIGSTOP) after
    /// the new contents are on disk and before the rename, so a test can kill it at the worst moment.
    static let stopsBeforeRename = ProcessInfo.processInfo.environment["FATHOM_TEST_STOP_BEFORE_RENAME"] == "1"

    static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
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
