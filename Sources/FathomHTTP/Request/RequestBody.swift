import Foundation

/// What a request carries as its body.
///
/// Build one through ``NetworkRequest``'s `body` builders.
public enum RequestBody: Hashable, Sendable {
    /// Bytes with an optional media type.
    case data(Data, contentType: String?)
    /// JSON text (already encoded), sent as `application/json`.
    case json(Data)
    /// Fields sent as `application/x-www-form-urlencoded`.
    case form([QueryItem])
    /// Fields and files sent as `multipart/form-data`.
    case multipart(MultipartForm)
    /// A file streamed from disk when the request is sent.
    case file(path: String, contentType: String?)
    /// Bytes and files one after another, streamed when the request is sent: what curl sends
    /// for `-d a=1 -d @file` (files with their line breaks left out).
    case sequence([BodySource], contentType: String?)
}

/// A part of a ``RequestBody/sequence(_:contentType:)`` body.
public enum BodySource: Hashable, Sendable {
    /// Bytes in memory.
    case bytes(Data)
    /// A file's bytes, read as they are sent; with `dropsLineBreaks`, without its CR and LF bytes
    /// (curl's `-d @file`).
    case file(path: String, dropsLineBreaks: Bool = false)
}

/// A body ready for the wire: bytes in memory, a file to stream, or pieces of both.
public enum PreparedBody: Hashable, Sendable {
    /// Bytes in memory.
    case bytes(Data)
    /// A file streamed from disk, `length` bytes long.
    case file(path: String, length: Int)
    /// Bytes and files streamed one after another (a multipart form with files, curl's
    /// `-d a=1 -d @file`); `length` is the total.
    case pieces([BodyPiece], length: Int)

    /// The length in bytes.
    public var length: Int {
        switch self {
        case .bytes(let data): data.count
        case .file(_, let length): length
        case .pieces(_, let length): length
        }
    }

    /// The body in memory, files read whole.
    ///
    /// For what needs every byte at once (a test); the transport streams instead, and a signature
    /// digests it chunk by chunk.
    public func data() throws(NetworkError) -> Data {
        switch self {
        case .bytes(let data): return data
        case .file(let path, _): return try FileBody.readAll(path)
        case .pieces(let pieces, _):
            var data = Data()
            for piece in pieces {
                switch piece {
                case .bytes(let bytes): data.append(bytes)
                case .file(let path, _, let dropsLineBreaks):
                    let contents = try FileBody.readAll(path)
                    data.append(dropsLineBreaks ? Data(contents.filter { $0 != 0x0A && $0 != 0x0D }) : contents)
                }
            }
            return data
        }
    }

    /// Calls `body` with each chunk of at most 64 KiB, in order, reading files as it goes: a
    /// digest of any size in flat memory.
    ///
    /// - Throws: ``NetworkError/file(path:reason:)`` when a file cannot be read.
    @_spi(Fathom) public func forEachChunk(_ body: (Data) -> Void) throws(NetworkError) {
        for piece in chunks.pieces {
            switch piece {
            case .bytes(let data): body(data)
            case .file(let path, _, let dropsLineBreaks):
                guard let handle = FileHandle(forReadingAtPath: path) else {
                    throw .file(path: path, reason: "cannot open")
                }
                defer { try? handle.close() }
                while let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
                    body(dropsLineBreaks ? Data(chunk.filter { $0 != 0x0A && $0 != 0x0D }) : chunk)
                }
            }
        }
    }

    /// The body as chunks of at most 64 KiB, read as they are asked for: memory stays flat
    /// whatever the size of its files.
    @_spi(Fathom) public var chunks: FileBody.Pieces {
        switch self {
        case .bytes(let data): FileBody.Pieces(pieces: [.bytes(data)])
        case .file(let path, let length):
            FileBody.Pieces(pieces: [.file(path: path, length: length, dropsLineBreaks: false)])
        case .pieces(let pieces, _): FileBody.Pieces(pieces: pieces)
        }
    }
}

