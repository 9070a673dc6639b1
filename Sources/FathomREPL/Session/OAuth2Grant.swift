import FathomHTTP

/// `auth oauth2 authorization-code|device …`: a grant a person completes — in a browser, or by
/// entering a code — whose tokens then renew themselves. What the line got when it ran
/// (``obtained``) is kept for the API's requests and never written by `save`: a replay runs the
/// line again, or takes a token from the environment.
struct OAuth2Grant: Equatable, Sendable {
    enum Flow: String, Sendable, CaseIterable {
        /// RFC 6749 §4.1 with PKCE and a loopback redirect (RFC 8252).
        case authorizationCode = "authorization-code"
        /// RFC 8628.
        case device
    }

    var flow: Flow
    /// The authorization endpoint (a code flow) or the device authorization endpoint, and the
    /// token endpoint, as written; `nil` with `--issuer`.
    var endpoints: (start: String, token: String)?
    /// `--issuer URL`: the endpoints come from its RFC 8414 metadata.
    var issuer: String?
    var clientID: String
    /// A confidential client's secret; `nil` for a public client.
    var clientSecret: String?
    var scope: String?
    /// `--redirect-port N` (a code flow): the port registered with the server; any free one without.
    var redirectPort: Int?
    /// `--client-auth basic|post`: how the secret is sent; from the metadata, else basic.
    var clientAuthentication: OAuth2ClientAuthentication?
    /// What the line got when it ran.
    var obtained: Obtained?

    /// Where the tokens came from and what they are: the API's requests send and renew them.
    struct Obtained: Equatable, Sendable {
        var tokenURL: String
        var authentication: OAuth2ClientAuthentication
        var tokens: OAuth2Tokens
        /// How they were got: `browser`, `device`, or the environment's secret's name.
        var source: String
    }

    /// The secrets a run without a person reads instead of the flow, in the order they are tried.
    static let environmentTokens = ["oauth2_refresh_token", "oauth2_access_token"]

    static func == (lhs: OAuth2Grant, rhs: OAuth2Grant) -> Bool {
        lhs.flow == rhs.flow && lhs.endpoints?.start == rhs.endpoints?.start
            && lhs.endpoints?.token == rhs.endpoints?.token && lhs.issuer == rhs.issuer && lhs.clientID == rhs.clientID
            && lhs.clientSecret == rhs.clientSecret && lhs.scope == rhs.scope && lhs.redirectPort == rhs.redirectPort
            && lhs.clientAuthentication == rhs.clientAuthentication && lhs.obtained == rhs.obtained
    }

    /// The line's words after `auth oauth2`, secrets as written.
    var words: [(text: String, raw: Bool)] {
        var words: [(String, Bool)] = [(flow.rawValue, true)]
        if let issuer {
            words += [("--issuer", true), (issuer, false)]
        } else if let endpoints {
            words += [(endpoints.start, false), (endpoints.token, false)]
        }
        words.append((clientID, false))
        if let clientSecret { words.append((clientSecret, false)) }
        if let scope { words += [("--scope", true), (scope, false)] }
        if let redirectPort { words += [("--redirect-port", true), (String(redirectPort), true)] }
        if let clientAuthentication {
            words += [("--client-auth", true), (clientAuthentication == .basic ? "basic" : "post", true)]
        }
        return words
    }

    /// Parses what follows `auth oauth2 authorization-code|device`.
    static func parse(_ flow: Flow, _ a: inout Arguments) throws(CommandError) -> OAuth2Grant {
        var grant = OAuth2Grant(flow: flow, clientID: "")
        var positional: [String] = []
        while let word = try a.optionalWord() {
            switch word.quoted ? "" : word.text.lowercased() {
            case "--issuer": grant.issuer = try a.word("the issuer URL").text
            case "--scope": grant.scope = try a.word("a scope: \"read write\"").text
            case "--redirect-port" where flow == .authorizationCode:
                let port = try a.word("a port")
                guard let number = Int(port.text), (0...65535).contains(number) else {
                    throw CommandError(
                        .parse, "--redirect-port takes a port from 0 to 65535, not '\(port.text)'", column: port.column)
                }
                grant.redirectPort = number
            case "--client-auth":
                let way = try a.word("basic or post")
                switch way.text.lowercased() {
                case "basic": grant.clientAuthentication = .basic
                case "post": grant.clientAuthentication = .post
                default: throw a.badChoice(way, ["basic", "post"])
                }
            default:
                guard !word.text.hasPrefix("--") || word.quoted else {
                    throw CommandError(
                        .parse, .unexpected(word: word.text), column: word.column, hint: Self.synopsis(flow))
                }
                positional.append(word.text)
            }
        }
        let urls = grant.issuer == nil ? 2 : 0
        guard positional.count > urls, positional.count <= urls + 2 else {
            let missing =
                grant.issuer == nil
                ? (flow == .device
                    ? "the device URL, the token URL and the client ID"
                    : "the authorization URL, the token URL and the client ID")
                : "the client ID"
            throw CommandError(
                .parse, positional.count > urls + 2 ? .unexpected(word: positional[urls + 2]) : .missing(missing),
                column: a.column, hint: Self.synopsis(flow))
        }
        if urls == 2 { grant.endpoints = (positional[0], positional[1]) }
        grant.clientID = positional[urls]
        grant.clientSecret = positional.count > urls + 1 ? positional[urls + 1] : nil
        return grant
    }

    static func synopsis(_ flow: Flow) -> String {
        switch flow {
        case .authorizationCode:
            "auth oauth2 authorization-code (AUTH_URL TOKEN_URL | --issuer URL) CLIENT_ID [SECRET] [--scope S] [--redirect-port N] [--client-auth basic|post]"
        case .device:
            "auth oauth2 device (DEVICE_URL TOKEN_URL | --issuer URL) CLIENT_ID [SECRET] [--scope S] [--client-auth basic|post]"
        }
    }
}
