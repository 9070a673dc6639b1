import Crypto
@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// Responses recorded for a session file, kept beside it as `NAME.recording.json` so that
/// `fathom replay --compare` can diff new responses against them.
///
/// Pretty-printed JSON with one response per request, so that git shows a changed field as a
/// changed line. A JSON body is stored as JSON, text as a string, anything else as base64.
///
/// A response is matched to its recording by what the file writes, not by position: method, the
/// path as written (`/users/{{id}}`, origin and query left out) and which occurrence of that pair
/// it is. A request inserted into the file leaves every other comparison as it was.
///
/// The session's secrets, and long values of members named like credentials (an access token no
/// line captured), are kept as keyed digests, `••••#1f0a9c3e` (HMAC-SHA256 under a random key the
/// recording keeps, cut to 32 bits): a value that changes still shows as a change, and nothing
/// else is hidden — a `token_type` going from `Bearer` to `Digest` is a difference.
struct Recording: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// The request's position among the file's requests, from 1: how a format-1 recording,
        /// which has no ``identity``, is matched.
        var request: Int
        /// The line of the request in the session file, for people reading the recording.
        var line: Int?
        /// What a new response is matched to; `nil` in a format-1 recording.
        var identity: RequestIdentity?
        var method: String
        /// The path the request went to (masked), for people reading the recording.
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
    /// The key of the digests that stand for secret values: new responses are masked with it too.
    var key: Data
    var entries: [Entry]

    static let formatVersion = 2

    /// A recording with a fresh random key.
    init(session: String, key: Data = Recording.newKey(), entries: [Entry] = []) {
        self.session = session
        self.key = key
        self.entries = entries
    }

    static func newKey() -> Data {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// `tour.fathom` → `tour.recording.json`, beside it.
    static func path(forSession path: String) -> String {
        let base = path.hasSuffix(".fathom") ? String(path.dropLast(".fathom".count)) : path
        return base + ".recording.json"
    }

    /// The recorded response for the request `identity`, the `position`-th of its file: by
    /// identity when the recording has identities, else by position.
    func entry(for identity: RequestIdentity, position: Int) -> Entry? {
        if entries.contains(where: { $0.identity != nil }) {
            return entries.first { $0.identity == identity }
        }
        return entries.first { $0.request == position }
    }

    /// A response as an entry: `identity` and the file's `line`, the body masked with ``key``.
    func entry(
        _ response: RecordedResponse, identity: RequestIdentity, position: Int, line: Int?, redactor: Redactor
    ) -> Entry {
        let masker = masker(redactor)
        return Entry(
            request: position, line: line, identity: identity, method: response.method,
            path: masker.mask(response.path), status: response.status, contentType: response.contentType,
            body: Recording.body(response.body, contentType: response.contentType, masker: masker))
    }

    func masker(_ redactor: Redactor) -> Masker { Masker(key: key, redactor: redactor) }

    // MARK: - Masking

    /// Puts a keyed digest in place of each of the session's secret values, then masks whatever
    /// the redactor still finds (a secret percent-encoded or escaped), so nothing secret is kept.
    struct Masker: Sendable {
        let key: Data
        let redactor: Redactor

        func mask(_ text: String) -> String {
            // A format-1 recording has no key: its secrets were masked plainly.
            guard !key.isEmpty else { return redactor.redact(text) }
            var result = text
            // Longest first (as the redactor keeps them): a secret that holds another goes whole.
            for secret in redactor.secretValues where result.contains(secret) {
                result = result.replacingOccurrences(of: secret, with: digest(secret))
            }
            return redactor.redact(result)
        }

        /// `••••#` and 8 hex digits of HMAC-SHA256(key, value).
        func digest(_ value: String) -> String {
            let code = HMAC<SHA256>.authenticationCode(for: Data(value.utf8), using: SymmetricKey(data: key))
            return Redactor.mask + "#" + code.prefix(4).map { String(format: "%02x", $0) }.joined()
        }

        func mask(_ json: JSON) -> JSON {
            switch json {
            case .string(let text): return .string(mask(text))
            case .array(let elements): return .array(elements.map(mask))
            case .object(let members):
                return .object(
                    members.map { member in
                        if case .string(let text) = member.value, Self.looksLikeACredential(text, named: member.key),
                            !key.isEmpty
                        {
                            return JSON.Member(key: mask(member.key), value: .string(digest(text)))
                        }
                        return JSON.Member(key: mask(member.key), value: mask(member.value))
                    })
            default: return json
            }
        }

        /// A value no line captured that is still a credential by its look: a member named like
        /// one (`token`, `password`, `api_key`) whose value is long and unbroken. It is kept as a
        /// digest too — compared, never written. A short value (`"token_type": "Bearer"`) is
        /// not one, and is kept as it is.
        static func looksLikeACredential(_ value: String, named name: String) -> Bool {
            value.count >= 16 && !value.contains(where: \.isWhitespace) && SecretNames.looksSecret(name)
        }
    }

    /// A body as recordings keep it: the session's secrets masked by `masker`.
    static func body(_ data: Data, contentType: String?, masker: Masker) -> Body {
        guard !data.isEmpty else { return .empty }
        if let json = try? JSON(parsing: data) { return .json(masker.mask(json)) }
        if let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") {
            return .text(masker.mask(text))
        }
        // Masked before it is encoded: base64 would hide a secret from every later mask.
        return .binary(masker.redactor.redact(bytes: data))
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
            members.append(JSON.Member(key: "method", value: .string(entry.method)))
            if let identity = entry.identity {
                members += [
                    JSON.Member(key: "target", value: .string(identity.target)),
                    JSON.Member(key: "occurrence", value: .number(String(identity.occurrence))),
                ]
            }
            members += [
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
            JSON.Member(key: "key", value: .string(key.map { String(format: "%02x", $0) }.joined())),
            JSON.Member(key: "responses", value: .array(responses)),
        ])
        return document.formatted(.pretty)
    }

    /// Reads a recording file.
    ///
    /// - Throws: ``CommandError`` saying what is wrong, with the file's name.
    static func load(_ path: String) throws(CommandError) -> Recording {
        if let problem = BoundedFile.problem(path, limit: BoundedFile.recording, what: "a recording") {
            throw CommandError(.file, problem)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError(
                .file, "cannot read the recording '\(path)'", hint: "record one: `record on`, send, `save FILE`")
        }
        return try parse(data, path: path)
    }

    /// A recording from its bytes; `path` names it in errors.
    ///
    /// - Throws: ``CommandError`` saying what is wrong.
    static func parse(_ data: Data, path: String) throws(CommandError) -> Recording {
        let document: JSON
        do {
            document = try JSON(parsing: data)
        } catch {
            throw CommandError(.file, "the recording '\(path)' is not valid JSON: \(error.summary)")
        }
        func fail(_ what: String) -> CommandError {
            CommandError(.file, "the recording '\(path)' is not a Fathom recording: \(what)")
        }
        // Formats 1 and 2 are read; anything else (a newer Fathom's, or not a number) is named,
        // never compared as if it were one of them.
        guard case .number(let format)? = document["fathomRecording"], ["1", "2"].contains(format) else {
            let given = document["fathomRecording"].map { $0.formatted(.compactText).trimmingCharacters(in: .newlines) }
            throw CommandError(
                .file,
                "the recording '\(path)' has format \(ErrorRenderer.cut(given ?? "none")), which this Fathom does not read",
                hint:
                    "Fathom \(FathomVersion.current) reads formats 1 and 2: record it again with `fathom replay --record`"
            )
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
            var identity: RequestIdentity?
            if case .string(let target)? = response["target"], case .number(let text)? = response["occurrence"],
                let occurrence = Int(text)
            {
                identity = RequestIdentity(method: method, target: target, occurrence: occurrence)
            }
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
                    request: number, line: line, identity: identity, method: method, path: path, status: status,
                    contentType: contentType, body: body))
        }
        var session = ""
        if case .string(let name)? = document["session"] { session = name }
        // A format-1 recording has no key: its masks are plain, and so are the new ones then.
        var key = Data()
        if case .string(let hex)? = document["key"] {
            guard let bytes = Self.bytes(hex: hex) else { throw fail("its key is not hexadecimal") }
            key = bytes
        }
        return Recording(session: session, key: key, entries: entries)
    }

    private static func bytes(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var data = Data(capacity: digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            data.append(byte)
        }
        return data
    }
}

