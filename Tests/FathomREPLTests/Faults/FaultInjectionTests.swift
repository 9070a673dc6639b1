import FathomDemo
import FathomHTTP
import FathomTestSupport
import Foundation
import Testing

@testable import FathomREPL

/// A hostile server, one fault per path, against a session on the real network transport: each
/// fault is one clear line (a sentence, no library value), the session goes on, and the next
/// request works.
@Suite struct FaultInjectionTests {
    static let okBody = #"{"ok":true}"#

    /// The faults, by path.
    static func script(_ path: String, _ head: String) -> FaultServer.Action {
        switch path {
        case "/ok": return .response(headers: ["Content-Type: application/json"], body: okBody)
        case "/reset": return .reset
        case "/close-early": return .writeThenClose(Data("HTTP/1.1 200".utf8))
        case "/short-body":
            return .writeThenClose(
                FaultServer.Action.raw("200 OK", headers: ["Content-Length: 100"], body: Data("0123456789".utf8)))
        case "/trickle":
            return .trickle(
                head: FaultServer.Action.raw("200 OK", headers: ["Content-Length: 1000"]),
                body: Data(repeating: 0x61, count: 1000), chunk: 1, interval: .milliseconds(50))
        case "/bad-status": return .writeThenClose(Data("HTTX/9.9 ??? Nope\r\n\r\n".utf8))
        case "/two-lengths":
            return .write(
                FaultServer.Action.raw(
                    "200 OK", headers: ["Content-Length: 5", "Content-Length: 7"], body: Data("hello".utf8)),
                keepAlive: false)
        case "/bad-chunk":
            return .writeThenClose(
                FaultServer.Action.raw(
                    "200 OK", headers: ["Transfer-Encoding: chunked"], body: Data("zz\r\nhello\r\n0\r\n\r\n".utf8)))
        case "/bomb":
            let bomb = Gzip.compress(Data(count: 64 << 20), level: 9)
            return .write(
                FaultServer.Action.raw(
                    "200 OK", headers: ["Content-Encoding: gzip", "Content-Length: \(bomb.count)"], body: bomb),
                keepAlive: true)
        case "/bad-gzip":
            return .response(headers: ["Content-Encoding: gzip"], body: "this is not gzip at all, not even close")
        case "/loop": return .response("302 Found", headers: ["Location: /loop"])
        case "/no-content-with-body":
            // A 204 must not have a body: this one does, and says keep-alive.
            return .write(
                FaultServer.Action.raw("204 No Content", headers: []) + Data("surprise".utf8), keepAlive: true)
        case "/then-close":
            // Promises keep-alive, then closes: the next request on that connection finds it gone.
            return .writeThenClose(
                FaultServer.Action.raw(
                    "200 OK", headers: ["Connection: keep-alive", "Content-Length: 2"], body: Data("ok".utf8)))
        case "/huge-head":
            return .response(headers: ["X-Big: " + String(repeating: "b", count: 200_000)], body: "x")
        default: return .response("404 Not Found", body: "no such fault")
        }
    }