/// A piece of a ``PreparedBody/pieces(_:length:)`` body, its length known.
public enum BodyPiece: Hashable, Sendable {
    /// Bytes in memory.
    case bytes(Data)
    /// A file's bytes (without CR and LF when `dropsLineBreaks`), `length` bytes as sent.
    case file(path: String, length: Int, dropsLineBreaks: Bool)
}

/// Reading request bodies from disk.
@_spi(Fathom) public enum FileBody {
    /// Whether requests are prepared only to be shown (`show request`).
    ///
    /// A file whose line breaks are dropped (curl's `-d @FILE`) then counts as its size, so a
    /// preview never reads a file whole. A request prepared so is never sent: its length may be
    /// more than the bytes that would go.
    @TaskLocal public static var sizesOnly = false

    static func readAll(_ path: String) throws(NetworkError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .file(path: path, reason: reason(for: path))
        }
    }

    /// The length of the file at `path` as sent: its size, or, with `dropsLineBreaks`, the bytes
    /// that are not CR or LF (counted by reading it once, in chunks).
    static func length(_ path: String, dropsLineBreaks: Bool) throws(NetworkError) -> Int {
        let size = try length(path)
        guard dropsLineBreaks, !sizesOnly else { return size }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .file(path: path, reason: "permission denied")
        }
        defer { try? handle.close() }
        var count = 0
        while let chunk = try? handle.read(upToCount: 4 << 20), !chunk.isEmpty {
            count += chunk.count - chunk.withUnsafeBytes { lineBreaks(in: $0) }
        }
        return count
    }

    /// How many CR and LF bytes `bytes` holds: found with `memchr`, which skips the bytes between
    /// them many at a time (a 2 GiB file is counted at the speed it is read, not a byte a loop).
    static func lineBreaks(in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var found = 0
        for byte in [Int32(0x0A), Int32(0x0D)] {
            var offset = 0
            while offset < bytes.count, let hit = memchr(base + offset, byte, bytes.count - offset) {
                found += 1
                offset = UnsafeRawPointer(hit) - base + 1
            }
        }
        return found
    }

    static func length(_ path: String) throws(NetworkError) -> Int {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .file(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .file(path: path, reason: "is a directory") }
        // The file a symbolic link names: its size and type, not the link's.
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard FileManager.default.isReadableFile(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
            let size = attributes[.size] as? NSNumber
        else {
            throw .file(path: path, reason: "permission denied")
        }
        // A device or a FIFO has no length to send and may never end (`-d @/dev/zero`): a body
        // is a regular file.
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            throw .file(path: path, reason: "not a regular file (a device, a FIFO or a socket)")
        }
        return size.intValue
    }

    private static func reason(for path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "is a directory" }
        return "permission denied"
    }

    /// A body's pieces as chunks of at most 64 KiB, files read as the transport asks for them.
    public struct Pieces: AsyncSequence, Sendable {
        /// A chunk of the body.
        public typealias Element = Data
        let pieces: [BodyPiece]

        /// Reads the pieces in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var pieces: ArraySlice<BodyPiece>
            var handle: FileHandle?
            var dropsLineBreaks = false

            /// The next chunk, or `nil` after the last piece.
            public mutating func next() async throws -> Data? {
                while true {
                    try Task.checkCancellation()
                    if let handle {
                        let data = try handle.read(upToCount: 64 * 1024) ?? Data()
                        if !data.isEmpty {
                            guard dropsLineBreaks else { return data }
                            let kept = Data(data.filter { $0 != 0x0A && $0 != 0x0D })
                            if !kept.isEmpty { return kept }
                            continue
                        }
                        try? handle.close()
                        self.handle = nil
                    }
                    guard let piece = pieces.popFirst() else { return nil }
                    switch piece {
                    case .bytes(let data):
                        if !data.isEmpty { return data }
                    case .file(let path, _, let drops):
                        guard let opened = FileHandle(forReadingAtPath: path) else {
                            throw NetworkError.file(path: path, reason: "cannot open")
                        }
                        handle = opened
                        dropsLineBreaks = drops
                    }
                }
            }
        }

        /// An iterator from the first piece.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(pieces: pieces[...])
        }
    }
}
