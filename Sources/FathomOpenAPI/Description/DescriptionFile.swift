import Foundation

/// Reading a description's documents from disk, within a size.
public enum DescriptionFile {
    /// The most one document may hold: 64 MiB.
    ///
    /// As much as a description fetched over HTTP may hold (a response body's limit). The largest public descriptions are a few megabytes (Stripe's
    /// 4 MB, GitHub's 10 MB bundled); a document past this is no description, and reading it
    /// would only take the memory.
    public static let maxBytes = 64 << 20

    /// The bytes of the regular file at `path`.
    ///
    /// - Throws: ``DescriptionError`` saying why (the caller names the file) when it is missing, not a regular file (a FIFO or a device
    ///   would block or never end), unreadable, or larger than ``maxBytes``.
    public static func read(_ path: String) throws(DescriptionError) -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw DescriptionError(FileManager.default.fileExists(atPath: path) ? "not readable" : "no such file")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw DescriptionError("not a regular file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxBytes else {
            throw DescriptionError(
                "\(size) bytes, more than the \(maxBytes >> 20) MiB a description's document may hold")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw DescriptionError("not readable") }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
            guard data.count <= maxBytes else {
                throw DescriptionError("grew past \(maxBytes >> 20) MiB while it was read")
            }
            return data
        } catch let error as DescriptionError {
            throw error
        } catch {
            throw DescriptionError(error.localizedDescription)
        }
    }
}
