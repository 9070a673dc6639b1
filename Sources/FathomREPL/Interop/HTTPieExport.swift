import FathomHTTP
import Foundation

/// A request as an HTTPie command line that bash runs to send the identical request, secrets as
/// `${FATHOM_SECRET_<NAME>}` references (quoted through ``Quoting``, as ``CurlExport`` quotes).
struct HTTPieExport {
    let quoting: CurlExport

    init(secrets: ExportSecrets) {
        quoting = CurlExport(secrets: secrets)
    }

    func command(for request: PreparedRequest) throws(CommandError) -> String {
        // Options go before the method and URL: HTTPie reads every word after them as an item.
        var options = ["http", "--ignore-stdin"]
        var parts = [request.method.rawValue, quoting.word(request.url.description)]
        var names = Set<String>()
        for field in request.headers {
            names.insert(field.name.canonicalName)
            if field.name == .authorization, let pair = CurlExport.basicPair(field.value) {
                options += ["-a", quoting.word(pair)]
                continue
            }
            // `Name;` sends an empty value (`Name:` would remove the header).
            parts.append(
                quoting.word(field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName):\(field.value)"))
        }
        // Headers HTTPie would add by itself, removed: the request stays the one Fathom sends.
        for name in ["Accept", "User-Agent", "Accept-Encoding", "Connection"]
        where !names.contains(NetworkHeaders.Name(name).canonicalName) {
            parts.append(quoting.word("\(name):"))
        }
        var body = request.body
        if case .pieces? = body { body = .bytes(try body!.exportedBytes()) }
        switch body {
        case nil, .pieces?: break
        case .bytes(let data)?:
            if !names.contains(NetworkHeaders.Name.contentType.canonicalName) {
                parts.append(quoting.word("Content-Type:"))
            }
            guard let text = String(data: data, encoding: .utf8), !data.contains(0) else {
                throw CommandError(
                    .session, "the body is not text, which an HTTPie argument cannot carry", hint: "use `export curl`")
            }
            options += ["--raw", quoting.word(text)]
        case .file(let path, _)?:
            throw CommandError(
                .session, "a body sent from a file is not exported for HTTPie (\(path))", hint: "use `export curl`")
        }
        return (options + parts).joined(separator: " ") + "\n"
    }
}
