import Foundation

/// A structural problem as one line that names its place the way the document is written:
/// `paths./pets.get.responses: …`.
enum StructureProblem {
    /// Decodes `json` as `Document` with vendor extensions off (five sixths of OpenAPIKit's time;
    /// Fathom reads the few it wants from its own tree): `nil`, or the first problem as one line.
    static func decoding<Document: Decodable>(
        _ type: Document.Type, from json: Data, vendorExtensions key: CodingUserInfoKey,
        describe: (any Error) -> (path: [any CodingKey], message: String)
    ) -> String? {
        let decoder = JSONDecoder()
        decoder.userInfo = [key: false]
        do {
            _ = try decoder.decode(type, from: json)
            return nil
        } catch {
            let (path, message) = describe(error)
            return line(path: path, message: message)
        }
    }

    static func line(path: [any CodingKey], message: String) -> String {
        let place = path.map { key in key.intValue.map(String.init) ?? key.stringValue }.joined(separator: ".")
        // OpenAPIKit's sentences end with a period and name the place again; the place leads here.
        // The innermost cause is the last line of OpenAPIKit's explanation.
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        var text = (lines.last ?? message).replacingOccurrences(of: "**", with: "")
        text = text.trimmingCharacters(in: .whitespaces)
        while let last = text.unicodeScalars.last, last == "." || last.properties.isWhitespace || last.value < 0x20 {
            text.unicodeScalars.removeLast()
        }
        return place.isEmpty ? text : "\(place): \(text)"
    }
}
