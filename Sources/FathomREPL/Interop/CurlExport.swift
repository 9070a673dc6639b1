@_spi(Fathom) import FathomHTTP
import Foundation

/// A request as a curl command line that bash runs to send the identical request: the same
/// method, URL, headers and body bytes (`--compressed` when it asks for a compressed response,
/// so curl decodes it as Fathom does). A secret is never written: it becomes
/// `${FATHOM_SECRET_<NAME>}` inside double quotes, so the line runs where that variable is set.
struct CurlExport {
    let secrets: ExportSecrets

    /// The command, one option a line with `\` continuations.
    func command(for request: PreparedRequest) throws(CommandError) -> String {
        var parts: [String] = ["curl"]
        // With a body, curl's default is POST: a GET or HEAD that carries one names its method.
        switch request.method {
        case .get where request.body == nil: break
        case .head where request.body == nil: parts.append("--head")
        default: parts += ["-X", word(request.method.rawValue)]
        }
        if let socket = request.url.socketPath {
            // curl names the socket apart and the URL as HTTP, with the Host Fathom sends.
            var url = request.url
            url.scheme = url.scheme == "https+unix" ? "https" : "http"
            url.host = "localhost"
            parts += ["--unix-socket", word(socket), word(url.description)]
        } else {
            parts.append(word(request.url.description))
        }
        if let identity = request.clientIdentity {
            parts += ["--cert", word(identity.certificateFile)]
            if let key = identity.keyFile { parts += ["--key", word(key)] }
            // The passphrase by name only, whatever the session knows it as.
            if identity.passphrase != nil {
                parts += ["--pass", "\"${\(DotEnv.secretKey(for: CertCommand.passphraseSecret))}\""]
            }
        }
        if let roots = request.trustRootsFile {
            parts += [TrustRoots.isFolder(roots) ? "--capath" : "--cacert", word(roots)]
        }
        var names = Set<String>()
        if request.headers[.acceptEncoding].map(Self.isCompressed) ?? false { parts.append("--compressed") }
        for field in request.headers {
            names.insert(field.name.canonicalName)
            if field.name == .authorization, let user = basicUser(field.value) {
                parts += ["-u", user]
                continue
            }
            // `Name;` is how curl sends a header with an empty value (`Name:` would remove it).
            parts += [
                "-H", word(field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)"),
            ]
        }
        // Headers curl would add by itself, removed: the request stays the one Fathom sends.
        if !names.contains(NetworkHeaders.Name.accept.canonicalName) { parts += ["-H", word("Accept:")] }
        if !names.contains(NetworkHeaders.Name.userAgent.canonicalName) { parts += ["-H", word("User-Agent:")] }
        var body = request.body
        if case .pieces? = body { body = .bytes(try body!.exportedBytes()) }
        switch body {
        case nil, .pieces?: break
        case .bytes(let data)?:
            if !names.contains(NetworkHeaders.Name.contentType.canonicalName) {
                parts += ["-H", word("Content-Type:")]
            }
            guard !data.contains(0) else {
                throw CommandError(
                    .parse, "the body has NUL bytes, which a command line cannot carry", hint: "save it to a file")
            }
            let text = String(decoding: data, as: UTF8.self)
            parts += ["--data-binary", Data(text.utf8) == data ? word(text) : Quoting.word(bytes: Array(data))]
        case .file(let path, _)?:
            if !names.contains(NetworkHeaders.Name.contentType.canonicalName) {
                parts += ["-H", word("Content-Type:")]
            }
            parts += ["--data-binary", word("@" + path)]
        }
        return joined(parts)
    }

    /// `-u "ada:${FATHOM_SECRET_PASSWORD}"` for `Basic <base64>`: the password by name.
    private func basicUser(_ value: String) -> String? {
        Self.basicPair(value).map(word)
    }

    /// Whether an `Accept-Encoding` value asks for an encoding curl decodes with `--compressed`.
    static func isCompressed(_ value: String) -> Bool {
        let lowered = value.lowercased()
        return ["gzip", "deflate", "br", "zstd"].contains { lowered.contains($0) }
    }

    /// `user:password` from an `Authorization: Basic …` value.
    static func basicPair(_ value: String) -> String? {
        guard value.hasPrefix("Basic "), let data = Data(base64Encoded: String(value.dropFirst(6))),
            let pair = String(data: data, encoding: .utf8), pair.contains(":")
        else { return nil }
        return pair
    }

    /// A shell word, with `${FATHOM_SECRET_…}` where secrets were.
    func word(_ text: String) -> String { Quoting.word(text, shell: true, secrets: secrets) }

    private func joined(_ parts: [String]) -> String {
        var lines: [String] = []
        var line = parts[0]
        var index = 1
        while index < parts.count {
            let option = parts[index]
            if option.hasPrefix("-"), index + 1 < parts.count, !["--head", "--compressed"].contains(option) {
                lines.append(line)
                line = "  \(option) \(parts[index + 1])"
                index += 2
            } else {
                line += " " + option
                index += 1
            }
        }
        lines.append(line)
        return lines.joined(separator: " \\\n") + "\n"
    }
}
