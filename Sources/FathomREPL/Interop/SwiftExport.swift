import FathomHTTP
import Foundation

/// Requests as a Swift program on FathomHTTP — the `NetworkRequest` builder chain and the
/// `NetworkClient` call that send each one — with secrets read from `FATHOM_SECRET_<NAME>` in the
/// environment, never written.
struct SwiftExport {
    let secrets: ExportSecrets

    func program(for requests: [PreparedRequest]) -> String {
        var lines = [
            "import FathomHTTP",
            "import Foundation",
            "",
            "/// A secret from the environment, as Fathom names it: `FATHOM_SECRET_<NAME>`.",
            "func secret(_ name: String) -> String { ProcessInfo.processInfo.environment[\"FATHOM_SECRET_\\(name)\"] ?? \"\" }",
            "",
            "let client = NetworkClient()",
        ]
        for (index, request) in requests.enumerated() {
            let name = requests.count == 1 ? "request" : "request\(index + 1)"
            lines.append("")
            lines.append(
                "let \(name) = NetworkRequest(\(literal(request.url.description)), method: HTTPMethod(rawValue: \(literal(request.method.rawValue))))"
            )
            for field in request.headers {
                lines.append(
                    "    .header(NetworkHeaders.Name(\(literal(field.name.rawName))), \(literal(field.value)))")
            }
            var body = request.body
            if case .pieces(_, let length)? = body {
                if let bytes = try? body!.exportedBytes() {
                    body = .bytes(bytes)
                } else {
                    lines.append("    // the body: \(length) bytes streamed from files, not written here")
                    body = nil
                }
            }
            switch body {
            case .bytes(let data)?:
                if let text = String(data: data, encoding: .utf8) {
                    lines.append("    .body(Data(\(literal(text)).utf8))")
                } else {
                    lines.append("    .body(Data(base64Encoded: \(literal(data.base64EncodedString())))!)")
                }
            case .file(let path, _)?:
                lines.append("    .body(file: \(literal(path)))")
            case nil, .pieces?:
                break
            }
            let response = requests.count == 1 ? "response" : "response\(index + 1)"
            lines.append("let \(response) = try await client.send(\(name))")
            lines.append("print(\(response).status)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A Swift string literal; a secret inside it is `\(secret("NAME"))`.
    func literal(_ text: String) -> String {
        var result = ""
        for piece in secrets.pieces(text) {
            switch piece {
            case .secret(let variable):
                result += "\\(secret(\"\(variable.dropFirst("FATHOM_SECRET_".count))\"))"
            case .text(let plain):
                for character in plain { result += Self.escaped(character) }
            }
        }
        return "\"\(result)\""
    }

    /// A character as it stands inside a Swift string literal.
    private static func escaped(_ character: Character) -> String {
        switch character {
        case "\\": return "\\\\"
        case "\"": return "\\\""
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1, scalar.value < 0x20 {
                return "\\u{\(String(scalar.value, radix: 16))}"
            }
            return String(character)
        }
    }
}
