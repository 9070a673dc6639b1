@_spi(Fathom) import FathomHTTP
import Foundation

extension PreparedBody {
    /// The most bytes an export writes out in its text: past it, a body streamed from files is
    /// named, never read into memory.
    static let exportLimit = 1 << 20

    /// The bytes of a body made of text and files (a multipart form with a file, curl's
    /// `-d a=1 -d @file`), for an export that writes them out.
    ///
    /// - Throws: ``CommandError`` when the body is larger than ``exportLimit``.
    func exportedBytes() throws(CommandError) -> Data {
        guard length <= Self.exportLimit else {
            throw CommandError(
                .session, "the body streams \(ByteCount.format(length)) from files, too much to write into an export",
                hint: "send it with Fathom, or write the form by hand with `-F name=@FILE`")
        }
        do {
            return try data()
        } catch {
            throw CommandError(.session, "cannot read the body's files for the export: \(error)")
        }
    }
}
