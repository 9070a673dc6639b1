import Crypto
import Foundation

/// Proof Key for Code Exchange ([RFC 7636](https://www.rfc-editor.org/rfc/rfc7636)): a secret
/// verifier kept by the client and its SHA-256 challenge sent with the authorization request, so a
/// stolen authorization code is worth nothing without the verifier.
public struct PKCE: Sendable, Equatable {
    /// The secret the token request carries (`code_verifier`): 43 characters of base64url.
    public let verifier: String
    /// `BASE64URL(SHA256(verifier))`, sent as `code_challenge`.
    public let challenge: String
    /// Always `S256`: the plain method gives no protection.
    public var method: String { "S256" }

    /// A pair around `verifier` (43 to 128 unreserved characters).
    public init(verifier: String) {
        self.verifier = verifier
        challenge = Self.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// A fresh pair from 32 random bytes.
    public static func random() -> PKCE {
        var generator = SystemRandomNumberGenerator()
        return PKCE(verifier: base64URL(Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })))
    }

    /// A random value for `state`: 16 bytes, base64url.
    static func randomState() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL(Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// Base64 with the URL alphabet and no padding.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
