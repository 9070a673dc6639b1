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
}

/// A body ready for the wire: bytes in memory, or a file to stream.
public enum PreparedBody: Hashable, Sendable {
    case bytes(Data)
    case file(path: String, length: Int)

    /// The length in bytes.
    public var length: Int {
        switch self {
        case .bytes(let data): data.count
        case .file(_, let length): length
        }
    }

    /// The body in memory; a file body is read whole.
    public func data() throws(NetworkError) -> Data {
        switch self {
        case .bytes(let data): data
        case .file(let path, _): try FileBody.readAll(path)
        }
    }
}

/// Reading request bodies from disk.
enum FileBody {
    static func readAll(_ path: String) throws(NetworkError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .file(path: path, reason: reason(for: path))
        }
    }

    static func length(_ path: String) throws(NetworkError) -> Int {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .file(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .file(path: path, reason: "is a directory") }
        guard FileManager.default.isReadableFile(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? NSNumber
        else {
            throw .file(path: path, reason: "permission denied")
        }
        return size.intValue
    }

    private static func reason(for path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "is a directory" }
        return "permission denied"
    }

    /// The file's bytes in chunks, read as the transport asks for them.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let path: String
        var chunkSize = 64 * 1024

        struct AsyncIterator: AsyncIteratorProtocol {
            let path: String
            let chunkSize: Int
            var handle: FileHandle?
            var finished = false

            mutating func next() async throws -> Data? {
                if finished { return nil }
                if handle == nil {
                    guard let opened = FileHandle(forReadingAtPath: path) else {
                        throw NetworkError.file(path: path, reason: "cannot open")
                    }
                    handle = opened
                }
                try Task.checkCancellation()
                let data = try handle?.read(upToCount: chunkSize) ?? Data()
                if data.isEmpty {
                    finished = true
                    try? handle?.close()
                    return nil
                }
                return data
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(path: path, chunkSize: chunkSize)
        }
    }
}
