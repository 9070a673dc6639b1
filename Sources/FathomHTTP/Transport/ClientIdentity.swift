import NIOSSL

/// Who the client is to a server that asks for a certificate (mutual TLS): a certificate chain
/// and its private key, read from PEM files when a connection is made.
public struct ClientIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The PEM file of the certificate, and of the chain up to (not including) the root.
    public var certificateFile: String
    /// The PEM file of the certificate's private key; `nil` when it is in ``certificateFile``
    /// after the certificates.
    public var keyFile: String?
    /// What decrypts an encrypted private key; `nil` for a key in the clear.
    ///
    /// A secret: never part of ``description``.
    public var passphrase: String?

    /// An identity from its files, and the passphrase of an encrypted key.
    public init(certificateFile: String, keyFile: String? = nil, passphrase: String? = nil) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.passphrase = passphrase
    }

    /// The files, and whether a passphrase is given (not the passphrase).
    public var description: String {
        certificateFile + (keyFile.map { " --key \($0)" } ?? "") + (passphrase == nil ? "" : " (passphrase given)")
    }

    /// The private key, decrypted with ``passphrase`` when it is encrypted.
    ///
    /// - Throws: ``NetworkError/file(path:reason:)`` when the file holds no PEM key, or the
    ///   passphrase is missing or does not decrypt it.
    public func privateKey() throws(NetworkError) -> NIOSSLPrivateKey {
        let file = keyFile ?? certificateFile
        do {
            if let passphrase {
                return try NIOSSLPrivateKey(file: file, format: .pem) { (give: (String.UTF8View) -> Void) in
                    give(passphrase.utf8)
                }
            }
            return try NIOSSLPrivateKey(file: file, format: .pem)
        } catch {
            throw NetworkError.file(
                path: file,
                reason: passphrase == nil
                    ? "no unencrypted PEM private key in it"
                    : "the passphrase does not decrypt the PEM private key in it")
        }
    }
}
