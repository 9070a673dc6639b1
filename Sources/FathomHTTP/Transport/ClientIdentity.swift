/// Who the client is to a server that asks for a certificate (mutual TLS): a certificate chain
/// and its private key, read from PEM files when a connection is made.
public struct ClientIdentity: Hashable, Sendable {
    /// The PEM file of the certificate, and of the chain up to (not including) the root.
    public var certificateFile: String
    /// The PEM file of the certificate's private key, unencrypted; `nil` when it is in
    /// ``certificateFile`` after the certificates.
    public var keyFile: String?

    /// An identity from its files.
    public init(certificateFile: String, keyFile: String? = nil) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
