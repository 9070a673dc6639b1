import FathomDemo
import FathomTestSupport
import Foundation
import Testing

@testable import FathomHTTP

@Suite struct AsyncHTTPClientTransportTests {
    let client: NetworkClient
    let base: String

    init() async throws {
        base = try await TestServer.baseURL()
        client = NetworkClient(baseURL: base)
    }

    private func echo(_ request: NetworkRequest, with client: NetworkClient? = nil) async throws -> EchoBody {
        let response = try await (client ?? self.client).send(request)
        #expect(response.status.code == 200)
        return try JSONDecoder().decode(EchoBody.self, from: response.body)
    }

    // MARK: Requests arrive as built

    @Test func queryEncodingSurvivesTheRoundTrip() async throws {
        let values = ["hello world", "café ☕", "a&b=c+d/e?f#g", "100%", ""]
        var request = NetworkRequest.get("/echo")
        for value in values { request = request.query("v", value) }
        let echo = try await echo(request.query("page", 2).query("on", true))
        #expect(echo.args.map { $0[1] } == values + ["2", "true"])
        #expect(echo.args.map { $0[0] } == Array(repeating: "v", count: values.count) + ["page", "on"])
    }

    @Test func everyBodyKindArrives() async throws {
        struct User: Encodable { var name: String }
        let json = try await echo(.post("/echo").body(json: User(name: "Ada")))
        #expect(json.body == #"{"name":"Ada"}"#)
        #expect(json.header("content-type") == ["application/json"])

        let raw = try await echo(.put("/echo").body(Data([0x01, 0x02, 0xFF]), contentType: "application/octet-stream"))
        #expect(raw.bodyLength == 3)

        let form = try await echo(.post("/echo").body(form: [("name", "Ada Lovelace"), ("lang", "en&fr")]))
        #expect(form.body == "name=Ada+Lovelace&lang=en%26fr")
        #expect(form.header("content-type") == ["application/x-www-form-urlencoded"])

        let multipart = try await echo(
            .post("/echo").body(
                multipart: MultipartForm().field("title", "Notes").file(
                    "doc", filename: "n.txt", contentType: "text/plain", data: Data("hi".utf8))))
        #expect(multipart.body?.contains("name=\"doc\"; filename=\"n.txt\"") == true)
        #expect(multipart.header("content-type").first?.hasPrefix("multipart/form-data; boundary=") == true)

        let text = try await echo(.patch("/echo").body(text: "plain words"))
        #expect(text.body == "plain words")
    }

