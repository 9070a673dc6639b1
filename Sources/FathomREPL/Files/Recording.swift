@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// Responses recorded for a session file, kept beside it as `NAME.recording.json` so that
/// `fathom replay --compare` can diff new responses against them.
///
/// Pretty-printed JSON with one response per request, so that git shows a changed field as a
/// changed line. A JSON body is stored as JSON, text as a string, anything else as base64. Values
/// of secret-looking fields (token, password, secret, key…) and every known secret are masked
/// before anything is written, and masked the same way in new responses before comparing.
struct Recording: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// The request's position among the file's requests, from 1.
        var request: Int
        /// The line of the request in the session file, for people reading the recording.
        var line: Int?
        var method: String
        var path: String
        var status: Int
        var contentType: String?
        var body: Body
    }

    enum Body: Sendable, Equatable, CustomStringConvertible {
        case empty
        case json(JSON)
        case text(String)
        case binary(Data)

        /// What kind of body, for a difference line: `JSON`, `text (12 B)`, `binary (3 KiB)`.
        var description: String {
            switch self {
            case .empty: "empty"
            case .json: "JSON"
            case .text(let text): "text (\(ByteCount.format(text.utf8.count)))"
            case .binary(let data): "binary (\(ByteCount.format(data.count)))"
            }
        }
    }

    /// The session file the responses belong to (its name, for people reading).
    var session: String
    var entries: [Entry]

    static let formatVersion = 1

    /// `tour.fathom` → `tour.recording.json`, beside it.
    static func path(forSession path: String) -> String {
        let base = path.hasSuffix(".fathom") ? String(path.dropLast(".fathom".count)) : path
        return base + ".recording.json"
    }

    func entry(forRequest request: Int) -> Entry? { entries.first { $0.request == request } }

    // MARK: - Masking

    /// A body as recordings keep it: secret fields and known secrets masked.
    static func body(_ data: Data, contentType: String?, redactor: Redactor) -> Body {
        guard !data.isEmpty else { return .empty }
        if let json = try? JSON(parsing: data) {
            let masked = maskSecretFields(json)
            let text = masked.formatted(.compactText)
            let redacted = redactor.redact(text)
            if redacted != text, let reparsed = try? JSON(parsing: redacted) { return .json(reparsed) }
            return .json(masked)
        }
        if let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") {
            return .text(redactor.redact(text))
        }
        // Masked before it is encoded: base64 would hide a secret from every later mask.
        return .binary(redactor.redact(bytes: data))
    }

    /// `json` with the string values of secret-looking members replaced by the mask.
    static func maskSecretFields(_ json: JSON) -> JSON {
        switch json {
        case .array(let elements): return .array(elements.map(maskSecretFields))
        case .object(let members):
            return .object(
                members.map { member in
                    if SecretNames.looksSecret(member.key), case .string = member.value {
                        return JSON.Member(key: member.key, value: .string(Redactor.mask))
                    }
                    return JSON.Member(key: member.key, value: maskSecretFields(member.value))
                })
        default: return json
        }
    }

    // MARK: - Reading and writing

    /// The recording as its file holds it.
    func serialized() -> String {
        var responses: [JSON] = []
        for entry in entries {
            var members: [JSON.Member] = [
                JSON.Member(key: "request", value: .number(String(entry.request)))
            ]
            if let line = entry.line { members.append(JSON.Member(key: "line", value: .number(String(line)))) }
            members += [
                JSON.Member(key: "method", value: .string(entry.method)),
                JSON.Member(key: "path", value: .string(entry.path)),
                JSON.Member(key: "status", value: .number(String(entry.status))),
            ]
            if let contentType = entry.contentType {
                members.append(JSON.Member(key: "contentType", value: .string(contentType)))
            }
            switch entry.body {
            case .empty: break
            case .json(let json): members.append(JSON.Member(key: "json", value: json))
            case .text(let text): members.append(JSON.Member(key: "text", value: .string(text)))
            case .binary(let data):
                members.append(JSON.Member(key: "base64", value: .string(data.base64EncodedString())))
            }
            responses.append(.object(members))
        }
        let document = JSON.object([
            JSON.Member(key: "fathomRecording", value: .number(String(Self.formatVersion))),
            JSON.Member(key: "session", value: .string(session)),
            JSON.Member(key: "responses", value: .array(responses)),
        ])
        return document.formatted(.pretty)
    }

    /// Reads a recording file.
    ///
    /// - Throws: ``CommandError`` saying what is wrong, with the file's name.
    static func load(_ path: String) throws(CommandError) -> Recording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError(
                "cannot read the recording '\(path)'", hint: "record one: `record on`, send, `save FILE`")
        }
        let document: JSON
        do {
            document = try JSON(parsing: data)
        } catch {
            throw CommandError("the recording '\(path)' is not valid JSON: \(error.summary)")
        }
        func fail(_ what: String) -> CommandError {
            CommandError("the recording '\(path)' is not a Fathom recording: \(what)")
        }
        guard case .array(let responses)? = document["responses"] else { throw fail("no responses array") }
        var entries: [Entry] = []
        for (index, response) in responses.enumerated() {
            guard case .number(let request)? = response["request"], let number = Int(request),
                case .string(let method)? = response["method"], case .string(let path)? = response["path"],
                case .number(let statusText)? = response["status"], let status = Int(statusText)
            else { throw fail("response \(index + 1) lacks request, method, path or status") }
            var line: Int?
            if case .number(let text)? = response["line"] { line = Int(text) }
            var contentType: String?
            if case .string(let text)? = response["contentType"] { contentType = text }
            var body = Body.empty
            if let json = response["json"] {
                body = .json(json)
            } else if case .string(let text)? = response["text"] {
                body = .text(text)
            } else if case .string(let base64)? = response["base64"] {
                guard let data = Data(base64Encoded: base64) else { throw fail("response \(index + 1) has bad base64") }
                body = .binary(data)
            }
            entries.append(
                Entry(
                    request: number, line: line, method: method, path: path, status: status,
                    contentType: contentType, body: body))
        }
        var session = ""
        if case .string(let name)? = document["session"] { session = name }
        return Recording(session: session, entries: entries)
    }
}
