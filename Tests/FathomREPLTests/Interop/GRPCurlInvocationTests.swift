import Testing

@testable import FathomREPL

/// grpcurl lines read as grpcurl reads them: options with one dash or two, `-opt=value`, headers,
/// several messages in `-d`, `list` and `describe`; what grpcurl would refuse is one line.
@Suite struct GRPCurlInvocationTests {
    @Test func aCallWithHeadersAndAMessage() throws {
        let invocation = try GRPCurlInvocation.parse([
            "-plaintext", "-H", "authorization: Bearer t", "--rpc-header=x-team:blue", "-d", #"{"id": 2}"#, "-v",
            "-max-time", "2.5", "127.0.0.1:50051", "pkg.Users/GetUser",
        ])
        #expect(invocation.plaintext)
        #expect(invocation.headers.map(\.name) == ["authorization", "x-team"])
        #expect(invocation.headers.map(\.value) == ["Bearer t", "blue"])
        #expect(invocation.address == "127.0.0.1:50051")
        #expect(invocation.verb == .call("pkg.Users/GetUser"))
        #expect(invocation.maxTime == 2.5)
        #expect(invocation.ignored == ["-v"])
        #expect(try invocation.request() == .json(#"{"id": 2}"#))
    }

    @Test func severalMessagesAreAnArray() throws {
        let invocation = try GRPCurlInvocation.parse(["-d", #" {"a": "}{"} {"a": 2}"#, "h:1", "pkg.S/M"])
        #expect(try invocation.request() == .json(#"[{"a": "}{"}, {"a": 2}]"#))
    }

    @Test func listAndDescribe() throws {
        #expect(try GRPCurlInvocation.parse(["-plaintext", "h:1", "list"]).verb == .list(nil))
        #expect(try GRPCurlInvocation.parse(["h:1", "list", "pkg.S"]).verb == .list("pkg.S"))
        #expect(try GRPCurlInvocation.parse(["h:1", "describe", "pkg.M"]).verb == .describe("pkg.M"))
    }

    @Test(arguments: [
        ["-plaintext"], ["h:1"], ["-nope", "h:1", "pkg.S/M"], ["-H", "no colon", "h:1", "pkg.S/M"],
        ["-d", "@", "h:1", "pkg.S/M"], ["-max-time", "soon", "h:1", "pkg.S/M"], ["h:1", "pkg.S/M", "extra"], ["-d"],
    ])
    func whatGRPCurlRefusesIsOneLine(_ words: [String]) {
        #expect(throws: CommandError.self) { try GRPCurlInvocation.parse(words) }
    }
}
