import Foundation
import Synchronization

/// Masks secrets before anything is printed, logged or written.
///
/// Three things are secret: header fields by name (`Authorization`, `Proxy-Authorization`, `Cookie`,
/// `Set-Cookie`, `X-API-Key`, plus any marked with ``markSecretHeader(_:)``), query parameters by
/// name (``markSecretQuery(_:)``; a few common ones such as `access_token` and `api_key` from the
/// start), and registered secret values (``addSecret(_:)``), which are masked wherever they appear —
/// in URLs, header values and bodies, raw, percent-encoded or JSON-escaped.
///
/// A secret of at least eight characters is masked wherever it occurs; a shorter one (a password
/// like `admin`, a one-letter value) only where it stands whole — as a word, a JSON string, a
/// header or query value — never inside another word (`administrator`, `http://`), where it would
/// hide text that is not the secret. The start of a secret cut off before an ellipsis (`sk-live-01…`,
/// a preview shortened before it was masked) is masked too.
///
/// A masked value reads `••••` followed by its last four characters when it is longer than twelve
/// characters, else just `••••`. The redactor is shared and safe to use from any thread.
public final class Redactor: Sendable {
    /// The mask shown in place of a secret.
    public static let mask = "••••"

    /// Headers masked whatever their value: `Authorization`, `Cookie`, `X-API-Key` and the like.
    @_spi(Fathom) public static let defaultSecretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]
    /// Query parameters masked whatever their value: `access_token`, `api_key` and the like.
    @_spi(Fathom) public static let defaultSecretQueryNames: Set<String> = [
        "access_token", "api_key", "apikey", "client_secret", "password", "refresh_token",
    ]

    /// A registered secret with its mask and every spelling to look for, computed once when added.
    private struct Secret {
        let value: String
        let masked: String
        let forms: [String]
    }

    private struct State {
        var headers = Redactor.defaultSecretHeaders
        var queryNames = Redactor.defaultSecretQueryNames
        var secrets: [Secret] = []
    }

    private let state = Mutex(State())

    /// A redactor with the default secret headers and query names, and no secret values yet.
    public init() {}

    // MARK: - Marking secrets

    /// Masks this header's value in everything shown.
    public func markSecretHeader(_ name: NetworkHeaders.Name) {
        state.withLock { _ = $0.headers.insert(name.canonicalName) }
    }

    /// Masks this query parameter's value in every URL shown.
    public func markSecretQuery(_ name: String) {
        state.withLock { _ = $0.queryNames.insert(name.lowercased()) }
    }

    /// Masks `value` wherever it appears.
    ///
    /// Empty values are ignored.
    public func addSecret(_ value: String) {
        guard !value.isEmpty else { return }
        let secret = Secret(value: value, masked: Self.masked(value), forms: Self.forms(of: value))
        state.withLock { state in
            guard !state.secrets.contains(where: { $0.value == value }) else { return }
            state.secrets.append(secret)
            // Longest first, so a secret that contains another is masked whole.
            state.secrets.sort { $0.value.count > $1.value.count }
        }
    }

    /// Stops masking `value`.
    @_spi(Fathom) public func removeSecret(_ value: String) {
        state.withLock { $0.secrets.removeAll { $0.value == value } }
    }

    /// The registered secret values, longest first: for writers that replace them by a name
    /// (a saved session refers to a secret instead of holding it).
    @_spi(Fathom) public var secretValues: [String] {
        state.withLock { $0.secrets.map(\.value) }
    }

    /// Whether a header of this name is masked.
    @_spi(Fathom) public func isSecretHeader(_ name: NetworkHeaders.Name) -> Bool {
        state.withLock { $0.headers.contains(name.canonicalName) }
    }

    // MARK: - Masking

    /// The masked form of one secret value.
    @_spi(Fathom) public static func masked(_ value: String) -> String {
        value.count > 12 ? mask + String(value.suffix(4)) : mask
    }

    /// Secrets this long or longer are masked wherever they occur; shorter ones only where they
    /// stand whole (see the type's discussion).
    static let unambiguousLength = 8

    /// `text` with every registered secret value masked.
    public func redact(_ text: String) -> String {
        let secrets = state.withLock { $0.secrets }
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        var result = text
        for secret in secrets {
            for form in secret.forms where result.contains(form) {
                result =
                    form.count >= Self.unambiguousLength
                    ? result.replacingOccurrences(of: form, with: secret.masked)
                    : Self.replacingWhole(form, in: result, with: secret.masked)
            }
        }
        if result.contains("…") { result = Self.maskingCutSecrets(result, secrets) }
        return result
    }

    /// `text` with each occurrence of `form` that stands whole — no letter, digit or `_` touching
    /// it on either side — replaced by `mask`.
    private static func replacingWhole(_ form: String, in text: String, with mask: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: form) {
            let before = range.lowerBound == rest.startIndex ? result.last : rest[rest.index(before: range.lowerBound)]
            let after = range.upperBound == rest.endIndex ? nil : rest[range.upperBound]
            result += rest[..<range.lowerBound]
            result += isWordCharacter(before) || isWordCharacter(after) ? form : mask
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }

    private static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }

    /// `text` with the start of a long secret that was cut off just before an ellipsis masked:
    /// six characters or more of a secret's beginning, then `…`.
    private static func maskingCutSecrets(_ text: String, _ secrets: [Secret]) -> String {
        let minimum = 6
        var result = ""
        var rest = text[...]
        while let ellipsis = rest.firstIndex(of: "…") {
            var head = String(rest[..<ellipsis])
            for secret in secrets where secret.value.count >= Self.unambiguousLength {
                let longest = min(secret.value.count - 1, head.count)
                guard longest >= minimum else { continue }
                for length in stride(from: longest, through: minimum, by: -1)
                where head.hasSuffix(secret.value.prefix(length)) {
                    head = String(head.dropLast(length)) + mask
                    break
                }
            }
            result += head + "…"
            rest = rest[rest.index(after: ellipsis)...]
        }
        return result + rest
    }

    /// The value of a header field as it may be shown.
    ///
    /// A secret header keeps its authentication scheme (`Bearer ••••k3yz`) so that what kind of
    /// credential was sent stays visible.
    @_spi(Fathom) public func redactHeaderValue(_ value: String, name: NetworkHeaders.Name) -> String {
        guard isSecretHeader(name) else { return redact(value) }
        if name == .authorization || name == .proxyAuthorization,
            let space = value.firstIndex(of: " ")
        {
            let scheme = value[..<space]
            let credentials = value[value.index(after: space)...].trimmingWhitespace()
            return "\(scheme) \(Self.masked(credentials))"
        }
        if name == .cookie || name == .setCookie {
            return redactCookie(value)
        }
        return Self.masked(value)
    }

    /// Header fields as they may be shown.
    public func redact(_ headers: NetworkHeaders) -> NetworkHeaders {
        var redacted = NetworkHeaders()
        for field in headers {
            redacted.add(field.name, redactHeaderValue(field.value, name: field.name))
        }
        return redacted
    }

    /// A URL as it may be shown: secret query parameters masked, then secret values.
    public func redact(_ url: RequestURL) -> String {
        var url = url
        if let query = url.query {
            let names = state.withLock { $0.queryNames }
            url.query = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2,
                    names.contains(PercentEncoding.decode(String(parts[0]), plusIsSpace: true).lowercased())
                else { return String(pair) }
                return "\(parts[0])=\(Self.masked(PercentEncoding.decode(String(parts[1]), plusIsSpace: true)))"
            }.joined(separator: "&")
        }
        return redact(url.description)
    }

    /// Bytes with every registered secret masked wherever one of its spellings occurs — as UTF-8,
    /// UTF-16 (either byte order) or Latin-1, so a server that echoes a token in a body of any of
    /// those charsets is masked too — and nothing else changed: for a body that is logged, shown
    /// as hex or stored as base64, masked before it is laid out or encoded.
    @_spi(Fathom) public func redact(bytes: Data) -> Data {
        let secrets = state.withLock { $0.secrets }
        guard !secrets.isEmpty, !bytes.isEmpty else { return bytes }
        var result = bytes
        for secret in secrets {
            for encoding in Self.bodyEncodings {
                // The bullets have no Latin-1 spelling: `*` stands for them there.
                let mask = encoding == .isoLatin1 ? String(secret.masked.map { $0.isASCII ? $0 : "*" }) : secret.masked
                guard let replacement = mask.data(using: encoding) else { continue }
                let width = encoding == .utf16LittleEndian || encoding == .utf16BigEndian ? 2 : 1
                for form in secret.forms {
                    guard let needle = form.data(using: encoding), !needle.isEmpty else { continue }
                    let whole = form.count < Self.unambiguousLength
                    var searchStart = result.startIndex
                    while let range = result.range(of: needle, in: searchStart..<result.endIndex) {
                        if whole,
                            Self.wordUnit(in: result, at: range.lowerBound - width, width, encoding)
                                || Self.wordUnit(in: result, at: range.upperBound, width, encoding)
                        {
                            searchStart = range.upperBound
                            continue
                        }
                        result.replaceSubrange(range, with: replacement)
                        searchStart = range.lowerBound + replacement.count
                    }
                }
            }
        }
        return result
    }

    /// Whether the code unit of `width` bytes at `offset` is an ASCII letter, digit or `_`.
    private static func wordUnit(in data: Data, at offset: Int, _ width: Int, _ encoding: String.Encoding) -> Bool {
        guard offset >= data.startIndex, offset + width <= data.endIndex else { return false }
        let unit: UInt16 =
            width == 1
            ? UInt16(data[offset])
            : encoding == .utf16LittleEndian
                ? UInt16(data[offset]) | UInt16(data[offset + 1]) << 8
                : UInt16(data[offset]) << 8 | UInt16(data[offset + 1])
        guard unit < 0x80 else { return width == 1 ? false : Character(UnicodeScalar(unit) ?? " ").isLetter }
        let scalar = Character(UnicodeScalar(UInt8(unit)))
        return scalar.isLetter || scalar.isNumber || scalar == "_"
    }

    /// The charsets a secret is looked for in, in bytes: UTF-8 first, then those a text body
    /// declares most after it.
    static let bodyEncodings: [String.Encoding] = [.utf8, .utf16LittleEndian, .utf16BigEndian, .isoLatin1]

    /// A body as it may be shown, decoded as UTF-8, secret values masked.
    @_spi(Fathom) public func redact(body: Data) -> String {
        redact(String(decoding: body, as: UTF8.self))
    }

    private func redactCookie(_ value: String) -> String {
        // `name=value; Path=/` → `name=••••; Path=/`: the cookie's name helps, its value is the secret.
        let pieces = value.split(separator: ";", omittingEmptySubsequences: false)
        let attributes: Set<String> = [
            "path", "domain", "expires", "max-age", "secure", "httponly", "samesite", "partitioned",
        ]
        return pieces.enumerated().map { index, piece -> String in
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingWhitespace()
            if pair.count == 2, index == 0 || !attributes.contains(name.lowercased()) {
                let leading = piece.prefix(while: { $0 == " " })
                return "\(leading)\(name)=\(Self.masked(String(pair[1])))"
            }
            return redact(String(piece))
        }.joined(separator: ";")
    }

    /// The spellings a secret can take in URLs and JSON.
    private static func forms(of value: String) -> [String] {
        var forms = [value]
        let percent = PercentEncoding.encode(value, as: .queryItem)
        if percent != value { forms.append(percent) }
        let form = PercentEncoding.encode(value, as: .form)
        if form != value, form != percent { forms.append(form) }
        let json = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "/", with: "\\/")
        if json != value { forms.append(json) }
        let base64 = Data(value.utf8).base64EncodedString()
        if value.count >= 8 { forms.append(base64) }
        return forms
    }
}