    func session(_ server: FaultServer) async -> Executor {
        let executor = Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:]))
        _ = await executor.run("base \(server.baseURL)")
        return executor
    }

    /// The one line the session shows for a failed line.
    func errorLine(_ result: CommandResult) -> String? {
        let failures = result.outputs.compactMap { output -> String? in
            guard case .failure(let failure) = output else { return nil }
            return ErrorRenderer().line(failure)
        }
        return failures.count == 1 ? failures[0] : nil
    }

    @Test(
        arguments: [
            ("/reset", "reset the connection"),
            ("/close-early", "closed the connection"),
            ("/short-body", "connection closed before the response was complete"),
            ("/bad-status", "127.0.0.1"),
            ("/two-lengths", "127.0.0.1"),
            ("/bad-chunk", "127.0.0.1"),
            ("/bomb", "possible decompression bomb"),
            ("/bad-gzip", "is not valid gzip or deflate data"),
            ("/loop", "too many redirects"),
            ("/huge-head", "127.0.0.1"),
        ])
    func aFaultIsOneClearLineAndTheNextRequestWorks(path: String, words: String) async throws {
        let server = try FaultServer(script: Self.script)
        defer { server.stop() }
        let executor = await session(server)
        let result = await executor.run("get \(path)")
        #expect(result.outcome == .failed)
        let line = try #require(errorLine(result), "one failure for \(path): \(result.outputs)")
        #expect(line.contains(words), "\(path): \(line)")
        #expect(!line.contains("\n"), "\(path): one line")
        for raw in ["HTTPClientError", "NIO", "Error(", "Error.", "(\"", "inflationError", "truncatedData"] {
            #expect(!line.contains(raw), "\(path): a sentence, not a library value: \(line)")
        }
        let next = await executor.run("get /ok")
        #expect(next.outcome == .succeeded, "\(path): the next request works")
        #expect(next.response?.response.body == Data(Self.okBody.utf8))
    }

    @Test func aSlowBodyTimesOutAsOneLine() async throws {
        let server = try FaultServer(script: Self.script)
        defer { server.stop() }
        let executor = await session(server)
        _ = await executor.run("timeout 300ms")
        let result = await executor.run("get /trickle")
        #expect(errorLine(result)?.contains("timed out after 300 ms") == true, "\(result.outputs)")
        _ = await executor.run("timeout off")
        #expect(await executor.run("get /ok").outcome == .succeeded)
    }

    /// A body where none belongs, or a kept-alive connection closed under the client: an
    /// idempotent request is sent again on a new connection, as curl does — every time.
    @Test(arguments: ["/no-content-with-body", "/then-close"])
    func aConnectionLeftUnusableDoesNotFailTheNextRequest(path: String) async throws {
        let server = try FaultServer(script: Self.script)
        defer { server.stop() }
        let executor = await session(server)
        for round in 0..<10 {
            let first = await executor.run("get \(path)")
            #expect(first.outcome == .succeeded, "round \(round): \(first.outputs)")
            let next = await executor.run("get /ok")
            #expect(next.outcome == .succeeded, "round \(round): \(next.outputs)")
        }
    }

    @Test func aControlCharacterInAHeaderIsASentence() async throws {
        let server = try FaultServer(script: Self.script)
        defer { server.stop() }
        let executor = await session(server)
        let result = await executor.run("get /ok X-Bad:a\u{1}b")
        let line = try #require(errorLine(result))
        #expect(line == "error: invalid request: header 'X-Bad' has a control character (U+0001) in its value")
        #expect(server.requests.isEmpty, "nothing was sent")
    }

    /// A redirect to another origin carries none of the session's credentials.
    @Test func aCrossOriginRedirectDropsEveryCredential() async throws {
        let landing = try FaultServer { _, _ in .response(body: "landed") }
        defer { landing.stop() }
        let origin = try FaultServer { path, _ in
            path == "/away"
                ? .response("302 Found", headers: ["Location: \(landing.baseURL)/landing"]) : .response(body: "here")
        }
        defer { origin.stop() }
        let executor = await session(origin)
        for line in [
            "secret token = tok-5e3c9a1f77", "auth apikey header X-API-Key key-8d2b6c4e11",
            "header X-Token: {{token}}", "header X-Trace: visible", "path /away", "send",
        ] {
            #expect(await executor.run(line).outcome == .succeeded, "\(line)")
        }
        let sent = try #require(origin.requests.first)
        #expect(sent.contains("key-8d2b6c4e11") && sent.contains("tok-5e3c9a1f77"), "the origin gets them")
        let landed = try #require(landing.requests.first)
        #expect(!landed.contains("key-8d2b6c4e11"))
        #expect(!landed.contains("tok-5e3c9a1f77"))
        #expect(!landed.lowercased().contains("x-api-key"))
        #expect(landed.contains("X-Trace: visible"), "an ordinary header still goes")
    }

    /// Basic credentials the session made are masked in every spelling, the base64 one too.
    @Test func basicCredentialsAreMaskedAsBase64Too() async throws {
        let echo = try FaultServer { _, head in .response(body: head) }
        defer { echo.stop() }
        let executor = await session(echo)
        _ = await executor.run("secret token = sk-9f8e7d6c5b")
        _ = await executor.run("auth basic ada:{{token}}")
        let result = await executor.run("get /echo")
        let text = OutputPrinterCapture.render(result.outputs, redactor: executor.redactor)
        let base64 = Data("ada:sk-9f8e7d6c5b".utf8).base64EncodedString()
        #expect(echo.requests.first?.contains(base64) == true, "the server got the credentials")
        #expect(!text.contains(base64), "the echo shows them masked")
        #expect(!text.contains("sk-9f8e7d6c5b"))
    }
}

/// What a result looks like on a terminal, as plain text.
enum OutputPrinterCapture {
    static func render(_ outputs: [Output], redactor: Redactor) -> String {
        let renderer = OutputRenderer(palette: Palette(enabled: false), redactor: redactor)
        return outputs.map { renderer.render($0).text }.joined()
    }
}