/// What a request is across runs of its file: its method, its path as the file writes it, and
/// which occurrence of that pair it is (from 1). The same on a green run and a red one, and
/// unchanged by a request inserted elsewhere in the file.
struct RequestIdentity: Hashable, Sendable, CustomStringConvertible {
    var method: String
    var target: String
    var occurrence: Int

    /// A target as written, reduced to its path: the origin (`https://host`, or a leading
    /// `{{variable}}` that holds one) and the query left out.
    static func path(of target: String) -> String {
        var rest = Substring(target)
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...]
        } else if rest.hasPrefix("{{"), let close = rest.range(of: "}}") {
            let after = rest[close.upperBound...]
            if after.isEmpty || after.first == "/" || after.first == "?" { rest = after }
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        return rest.isEmpty ? "/" : String(rest)
    }

    var description: String { occurrence == 1 ? "\(method) \(target)" : "\(method) \(target) (#\(occurrence))" }
}

/// Counts requests as a file sends them, giving each its ``RequestIdentity``.
struct RequestIdentities: Sendable {
    private var seen: [String: Int] = [:]

    mutating func next(method: String, target: String) -> RequestIdentity {
        let path = RequestIdentity.path(of: target)
        let key = method + " " + path
        seen[key, default: 0] += 1
        return RequestIdentity(method: method, target: path, occurrence: seen[key]!)
    }
}
