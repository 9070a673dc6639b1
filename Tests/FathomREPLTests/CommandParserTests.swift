import FathomHTTP
import Testing

@testable import FathomREPL

@Suite struct CommandParserTests {
    @Test func parsesDraftCommands() throws {
        #expect(try CommandParser.parse("path /users/{{id}}") == .path("/users/{{id}}"))
        #expect(try CommandParser.parse("  cd ..") == .cd(".."))
        #expect(try CommandParser.parse("method post") == .method("POST"))
        #expect(
            try CommandParser.parse("query page=2 -sort flag")
                == .query([.add(name: "page", value: "2"), .remove("sort"), .add(name: "flag", value: nil)]))
        #expect(
            try CommandParser.parse("header Accept: application/json; q=1")
                == .header([.set(name: "Accept", value: "application/json; q=1")]))
        #expect(try CommandParser.parse("header -Accept -X-Trace") == .header([.remove("Accept"), .remove("X-Trace")]))
        #expect(try CommandParser.parse("send") == .send)
        #expect(try CommandParser.parse("show #3") == .show(.response(3)))
        #expect(try CommandParser.parse("# a comment") == .nothing)
        #expect(try CommandParser.parse("#a comment too") == .nothing)
        #expect(
            try CommandParser.parse("get /users # all of them") == .oneLiner(method: .get, target: "/users", items: []))
        #expect(try CommandParser.parse("   ") == .nothing)
    }

    @Test func parsesBodies() throws {
        #expect(try CommandParser.parse(#"body {"name": "Ada"}"#) == .body(.text(#"{"name": "Ada"}"#)))
        #expect(try CommandParser.parse("body @payload.json") == .body(.file("payload.json")))
        #expect(try CommandParser.parse("body none") == .body(BodySpec.none))
        #expect(
            try CommandParser.parse("body form a=1 b='two words'")
                == .body(.form([.init(name: "a", value: "1"), .init(name: "b", value: "two words")])))
        #expect(
            try CommandParser.parse("body json name=Ada age:=36")
                == .body(.json([.field(name: "name", value: "Ada"), .rawJSON(name: "age", json: "36")])))
        #expect(
            try CommandParser.parse("body multipart note=hi photo@me.png")
                == .body(.multipart([.field(name: "note", value: "hi"), .file(name: "photo", path: "me.png")])))
        #expect(try CommandParser.parse("body <<EOF\nline one\nline two\nEOF") == .body(.text("line one\nline two")))
    }

    @Test func parsesOneLinersWithHTTPieItems() throws {
        #expect(
            try CommandParser.parse("get /users page==2 X-Trace:1 Accept: name=Ada meta:='{\"a\":1}' f@x.txt")
                == .oneLiner(
                    method: .get, target: "/users",
                    items: [
                        .query(name: "page", value: "2"), .header(name: "X-Trace", value: "1"), .removeHeader("Accept"),
                        .field(name: "name", value: "Ada"), .rawJSON(name: "meta", json: #"{"a":1}"#),
                        .file(name: "f", path: "x.txt"),
                    ]))
        #expect(
            try CommandParser.parse("get page==2")
                == .oneLiner(method: .get, target: nil, items: [.query(name: "page", value: "2")]))
        #expect(
            try CommandParser.parse("delete http://h:8080/a")
                == .oneLiner(method: .delete, target: "http://h:8080/a", items: []))
        #expect(try CommandParser.parse("get users") == .oneLiner(method: .get, target: "users", items: []))
    }

    @Test func parsesSessionCommands() throws {
        #expect(try CommandParser.parse("set name = Ada Lovelace") == .set(name: "name", value: "Ada Lovelace"))
        #expect(try CommandParser.parse("set id=42") == .set(name: "id", value: "42"))
        #expect(try CommandParser.parse(#"set greeting = "hi there""#) == .set(name: "greeting", value: "hi there"))
        #expect(try CommandParser.parse("secret token") == .secret(name: "token", value: nil))
        #expect(try CommandParser.parse("secret token = abc") == .secret(name: "token", value: "abc"))
        #expect(try CommandParser.parse("auth basic ada:lovelace") == .auth(.basic(user: "ada", password: "lovelace")))
        #expect(
            try CommandParser.parse("auth apikey header X-API-Key {{key}}")
                == .auth(.apiKey(.header, name: "X-API-Key", value: "{{key}}")))
        #expect(
            try CommandParser.parse("auth oauth2 client-credentials /oauth/token id {{secret}} users")
                == .auth(
                    .oauth2ClientCredentials(
                        tokenURL: "/oauth/token", clientID: "id", clientSecret: "{{secret}}", scope: "users")))
        #expect(
            try CommandParser.parse("default header X-Client: fathom")
                == .defaults(.header(.set(name: "X-Client", value: "fathom"))))
        #expect(try CommandParser.parse("default -X-Client") == .defaults(.header(.remove("X-Client"))))
        #expect(try CommandParser.parse("timeout 1.5s") == .timeout(.set(.milliseconds(1500))))
        #expect(try CommandParser.parse("timeout off") == .timeout(.off))
        #expect(try CommandParser.parse("redirects 0") == .redirects(.set(0)))
        #expect(try CommandParser.parse("log headers /tmp/wire.log") == .log(.headers, file: "/tmp/wire.log"))
        #expect(try CommandParser.parse("mock /users @users.json") == .mock(.file(path: "/users", file: "users.json")))
        #expect(try CommandParser.parse("mock /boom status 500") == .mock(.status(path: "/boom", code: 500)))
        #expect(try CommandParser.parse("QUIT") == .exit)
    }

    @Test func unknownCommandSuggestsTheClosest() {
        let error = #expect(throws: CommandError.self) { try CommandParser.parse("hedaer X: 1") }
        #expect(error?.description == "error at column 1: unknown command 'hedaer' — did you mean 'header'?")
        let indented = #expect(throws: CommandError.self) { try CommandParser.parse("   sned") }
        #expect(indented?.column == 4)
        #expect(indented?.hint == "did you mean 'send'?")
    }

    @Test func errorsPointAtTheColumn() {
        let badChoice = #expect(throws: CommandError.self) { try CommandParser.parse("decoder jsn") }
        #expect(badChoice?.description == "error at column 9: unknown decoder option 'jsn' — did you mean 'json'?")
        let quote = #expect(throws: CommandError.self) { try CommandParser.parse(#"set a = "x"#) }
        #expect(quote?.column == nil || quote?.message == "unterminated quote")
        let item = #expect(throws: CommandError.self) { try CommandParser.parse("get /u ok 'bad item'") }
        #expect(item?.column == 8)
        let header = #expect(throws: CommandError.self) { try CommandParser.parse("header Bad Name: x") }
        #expect(header?.message == "invalid character ' ' in header name 'Bad Name'")
        #expect(header?.column == 11)
        let extra = #expect(throws: CommandError.self) { try CommandParser.parse("send now") }
        #expect(extra?.column == 6)
        #expect(extra?.hint == "usage: send")
        let missing = #expect(throws: CommandError.self) { try CommandParser.parse("path") }
        #expect(missing?.message == "missing a path or URL")
    }

    @Test func tokenizerHandlesQuotesEscapesAndComments() throws {
        let words = try Tokenizer.words(#"a 'b c' "d \" e" f\ g # comment"#)
        #expect(words.map(\.text) == ["a", "b c", #"d " e"#, "f g"])
        #expect(words.map(\.column) == [1, 3, 9, 18])
    }

    @Test func editDistanceCountsTranspositionsOnce() {
        #expect(CommandError.editDistance("hedaer", "header") == 1)
        #expect(CommandError.editDistance("sned", "send") == 1)
        #expect(CommandError.editDistance("", "abc") == 3)
    }
}
