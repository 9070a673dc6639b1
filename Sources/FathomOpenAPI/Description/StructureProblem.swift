import Foundation

/// A structural problem as one line that names its place the way the document is written:
/// `paths./pets.get.responses: …`.
enum StructureProblem {
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
