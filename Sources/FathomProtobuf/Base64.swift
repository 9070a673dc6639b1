import Foundation

/// Base64 as proto3 JSON writes bytes (standard alphabet, padded) and reads them (either alphabet,
/// padding optional).
enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    static func decode(_ text: String) -> [UInt8]? {
        var normalized = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while normalized.utf8.count % 4 != 0 { normalized += "=" }
        return Data(base64Encoded: normalized).map { Array($0) }
    }
}
