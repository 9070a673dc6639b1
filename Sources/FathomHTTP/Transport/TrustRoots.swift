import Foundation

/// Where a request's extra trust roots come from: a PEM file of CA certificates (curl's
/// `--cacert`), or a folder of them (curl's `--capath`) — every file in it that holds a PEM
/// certificate, whatever its name (`ca.pem`, `ca.crt`, OpenSSL's hashed `5ed36f99.0`); other
/// files (CRLs, keys, a README) are passed over.
@_spi(Fathom) public enum TrustRoots {
    /// The most files a folder is read for: a CA folder holds a few, a system store a few hundred.
    public static let folderLimit = 4096

    /// Whether `path` names a folder.
    public static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The PEM files the trust roots at `path` are: the file itself, or the folder's files that
    /// hold a certificate, in name order.
    ///
    /// - Throws: ``NetworkError/file(path:reason:)`` when the file cannot be read, or the folder
    ///   holds no certificate.
    public static func files(at path: String) throws(NetworkError) -> [String] {
        guard isFolder(path) else {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw NetworkError.file(path: path, reason: "CA file not readable")
            }
            return [path]
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            throw NetworkError.file(path: path, reason: "CA folder not readable")
        }
        let files = names.sorted().prefix(folderLimit).map { path + "/" + $0 }.filter { file in
            !isFolder(file) && holdsCertificate(file)
        }
        guard !files.isEmpty else { throw NetworkError.file(path: path, reason: "no PEM certificate in the CA folder") }
        return files
    }

    /// Whether the file's first 64 KiB hold a PEM certificate's first line.
    private static func holdsCertificate(_ file: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: file) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1 << 16)) ?? Data()
        return head.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil
    }
}
