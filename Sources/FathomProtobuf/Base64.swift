import Foundation

/// Base64 as proto3 JSON writes bytes (standard alphabet, padded) and reads them (either alphabet,
/// padding optional) — and as gRPC writes `-bin` metadata, which FathomGRPC reads with it.
@_spi(Fathom) public enum Base64 {
    /// `bytes` in the standard alphabet, padded.
    public static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// The bytes `text` encodes, in either alphabet, padded or not; nil when it is not base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var normalized = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while normalized.utf8.count % 4 != 0 { normalized += "=" }
        return Data(base64Encoded: normalized).map { Array($0) }
    }
}
