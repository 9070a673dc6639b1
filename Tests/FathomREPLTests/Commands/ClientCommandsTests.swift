import FathomHTTP
import Testing

@testable import FathomREPL

@Suite struct TimeoutCommandTests {
    @Test func takesADurationOrOff() throws {
        #expect(try parse("timeout 1.5s") == TimeoutCommand(setting: .set(.milliseconds(1500))))
        #expect(try parse("timeout off") == TimeoutCommand(setting: .off))
        #expect(try parse("timeout") == TimeoutCommand(setting: .show))
    }
}

@Suite struct RedirectsCommandTests {
    @Test func takesACountOrOff() throws {
        #expect(try parse("redirects 0") == RedirectsCommand(setting: .set(0)))
        #expect(parseError("redirects -1")?.message == "invalid redirect count '-1'")
    }
}

@Suite struct LogCommandTests {
    @Test func takesADetailAndAFile() throws {
        #expect(try parse("log headers /tmp/wire.log") == LogCommand(detail: .headers, file: "/tmp/wire.log"))
    }
}

@Suite struct DecoderCommandTests {
    @Test func suggestsTheClosestMode() {
        let error = parseError("decoder jsn")
        #expect(error?.description == "error at column 9: unknown decoder option 'jsn' — did you mean 'json'?")
    }
}

@Suite struct MockCommandTests {
    @Test func takesAFileOrAStatus() throws {
        #expect(try parse("mock /users @users.json") == MockCommand(action: .file(path: "/users", file: "users.json")))
        #expect(try parse("mock /boom status 500") == MockCommand(action: .status(path: "/boom", code: 500)))
        #expect(try parse("mock off") == MockCommand(action: .off))
    }
}
