import Testing

@testable import FathomREPL

@Suite struct SetCommandTests {
    @Test func takesNameEqualsValue() throws {
        #expect(try parse("set name = Ada Lovelace") == SetCommand(name: "name", value: "Ada Lovelace"))
        #expect(try parse("set id=42") == SetCommand(name: "id", value: "42"))
        #expect(try parse(#"set greeting = "hi there""#) == SetCommand(name: "greeting", value: "hi there"))
        // The value is read raw: a quote that does not close is part of it.
        #expect(try parse(#"set a = "x"#) == SetCommand(name: "a", value: #""x"#))
        #expect(try parse("set a = 'x'") == SetCommand(name: "a", value: "x"))
        #expect(parseError("set a =")?.message == "missing value")
    }
}

@Suite struct SecretCommandTests {
    @Test func takesAValueOrAsks() throws {
        #expect(try parse("secret token") == SecretCommand(name: "token", value: nil))
        #expect(try parse("secret token = abc") == SecretCommand(name: "token", value: "abc"))
    }
}

@Suite struct AuthCommandTests {
    @Test func parsesEveryScheme() throws {
        #expect(try parse("auth basic ada:lovelace") == AuthCommand(auth: .basic(user: "ada", password: "lovelace")))
        #expect(
            try parse("auth apikey header X-API-Key {{key}}")
                == AuthCommand(auth: .apiKey(.header, name: "X-API-Key", value: "{{key}}")))
        #expect(
            try parse("auth oauth2 client-credentials /oauth/token id {{secret}} users")
                == AuthCommand(
                    auth: .oauth2ClientCredentials(
                        tokenURL: "/oauth/token", clientID: "id", clientSecret: "{{secret}}", scope: "users")))
        #expect(try parse("auth") == AuthCommand(auth: nil))
        #expect(parseError("auth digest x")?.message == "unknown auth option 'digest'")
        var grant = OAuth2Grant(flow: .authorizationCode, clientID: "web")
        grant.issuer = "https://auth.test"
        grant.clientSecret = "{{client_secret}}"
        grant.scope = "read write"
        grant.redirectPort = 8765
        grant.clientAuthentication = .post
        #expect(
            try parse(
                "auth oauth2 authorization-code web --issuer https://auth.test {{client_secret}} --scope 'read write' --redirect-port 8765 --client-auth post"
            ) == AuthCommand(auth: .oauth2(grant)))
        var device = OAuth2Grant(flow: .device, clientID: "tv")
        device.endpoints = ("https://auth.test/device", "/token")
        #expect(
            try parse("auth oauth2 device https://auth.test/device /token tv") == AuthCommand(auth: .oauth2(device)))
        #expect(
            parseError("auth oauth2 device /device /token")?.message
                == "missing the device URL, the token URL and the client ID")
        #expect(parseError("auth oauth2 device /d /t cli secret extra")?.message == "unexpected 'extra'")
        #expect(parseError("auth oauth2 device /d /t cli --redirect-port 1")?.message == "unexpected '--redirect-port'")
        #expect(
            parseError("auth oauth2 authorization-code /a /t cli --redirect-port 70000")?.message
                == "--redirect-port takes a port from 0 to 65535, not '70000'")
        #expect(parseError("auth oauth2 device /d /t cli --client-auth jwt")?.message == "unknown auth option 'jwt'")
    }
}

@Suite struct DefaultCommandTests {
    @Test func editsHeadersAndQuery() throws {
        #expect(
            try parse("default header X-Client: fathom")
                == DefaultCommand(edit: .header(.set(name: "X-Client", value: "fathom"))))
        #expect(try parse("default -X-Client") == DefaultCommand(edit: .header(.remove("X-Client"))))
        #expect(try parse("default query v=2") == DefaultCommand(edit: .query(.add(name: "v", value: "2"))))
    }
}

@Suite struct EnvCommandTests {
    @Test func listsOrUses() throws {
        #expect(try parse("env") == EnvCommand(use: nil))
        #expect(try parse("env use staging") == EnvCommand(use: "staging"))
        #expect(parseError("env switch x")?.hint == "use `env use NAME`")
    }
}
