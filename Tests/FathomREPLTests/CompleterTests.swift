import Testing

@testable import FathomREPL

@Suite struct CompleterTests {
    let values: SessionSnapshot.Values = {
        var values = SessionSnapshot.Values()
        values.variableNames = ["token", "user_id"]
        values.paths = ["/users", "/users/1", "/users/1/todos"]
        values.environmentNames = ["dev", "staging"]
        return values
    }()

    func complete(_ line: String, files: [String] = []) -> [String] {
        Completer(values: values, listFiles: { prefix in files.filter { $0.hasPrefix(prefix) } }).complete(line)
            .candidates
    }

    @Test func commandsFromTheTable() {
        #expect(complete("hea") == ["header ", "head "])
        #expect(complete("").contains("send "))
    }

    @Test func subcommandsAndValues() {
        #expect(complete("auth b") == ["bearer ", "basic "])
        #expect(complete("auth oauth2 d") == ["device "])
        #expect(complete("auth oauth2 a") == ["authorization-code "])
        #expect(complete("auth draft oauth2 c") == ["client-credentials "])
        #expect(complete("auth apikey q") == ["query "])
        #expect(complete("auth d") == ["draft "])
        #expect(complete("decoder h") == ["hex "])
        #expect(complete("env use s") == ["staging"])
        #expect(complete("help sho") == ["show"])
    }

    /// `api share` takes an origin's URL: the session's request paths are no candidates.
    @Test func apiShareOffersNoPaths() {
        #expect(complete("api sh") == ["share "])
        #expect(complete("api share /us").isEmpty)
        #expect(complete("api unshare /us").isEmpty)
    }

    @Test func headerNamesThenMediaTypes() {
        #expect(complete("header content-t") == ["Content-Type: "])
        #expect(complete("header Content-Type: application/j") == ["application/json"])
        #expect(complete("default header X-Req") == ["X-Request-ID: "])
    }

    @Test func variablesPathsAndFiles() {
        #expect(complete("get /users/{{us") == ["/users/{{user_id}}"])
        #expect(complete("get /users/1") == ["/users/1", "/users/1/todos"])
        #expect(complete("body @pay", files: ["payload.json", "other"]) == ["@payload.json"])
        #expect(complete("post /upload photo@m", files: ["me.png"]) == ["photo@me.png"])
        #expect(complete("get /users Acc") == ["Accept:", "Accept-Encoding:", "Accept-Language:"])
    }

    @Test func commonPrefix() {
        #expect(Completer.commonPrefix(["/users/1", "/users/1/todos"]) == "/users/1")
        #expect(Completer.commonPrefix([]) == "")
    }
}
