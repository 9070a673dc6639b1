/// Where a gRPC server is and how to reach it: a host and port, over TLS (the default) or
/// plaintext HTTP/2 (h2c).
public struct GRPCTarget: Hashable, Sendable, CustomStringConvertible {
    /// The host name or IP address.
    public var host: String
    /// The port.
    public var port: Int
    /// Whether the connection is plaintext HTTP/2 rather than TLS.
    public var plaintext: Bool
    /// TLS: whether the server's certificate is taken unverified.
    public var insecure = false
    /// TLS: PEM files of the certificate authorities to trust instead of the system's.
    public var trustRoots: [String] = []
    /// TLS: a PEM file of the client certificate chain, for servers that ask for one.
    public var clientCertificate: String?
    /// TLS: a PEM file of the client certificate's private key.
    public var clientKey: String?
    /// TLS: the passphrase an encrypted ``clientKey`` is decrypted with (never shown: the target's
    /// description leaves it out).
    public var clientKeyPassphrase: String?

    /// A target at `host:port`.
    public init(host: String, port: Int, plaintext: Bool = false) {
        self.host = host
        self.port = port
        self.plaintext = plaintext
    }

    /// Reads `host:port`, `[v6]:port`, or a URL.
    ///
    /// `grpc://` and `http://` are plaintext, `grpcs://` and `https://` TLS (443 when the port is
    /// left out). A bare `host:port` is TLS unless
    /// `plaintext` says otherwise.
    public init(parsing text: String, plaintext: Bool = false) throws(GRPCError) {
        var rest = Substring(text)
        var secure = !plaintext
        var defaultPort: Int?
        for (scheme, isSecure) in [("grpcs://", true), ("https://", true), ("grpc://", false), ("http://", false)]
        where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
            secure = isSecure && !plaintext
            defaultPort = isSecure ? 443 : 80
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                throw GRPCError("\(text): a gRPC target is a host and port, not a path")
            }
            rest = rest[..<slash]
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw GRPCError("\(text): an IPv6 address without its ]")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw GRPCError("\(text): expected :PORT after the address")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw GRPCError("\(text): no host") }
        let port: Int
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw GRPCError("\(text): \(portText) is not a port (1–65535)")
            }
            port = number
        } else if let defaultPort {
            port = defaultPort
        } else {
            throw GRPCError("\(text): a gRPC target needs its port (HOST:PORT)")
        }
        self.init(host: String(host), port: port, plaintext: !secure)
    }

    /// `host:port`, an IPv6 address in brackets.
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The target as a URL: `grpc://host:port` (plaintext) or `grpcs://host:port`.
    public var description: String { (plaintext ? "grpc://" : "grpcs://") + authority }
}
