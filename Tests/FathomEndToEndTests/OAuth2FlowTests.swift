import FathomJSON
import Foundation
import Testing

/// `auth oauth2 authorization-code` and `auth oauth2 device` at the prompt (tmux) against an
/// authorization server nobody here wrote — Authlib's grants under Flask (Tests/Servers/oauth_server.py)
/// — with the person's browser played by Tests/Servers/oauth_browser.py following the URL the
/// screen shows. Tokens renew before they expire and after a 401; every refusal is one line and
/// changes nothing; nothing secret reaches the screen, the saved file or a second server; a replay
/// takes a refresh token from the environment instead of a browser.
@Suite(.enabled(if: PythonServer.python != nil, "needs FATHOM_PYTHON with authlib: run through `make test`"))
struct OAuth2FlowTests {
    static let root = FathomBinary.packageRoot + "/Tests/Servers/"

    /// A server's record of what happened (GET /test/log).
    static func log(_ port: Int) throws -> JSON {
        let (status, text) = try Program.run(["curl", "-s", "http://127.0.0.1:\(port)/test/log"])
        try #require(status == 0, "\(text)")
        return try JSON(parsing: text)
    }

    static func strings(_ json: JSON, _ key: String) -> [String] {
        guard case .array(let items)? = json[key] else { return [] }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// The browser: `code URL [flags]` or `device URI CODE [flags]`.
    static func browse(_ arguments: [String]) throws -> String {
        let (status, output) = try Program.run(
            [PythonServer.python ?? "python3", root + "oauth_browser.py"] + arguments)
        try #require(status == 0, "oauth_browser.py \(arguments): \(output)")
        return output
    }

    /// The authorization URL on the screen.
    static func authorizationURL(_ terminal: Tmux, port: Int) throws -> String {
        let screen = try terminal.waitFor("open in a browser to authorize:")
        _ = screen
        let joined = try terminal.joinedScreen(history: 200)
        let urls = joined.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter {
            $0.hasPrefix("http://127.0.0.1:\(port)/authorize?")
        }
        return String(try #require(urls.last, "no authorization URL on the screen:\n\(joined)"))
    }

    @Test func theCodeFlowWithPKCERenewsItsTokensSavesAndReplaysFromTheEnvironment() throws {
        let server = try PythonServer(script: Self.root + "oauth_server.py", arguments: ["--lifetime", "4"])
        let other = try PythonServer(script: Self.root + "oauth_server.py", arguments: [])
        let api = "http://127.0.0.1:\(server.port)"
        guard case .string(let clientSecret)? = try Self.log(server.port)["web_secret"] else {
            Issue.record("no client secret")
            return
        }
        let directory = NSTemporaryDirectory() + "fathom-oauth-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let saved = directory + "/oauth.fathom"

        let terminal = try Tmux(
            "cd \(directory) && FATHOM_CONFIG=/nonexistent NO_COLOR=1 FATHOM_SECRET_CLIENT_SECRET=\(clientSecret) \(FathomBinary.binary) \(api)"
        )
        try terminal.waitForPrompt()
        try terminal.type("secret client_secret")
        try terminal.send("Enter")
        try terminal.waitForPrompt()
        // The endpoints from the issuer's RFC 8414 metadata; the secret by name, sent as Basic.
        try terminal.type("auth oauth2 authorization-code --issuer \(api) web {{client_secret}} --scope 'read profile'")
        try terminal.send("Enter")
        let url = try Self.authorizationURL(terminal, port: server.port)
        #expect(url.contains("code_challenge_method=S256") && url.contains("state="))
        #expect(url.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
        let page = try Self.browse(["code", url])
        #expect(page.contains("Fathom has the answer"))
        try terminal.waitFor("authorized in the browser for \(api) (scope read profile, expires in 4s", joined: true)
        try terminal.waitForPrompt()

        try terminal.type("get /me")
        try terminal.send("Enter")
        try terminal.waitFor("\"scope\": \"read profile\"")
        try terminal.waitForPrompt()
        // Renewed before it expires (a quarter of a 4 s lifetime before its end).
        Thread.sleep(forTimeInterval: 3.3)
        try terminal.type("get /me")
        try terminal.send("Enter")
        try terminal.waitFor("#2")
        try terminal.waitForPrompt()
        // Renewed once after a 401: the server withdraws every access token it issued.
        _ = try Program.run(["curl", "-s", "-X", "POST", "\(api)/test/revoke"])
        try terminal.type("get /me")
        try terminal.send("Enter")
        try terminal.waitFor("#3")
        try terminal.waitForPrompt()
        // Another origin gets none of it.
        try terminal.type("get http://127.0.0.1:\(other.port)/me")
        try terminal.send("Enter")
        try terminal.waitFor("#4")
        try terminal.waitForPrompt()
        try terminal.type("save \(saved)")
        try terminal.send("Enter")
        try terminal.waitFor("saved 4 requests")
        try terminal.waitForPrompt()
        let screen = try terminal.joinedScreen(history: 400)

        let log = try Self.log(server.port)
        #expect(Self.strings(log, "grants") == ["authorization_code", "refresh_token", "refresh_token"])
        let seen = Self.strings(log, "me")
        // The first token; the one renewed before expiry; it again, refused (401); the one renewed then.
        #expect(seen.count == 4 && seen[0] != seen[1] && seen[1] == seen[2] && seen[2] != seen[3], "\(seen)")
        #expect(Self.strings(try Self.log(other.port), "me") == [""], "the second server got an Authorization header")
        guard case .string(let refreshToken)? = log["last_refresh_token"] else {
            Issue.record("no refresh token issued")
            return
        }

        let file = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(
            file.contains("auth oauth2 authorization-code --issuer \(api) web {{client_secret}} --scope 'read profile'")
        )
        let secrets = [clientSecret, refreshToken] + Self.strings(log, "access_tokens")
        for secret in secrets {
            #expect(!screen.contains(secret), "the screen shows a secret")
            #expect(!file.contains(secret), "the saved file holds a secret")
        }

        // A replay has no browser: without a token from the environment it is the environment's fault.
        let bare = try FathomBinary.run(["replay", saved], environment: ["FATHOM_SECRET_CLIENT_SECRET": clientSecret])
        #expect(bare.status == 3, "\(bare.stdout)\(bare.stderr)")
        #expect((bare.stdout + bare.stderr).contains("set FATHOM_SECRET_OAUTH2_REFRESH_TOKEN"))
        let replay = try FathomBinary.run(
            ["replay", saved],
            environment: [
                "FATHOM_SECRET_CLIENT_SECRET": clientSecret, "FATHOM_SECRET_OAUTH2_REFRESH_TOKEN": refreshToken,
            ])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        let after = try Self.log(server.port)
        for secret in secrets + Self.strings(after, "access_tokens") {
            #expect(!(replay.stdout + replay.stderr).contains(secret), "the replay shows a secret")
        }
        #expect(Self.strings(after, "grants").suffix(1) == ["refresh_token"])

        // The refresh token the replay was given is spent (the server rotates them); the newest one
        // serves a one-shot run, whose `--output json` lines FathomBinary checks against the schema.
        guard case .string(let newest)? = after["last_refresh_token"] else {
            Issue.record("no new refresh token")
            return
        }
        #expect(newest != refreshToken)
        let json = try FathomBinary.run(
            [
                api, "--output", "json", "-c", "secret client_secret", "-c",
                "auth oauth2 authorization-code /authorize /token web {{client_secret}}", "-c", "get /me",
            ], environment: ["FATHOM_SECRET_OAUTH2_REFRESH_TOKEN": newest, "FATHOM_SECRET_CLIENT_SECRET": clientSecret])
        #expect(json.status == 0, "\(json.stdout)\(json.stderr)")
        #expect(json.stdout.contains(#""event":"oauth2_authorized""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""source":"oauth2_refresh_token""#))
        #expect(!json.stdout.contains(newest))
    }

    @Test func theDeviceFlowAndEveryRefusalAreOneLineEach() throws {
        let server = try PythonServer(script: Self.root + "oauth_server.py", arguments: ["--slow-down"])
        let api = "http://127.0.0.1:\(server.port)"
        let terminal = try Tmux("FATHOM_CONFIG=/nonexistent NO_COLOR=1 \(FathomBinary.binary) \(api)")
        try terminal.waitForPrompt()
        func run(_ line: String) throws {
            try terminal.type(line)
            try terminal.send("Enter")
        }
        func expectNoAuth() throws {
            try terminal.send("C-l")
            try terminal.waitForPrompt()
            try run("auth")
            try terminal.waitFor("> auth\nnone")
            try terminal.waitForPrompt()
        }
        let code = "auth oauth2 authorization-code /authorize /token cli"

        // A forged redirect: its state is not the one sent.
        try run(code)
        _ = try Self.browse(["code", try Self.authorizationURL(terminal, port: server.port), "--wrong-state"])
        try terminal.waitFor(
            "error: the OAuth2 redirect came back with a state that is not the one sent: refused (a forged or stale answer)",
            joined: true)
        try expectNoAuth()
        // A code that arrives with another challenge: the verifier does not match it.
        try run(code)
        _ = try Self.browse(["code", try Self.authorizationURL(terminal, port: server.port), "--wrong-challenge"])
        try terminal.waitFor(
            "error: HTTP 400 Bad Request: the OAuth2 code exchange request was refused: invalid_grant", joined: true)
        try expectNoAuth()
        // The person says no.
        try run(code)
        _ = try Self.browse(["code", try Self.authorizationURL(terminal, port: server.port), "--deny"])
        try terminal.waitFor("error: the OAuth2 authorization was refused: access_denied")
        try expectNoAuth()
        // Nobody comes back: Ctrl-C stops the wait.
        try run(code)
        _ = try Self.authorizationURL(terminal, port: server.port)
        try terminal.send("C-c")
        try terminal.waitFor("cancelled")
        try expectNoAuth()

        // The device flow, with the server asking for slower polling on the first poll.
        try run("auth oauth2 device /device_authorization /token cli --scope read")
        var screen = try terminal.waitFor("waiting for it to be approved")
        let userCode = try #require(screen.firstMatch(of: /enter the code ([A-Z]{4}-[A-Z]{4}) at/)?.output.1)
        #expect(screen.contains("at \(api)/device"))
        Thread.sleep(forTimeInterval: 1.5)
        _ = try Self.browse(["device", "\(api)/device", String(userCode)])
        try terminal.waitFor("authorized with the device code for \(api) (scope read", timeout: 20, joined: true)
        try terminal.waitForPrompt()
        try run("get /me")
        try terminal.waitFor("\"client\": \"cli\"")
        let polls = try Self.log(server.port)["polls"]
        guard case .array(let times)? = polls, times.count >= 2,
            case .number(let first) = times[0], case .number(let second) = times[1],
            let a = Double(first), let b = Double(second)
        else {
            Issue.record("polls: \(String(describing: polls))")
            return
        }
        #expect(b - a >= 5.5, "slow_down adds 5 s to the 1 s interval: \(b - a)")

        // Refused at the device page.
        try terminal.waitForPrompt()
        try terminal.send("C-l")
        try terminal.waitForPrompt()
        try run("auth oauth2 device /device_authorization /token cli")
        screen = try terminal.waitFor("waiting for it to be approved")
        let lastCode = try #require(screen.split(separator: "\n").last { $0.contains("enter the code") })
        let deniedCode = try #require(
            String(lastCode).firstMatch(of: /enter the code ([A-Z]{4}-[A-Z]{4}) at/)?.output.1)
        _ = try Self.browse(["device", "\(api)/device", String(deniedCode), "--deny"])
        try terminal.waitFor(
            "error: the OAuth2 device authorization was refused: access_denied", timeout: 20, joined: true)
        try terminal.waitForPrompt()
        // The failed line left the device flow's tokens in place.
        try run("auth")
        try terminal.waitFor("oauth2 device /device_authorization /token cli --scope read")
    }
}
