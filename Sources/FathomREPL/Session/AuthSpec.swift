/// An `auth` line.
enum AuthSpec: Equatable, Sendable {
    case none
    case bearer(String)
    case basic(user: String, password: String?)
    case apiKey(ApiKeyPlacement, name: String, value: String)
    case oauth2ClientCredentials(tokenURL: String, clientID: String, clientSecret: String, scope: String?)

    enum ApiKeyPlacement: String, Equatable, Sendable {
        case header, query
    }
}
