import Foundation

/// What `stat(2)` says of a path, symbolic links followed.
///
/// Foundation's `FileManager.attributesOfItem` answers with a dictionary of `Any` (and needs the
/// links resolved first), which cost more than the call itself on the way to the first prompt,
/// where the config and the `.env` are each measured before they are read.
struct FileStatus: Equatable {
    enum Kind {
        case regular, directory
        /// A device, a FIFO or a socket.
        case other
    }

    let kind: Kind
    /// In bytes.
    let size: Int
}

extension FileStatus {
    /// The status of the file at `path`, or `nil` when there is none (or it cannot be reached).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int(info.st_size)
    }
}
