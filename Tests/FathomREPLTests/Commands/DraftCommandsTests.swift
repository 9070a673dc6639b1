import FathomHTTP
import Testing

@testable import FathomREPL

@Suite struct PathCommandTests {
    @Test func takesAPathOrURL() throws {
        #expect(try parse("path /users/{{id}}") == PathCommand(target: "/users/{{id}}"))
        #expect(parseError("path")?.message == "missing a path or URL")
    }
}

@Suite struct CdCommandTests {
    @Test func movesLikeADirectory() throws {
        #expect(try parse("  cd ..") == CdCommand(argument: ".."))
        #expect(try parse("cd") == CdCommand(argument: "/"))
    }
}

@Suite struct MethodCommandTests {
    @Test func uppercasesTheMethod() throws {
        #expect(try parse("method post") == MethodCommand(method: .post))
        #expect(try parse("method") == MethodCommand(method: nil))
        #expect(parseError("method p0st")?.message == "invalid method 'p0st'")
    }
}

@Suite struct QueryCommandTests {
    @Test func addsAndRemovesItems() throws {
        #expect(
            try parse("query page=2 -sort flag")
                == QueryCommand(edits: [
                    .add(name: "page", value: "2"), .remove("sort"), .add(name: "flag", value: nil),
                ]))
        #expect(try parse("query") == QueryCommand(edits: []))
    }
}

@Suite struct HeaderCommandTests {
    @Test func setsAndRemovesHeaders() throws {
        #expect(
            try parse("header Accept: application/json; q=1")
                == HeaderCommand(edits: [.set(name: "Accept", value: "application/json; q=1")]))
        #expect(try parse("header -Accept -X-Trace") == HeaderCommand(edits: [.remove("Accept"), .remove("X-Trace")]))
    }

    @Test func pointsAtABadHeaderName() {
        let error = parseError("header Bad Name: x")
        #expect(error?.message == "invalid character ' ' in header name 'Bad Name'")
        #expect(error?.column == 11)
    }
}

@Suite struct BodyCommandTests {
    @Test func parsesEveryKindOfBody() throws {
        #expect(try parse(#"body {"name": "Ada"}"#) == BodyCommand(body: .text(#"{"name": "Ada"}"#)))
        #expect(try parse("body @payload.json") == BodyCommand(body: .file("payload.json")))
        #expect(try parse("body none") == BodyCommand(body: BodySpec.none))
        #expect(
            try parse("body form a=1 b='two words'")
                == BodyCommand(body: .form([.init(name: "a", value: "1"), .init(name: "b", value: "two words")])))
        #expect(
            try parse("body json name=Ada age:=36")
                == BodyCommand(body: .json([.field(name: "name", value: "Ada"), .rawJSON(name: "age", json: "36")])))
        #expect(
            try parse("body multipart note=hi photo@me.png")
                == BodyCommand(
                    body: .multipart([.field(name: "note", value: "hi"), .file(name: "photo", path: "me.png")])))
        #expect(try parse("body <<EOF\nline one\nline two\nEOF") == BodyCommand(body: .text("line one\nline two")))
        #expect(try parse("body") == BodyCommand(body: nil))
    }
}

@Suite struct SendCommandTests {
    @Test func takesTheBatchFlagsOrAWebSocketMessage() throws {
        #expect(try parse("send") == SendCommand())
        // Words that are not flags are a message for the open WebSocket (`ws`).
        #expect(try parse("send now") == SendCommand(message: .text("now")))
        let extra = parseError("send --repeat 2 now")
        #expect(extra?.column == 17)
        #expect(extra?.message == "send takes no 'now'")
        #expect(
            try parse("send --repeat 5 -c 2 --rate 600/m")
                == SendCommand(batch: BatchOptions(count: 5, concurrency: 2, rate: 10)))
        #expect(parseError("send --repeat 0")?.message == "--repeat takes a whole number above 0, not '0'")
        #expect(parseError("send --rate fast")?.hint == "write 50/s or 600/m")
        #expect(parseError("send -c")?.message == "-c needs a value")
    }
}

