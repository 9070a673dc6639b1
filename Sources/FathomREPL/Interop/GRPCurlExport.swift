import FathomGRPC
@_spi(Fathom) import FathomHTTP
@_spi(Fathom) import FathomJSON
import Foundation

/// A gRPC call as a grpcurl command line that bash runs to make the identical call: the same
/// server (`-plaintext` for h2c), metadata (`-H`, credentials included), request message(s) (`-d`,
/// a client stream's messages one after another, as grpcurl reads them) and method. A secret is
/// never written: it becomes `${FATHOM_SECRET_<NAME>}` inside double quotes.
struct GRPCurlExport {
    let secrets: ExportSecrets

    /// The command for the call behind `entry`.
    func command(for entry: ResponseHistory.Entry, insecure: Bool) throws(CommandError) -> String {
        guard let call = entry.grpc else {
            throw CommandError(
                .session, "#\(entry.number) is not a gRPC call",
                hint: "`export curl #\(entry.number)` exports a request")
        }
        let request = entry.response.request
        var parts = ["grpcurl"]
        if request.url.scheme == "http" { parts.append("-plaintext") } else if insecure { parts.append("-insecure") }
        if let identity = request.clientIdentity {
            parts += [
                "-cert", word(identity.certificateFile), "-key", word(identity.keyFile ?? identity.certificateFile),
            ]
        }
        if let roots = request.trustRootsFile { parts += ["-cacert", word(roots)] }
        for entry in GRPCMetadata(requestHeaders: request.headers).entries {
            guard case .text(let value) = entry.value else { continue }
            parts += ["-H", word("\(entry.name): \(value)")]
        }
        if case .bytes(let data)? = request.body, let json = try? JSON(parsing: data) {
            // A client stream's array as its messages one after another, as grpcurl reads `-d`.
            let messages: [JSON] =
                if case .array(let list) = json, call.kind.hasPrefix("client") || call.kind.hasPrefix("bidi") {
                    list
                } else {
                    [json]
                }
            let text = messages.map { $0.formatted(.compactText).trimmingCharacters(in: .newlines) }
                .joined(separator: " ")
            parts += ["-d", word(text)]
        }
        parts.append(word(request.url.authority))
        parts.append(word(call.method))
        return joined(parts)
    }

    /// A shell word, with `${FATHOM_SECRET_…}` where secrets were.
    private func word(_ text: String) -> String { Quoting.word(text, shell: true, secrets: secrets) }

    /// One option (with its value) a line, `\` between.
    private func joined(_ parts: [String]) -> String {
        var lines: [String] = []
        var line = parts[0]
        var index = 1
        while index < parts.count {
            let option = parts[index]
            if option.hasPrefix("-"), index + 1 < parts.count, !["-plaintext", "-insecure"].contains(option) {
                lines.append(line)
                line = "  \(option) \(parts[index + 1])"
                index += 2
            } else if option.hasPrefix("-") {
                lines.append(line)
                line = "  " + option
                index += 1
            } else {
                line += " " + option
                index += 1
            }
        }
        lines.append(line)
        return lines.joined(separator: " \\\n") + "\n"
    }
}