    @Test func fileBodyIsStreamedFromDisk() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("upload-\(UUID()).txt").path
        let content = String(repeating: "0123456789abcdef", count: 20_000)  // 320 KB, several chunks
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let echo = try await echo(.post("/echo").body(file: path))
        #expect(echo.bodyLength == content.utf8.count)
        #expect(echo.body == content)
        #expect(echo.header("content-length") == ["\(content.utf8.count)"])
    }

    @Test func repeatedHeadersGoAndComeBack() async throws {
        let echo = try await echo(.get("/echo").header("X-Multi", "one").header("x-multi", "two"))
        #expect(echo.header("X-Multi") == ["one", "two"])
        let response = try await client.send(.get("/t/multi-header"))
        #expect(response.headers.values(for: .setCookie) == ["a=1", "b=2"])
    }

    @Test func responseCarriesVersionTimingAndTheSentRequest() async throws {
        let response = try await client.send(.get("/users/1"))
        #expect(response.httpVersion == "HTTP/1.1")
        #expect(response.timing.firstByte > .zero && response.timing.firstByte <= response.timing.total)
        #expect(response.request.url.description == base + "/users/1")
        #expect(response.request.headers[.acceptEncoding] == "gzip, deflate")
    }

    // MARK: Redirects

    @Test func redirectsAreFollowedAndRecorded() async throws {
        let response = try await client.send(.get("/redirect/3"))
        #expect(response.status.code == 200)
        #expect(response.redirects.map(\.path) == ["/redirect/3", "/redirect/2", "/redirect/1"])
        #expect(response.url.path == "/echo")
    }

    @Test func redirectLimitIsEnforced() async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(redirectLimit: 2))
        defer { Task { try await transport.shutdown() } }
        let limited = NetworkClient(baseURL: base, transport: transport)
        await #expect {
            try await limited.send(.get("/redirect/5"))
        } throws: { error in
            "\(error)".hasPrefix("too many redirects (more than 2)")
        }
        await #expect(throws: NetworkError.self) { try await client.send(.get("/t/redirect-loop")) }
    }

    @Test func authorizationIsDroppedWhenARedirectChangesHost() async throws {
        let same = try await echo(.get("/t/redirect-same").header(.authorization, "Bearer keep-me"))
        #expect(same.header("authorization") == ["Bearer keep-me"])
        let response = try await client.send(
            .get("/t/redirect-cross").header(.authorization, "Bearer drop-me").header("X-Other", "kept"))
        let cross = try JSONDecoder().decode(EchoBody.self, from: response.body)
        #expect(response.url.host == "localhost")
        #expect(cross.header("authorization").isEmpty)
        #expect(cross.header("x-other") == ["kept"])
    }

    @Test func seeOtherTurnsPostIntoGet() async throws {
        let echo = try await echo(.post("/t/see-other").body(jsonText: #"{"a":1}"#))
        #expect(echo.method == "GET")
        #expect(echo.bodyLength == 0)
        #expect(echo.header("content-type").isEmpty)
    }

    // MARK: Faults

    @Test func connectionRefusedNamesHostAndPort() async throws {
        let port = try Sockets.closedPort()
        await #expect {
            try await client.send(.get("http://127.0.0.1:\(port)/"))
        } throws: { error in
            "\(error)" == "connection refused to 127.0.0.1:\(port) — is the server running?"
        }
    }

    @Test func connectTimeoutFires() async throws {
        let listener = try Sockets.Unresponsive()
        defer { listener.close() }
        let transport = AsyncHTTPClientTransport(configuration: .init(connectTimeout: .milliseconds(300)))
        defer { Task { try await transport.shutdown() } }
        let start = ContinuousClock.now
        await #expect {
            try await NetworkClient(transport: transport).send(.get("http://127.0.0.1:\(listener.port)/"))
        } throws: { error in
            "\(error)" == "timed out after 300 ms connecting"
        }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func totalTimeoutFires() async throws {
        await #expect {
            try await client.send(.get("/slow").query("ms", 3000).timeout(.milliseconds(300)))
        } throws: { error in
            "\(error)" == "timed out after 300 ms waiting for the whole response"
        }
        await #expect {
            try await client.send(.get("/t/stream").query("chunks", 30).query("ms", 100).timeout(.milliseconds(400)))
        } throws: { error in
            if case NetworkError.timeout(.total, _) = error { return true }
            return false
        }
        // The timeout cancelled only the body's own child task: this task goes on sending.
        #expect(!Task.isCancelled)
        #expect(try await client.send(.get("/users/1")).status.code == 200)
    }

    /// In a batch each request's task is cancelled whole at its body's deadline: the trickling
    /// ones time out, the quick ones beside them answer, and the batch goes on.
    @Test func aBatchTimesOutTricklingBodies() async throws {
        let trickle = try NetworkRequest.get("/t/stream").query("chunks", 30).query("ms", 100)
            .timeout(.milliseconds(400)).prepared(baseURL: base)
        let quick = try NetworkRequest.get("/users/1").prepared(baseURL: base)
        var timedOut = 0
        var answered = 0
        let start = ContinuousClock.now
        let end = await client.send(BatchPlan(count: 6, maxConcurrent: 6)) { index in
            index.isMultiple(of: 2) ? trickle : quick
        } handle: { done in
            switch done.result {
            case .failure(.timeout(.total, _)): timedOut += 1
            case .success(let response) where response.status.code == 200: answered += 1
            default: Issue.record("unexpected \(done.result)")
            }
        }
        #expect(end.sent == 6)
        #expect(timedOut == 3 && answered == 3)
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(!Task.isCancelled)
    }

    @Test func cancellationMidBodyStopsPromptly() async throws {
        let start = ContinuousClock.now
        let task = Task { try await client.send(.get("/t/stream").query("chunks", 50).query("ms", 100)) }
        try await Task.sleep(for: .milliseconds(400))
        task.cancel()
        // The error says how long the request ran. A busy machine may start the task late, so
        // the figure is bounded by the test's own clock rather than by the sleep above.
        await #expect {
            try await task.value
        } throws: { error in
            guard case NetworkError.cancelled(let after) = error, let after else { return false }
            return after > .zero && after <= ContinuousClock.now - start
                && "\(error)".hasPrefix("cancelled after")
        }
        #expect(ContinuousClock.now - start < .seconds(3))
    }

    // MARK: Bodies

    @Test func gzipIsDecompressed() async throws {
        let response = try await client.send(.get("/gzip"))
        #expect(response.headers[.contentEncoding] == "gzip")
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.hasPrefix(#"{"gzipped":true"#))
    }

    @Test func decompressionBombIsRefused() async throws {
        await #expect {
            try await client.send(.get("/t/bomb"))
        } throws: { error in
            guard case NetworkError.bodyTooLarge(_, decompressed: true) = error else { return false }
            return "\(error)".contains("decompression bomb")
        }
    }

    @Test func bodyOverTheLimitIsAnError() async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(maxBodySize: 1 << 20))
        defer { Task { try await transport.shutdown() } }
        let small = NetworkClient(baseURL: base, transport: transport)
        await #expect {
            try await small.send(.get("/large").query("mb", 2))
        } throws: { error in
            "\(error)" == "response body exceeds the limit of 1 MiB"
        }
        #expect(try await small.send(.get("/large").query("mb", 0.5)).body.count > 500_000)
    }
}