@Suite struct ShowCommandTests {
    @Test func namesWhatToShow() throws {
        #expect(try parse("show") == ShowCommand(target: .request))
        #expect(try parse("show #3") == ShowCommand(target: .response(.number(3))))
        #expect(try parse("show @3") == ShowCommand(target: .response(.archived(3))))
        #expect(try parse("show headers off") == ShowCommand(target: .headers(false)))
    }
}

@Suite struct OneLinerCommandTests {
    @Test func parsesHTTPieItems() throws {
        #expect(
            try parse("post /users page==2 X-Trace:1 Accept: name=Ada meta:='{\"a\":1}' f@x.txt")
                == OneLinerCommand(
                    method: .post, target: "/users",
                    items: [
                        .query(name: "page", value: "2"), .header(name: "X-Trace", value: "1"), .removeHeader("Accept"),
                        .field(name: "name", value: "Ada"), .rawJSON(name: "meta", json: #"{"a":1}"#),
                        .file(name: "f", path: "x.txt"),
                    ]))
        #expect(
            try parse("get page==2")
                == OneLinerCommand(method: .get, target: nil, items: [.query(name: "page", value: "2")]))
        #expect(
            try parse("delete http://h:8080/a")
                == OneLinerCommand(method: .delete, target: "http://h:8080/a", items: []))
        #expect(try parse("get users") == OneLinerCommand(method: .get, target: "users", items: []))
        #expect(try parse("get /users # all of them") == OneLinerCommand(method: .get, target: "/users", items: []))
        // On GET and HEAD a body field is almost always a slip for `name==value`: refused at its column.
        #expect(parseError("get /users name=Ada")?.column == 12)
        #expect(parseError("head /users f@x.txt")?.message == "a HEAD one-liner takes no body fields: 'f@x.txt' is one")
    }

    @Test func pointsAtABadItem() {
        #expect(parseError("get /u ok 'bad item'")?.column == 8)
    }

    @Test func isOneSpecPerMethod() {
        #expect(OneLinerCommand.specs.map(\.name) == OneLinerCommand.methods)
    }
}

@Suite struct OneLinerSelfContainedTests {
    /// URLs without a scheme, as HTTPie reads them; a dotted name alone stays a path.
    @Test(arguments: [
        ("get localhost:8765/uuid", "http://localhost:8765/uuid"), ("get :3000/x", "http://localhost:3000/x"),
        ("get :/x", "http://localhost/x"), ("get localhost/path", "http://localhost/path"),
        ("get 127.0.0.1:9/y", "http://127.0.0.1:9/y"), ("get api.example.com/v1", "http://api.example.com/v1"),
        ("get example.com:8080", "http://example.com:8080"), ("get users.json", "users.json"), ("get /users", "/users"),
        ("get users/1", "users/1"),
    ])
    func aURLWithoutItsSchemeIsAURL(line: String, target: String) throws {
        let command = try #require(try parse(line, as: OneLinerCommand.self))
        #expect(command.target == target)
        #expect(command.items.isEmpty, "not read as a header `localhost: 8765/uuid`")
    }

    /// A one-liner with a path is one request: nothing from the draft before rides along.
    @Test func aOneLinerReplacesTheDraft() async throws {
        let transport = MockTransport()
        transport.register("/", .json("{}"))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        for line in [
            "base http://a.test", "header X-Api-Key: k-0123456789", "query page=2", "body {\"a\": 1}",
            "auth draft bearer t-0123456789", "get /x X-Trace:1", "get /y",
        ] {
            #expect(await executor.run(line).outcome == .succeeded, "\(line)")
        }
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].headers[NetworkHeaders.Name("X-Trace")] == "1")
        for request in requests {
            #expect(request.headers[NetworkHeaders.Name("X-Api-Key")] == nil)
            #expect(request.headers[.authorization] == nil)
            #expect(request.url.query == nil && request.body == nil)
        }
        #expect(requests[1].headers[NetworkHeaders.Name("X-Trace")] == nil)
        // Without a path it sends the draft as it is, with this method.
        _ = await executor.run("header X-Keep: yes")
        _ = await executor.run("delete")
        #expect(transport.requests.last?.method == .delete)
        #expect(transport.requests.last?.headers[NetworkHeaders.Name("X-Keep")] == "yes")
    }
}
