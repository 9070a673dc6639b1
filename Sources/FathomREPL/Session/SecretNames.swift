/// Whether a name says its value is a credential — a field, item, query parameter or header
/// named like `password`, `access_token`, `client_secret` or `X-API-Key` — and the variable name a
/// saved session asks for it by.
///
/// A name is read as words (`access_token`, `accessToken`, `X-Access-Token` are all
/// *access token*) and is a credential when its last word is one (`token`, `secret`,
/// `password`…), or its last two are a kind of key (`api key`, `secret key`), or it is `key`
/// alone. So `token_type`, `tokens_used`, `sort_key` and `key_id` are data, not secrets: masking
/// them would hide what a person reads and what a comparison must check.
enum SecretNames {
    private static let lastWords: Set<String> = [
        "token", "secret", "password", "passwd", "pwd", "passphrase", "apikey", "credential", "credentials",
        "authorization", "cookie",
    ]
    private static let anywhere: Set<String> = ["password", "passwd", "passphrase"]
    private static let keyKinds: Set<String> = [
        "api", "secret", "private", "access", "auth", "client", "signing", "encryption", "master", "subscription",
        "session", "license", "app", "consumer",
    ]

    static func looksSecret(_ name: String) -> Bool {
        let words = words(of: name)
        guard let last = words.last else { return false }
        if lastWords.contains(last) || words.contains(where: anywhere.contains) { return true }
        if last == "key" {
            return words.count == 1 || keyKinds.contains(words[words.count - 2])
        }
        return false
    }

    /// `X-API-Key` → `x_api_key`; `clientSecret` → `clientsecret`: a name `{{…}}` and
    /// `FATHOM_SECRET_<NAME>` take.
    static func variableName(_ text: String) -> String {
        let name = String(text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        return name.first?.isLetter == true || name.first == "_" ? name : "v_" + name
    }

    /// The words of a name: split at `_`, `-`, `.` and blanks, and where lower case turns upper.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in name {
            if character == "_" || character == "-" || character == "." || character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber, !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                current.append(character)
            }
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }
}
