import CZlib
import Foundation

/// gzip compression ([RFC 1952](https://www.rfc-editor.org/rfc/rfc1952)) through the system zlib.
public enum Gzip {
    /// `data` compressed as one gzip member.
    ///
    /// - Parameter level: 1 (fastest) to 9 (smallest); 6 by default.
    public static func compress(_ data: Data, level: Int32 = 6) -> Data {
        let capacity = Int(fathom_gzip_bound(UInt(data.count)))
        var output = Data(count: capacity)
        let produced = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                fathom_gzip(
                    input.bindMemory(to: UInt8.self).baseAddress, UInt(data.count),
                    out.bindMemory(to: UInt8.self).baseAddress, UInt(capacity), level)
            }
        }
        precondition(produced >= 0, "zlib failed to compress into a buffer of its own bound")
        output.count = produced
        return output
    }
}
