import Crypto
import FathomDemo
import FathomHTTP
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The server the integration tests talk to: the demo API plus routes under `/t/` that exercise
/// redirects, signing, retries, de-duplication, streaming and decompression.
enum TestServer {
    static let signingSecret = Data("integration-signing-secret".utf8)

    private static let running: Task<LoopbackServer, any Error> = Task {
        try await LoopbackServer.start(router: makeRouter())
    }

    static func baseURL() async throws -> String { try await running.value.baseURL }
    static func port() async throws -> Int { try await running.value.port }

    /// Counts requests per key, so tests can see how many reached the server.
    actor Counters {
        private var counts: [String: Int] = [:]
        func increment(_ key: String) -> Int {
            counts[key, default: 0] += 1
            return counts[key]!
        }
        func count(_ key: String) -> Int { counts[key] ?? 0 }
    }

    /// 64 MiB of zeros, gzipped to about 64 KiB: a decompression bomb.
    static let bomb = Gzip.compress(Data(count: 64 << 20), level: 9)

    static func json(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func makeRouter() -> Router<BasicRequestContext> {
        let router = DemoAPI.makeRouter()
        let counters = Counters()

        router.get("/t/redirect-cross") { request, _ in
            let port = request.head.authority?.split(separator: ":").last ?? "80"
            return Response(status: .found, headers: [.location: "http://localhost:\(port)/echo"])
        }
        router.get("/t/redirect-same") { _, _ in Response(status: .found, headers: [.location: "/echo"]) }
        router.get("/t/redirect-loop") { _, _ in Response(status: .found, headers: [.location: "/t/redirect-loop"]) }
        router.post("/t/see-other") { _, _ in Response(status: .seeOther, headers: [.location: "/echo"]) }

        router.on("/t/signed", method: .post) { request, _ in
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 20))
            return verifySignature(request, body: body)
        }
        router.get("/t/signed") { request, _ in verifySignature(request, body: Data()) }

        for method in [HTTPRequest.Method.get, .post] {
            router.on("/t/flaky/:key", method: method) { request, context in
                let key = context.parameters.get("key") ?? ""
                let failures = request.uri.queryParameters["fail"].flatMap { Int($0) } ?? 1
                let attempt = await counters.increment(key)
                guard attempt > failures else {
                    var headers: HTTPFields = [:]
                    if let retryAfter = request.uri.queryParameters["retry_after"] {
                        headers[.retryAfter] = String(retryAfter)
                    }
                    return json(#"{"error":"try again"}"#, status: .serviceUnavailable, headers: headers)
                }
                return json("{\"attempts\":\(attempt)}")
            }
        }
        router.get("/t/hits/:key") { _, context in
            json("{\"hits\":\(await counters.count(context.parameters.get("key") ?? ""))}")
        }
        router.get("/t/count/:key") { request, context in
            let hits = await counters.increment(context.parameters.get("key") ?? "")
            let ms = request.uri.queryParameters["ms"].flatMap { Int($0) } ?? 0
            try await Task.sleep(for: .milliseconds(ms))
            return json("{\"hits\":\(hits)}")
        }
        router.get("/t/stream") { request, _ in
            let chunks = request.uri.queryParameters["chunks"].flatMap { Int($0) } ?? 10
            let ms = request.uri.queryParameters["ms"].flatMap { Int($0) } ?? 100
            return Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: .init { writer in
                    for index in 0..<chunks {
                        try await writer.write(ByteBuffer(string: "chunk \(index)\n"))
                        try await Task.sleep(for: .milliseconds(ms))
                    }
                    try await writer.finish(nil)
                })
        }
        // Server-sent events written one byte at a time, with CRLF, CR and LF line ends, a
        // comment, multi-line data and a last event the stream ends before dispatching.
        router.get("/t/sse-trickle") { _, _ in
            let text =
                ": hello\r\nevent: a\r\ndata: {\"n\": 1}\r\n\r\ndata: two\rdata: lines\r\rid: 9\ndata: {\"n\": 3}\n\ndata: dropped"
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: .init { writer in
                    for byte in text.utf8 {
                        try await writer.write(ByteBuffer(bytes: [byte]))
                        try await Task.sleep(for: .milliseconds(1))
                    }
                    try await writer.finish(nil)
                })
        }
        // Server-sent events until the client goes: one every 20 ms.
        router.get("/t/sse-endless") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: .init { writer in
                    var n = 0
                    while true {
                        n += 1
                        try await writer.write(ByteBuffer(string: "data: \(n)\n\n"))
                        try await Task.sleep(for: .milliseconds(20))
                    }
                })
        }
        router.get("/t/bomb") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/octet-stream", .contentEncoding: "gzip"],
                body: .init(byteBuffer: ByteBuffer(data: bomb)))
        }
        router.get("/t/set-cookie") { _, _ in
            var headers: HTTPFields = [:]
            headers.append(HTTPField(name: .setCookie, value: "a=1; Path=/"))
            headers.append(HTTPField(name: .setCookie, value: "b=2; Path=/"))
            return Response(status: .ok, headers: headers)
        }
        router.get("/t/multi-header") { _, _ in
            var headers: HTTPFields = [:]
            headers.append(HTTPField(name: .setCookie, value: "a=1"))
            headers.append(HTTPField(name: .setCookie, value: "b=2"))
            return Response(status: .ok, headers: headers)
        }
        return router
    }

    /// Rebuilds the string to sign from what arrived and checks the HMAC, independently of the client code.
    static func verifySignature(_ request: Request, body: Data) -> Response {
        guard let date = request.headers[HTTPField.Name("X-Fathom-Date")!],
            let header = request.headers[HTTPField.Name("X-Fathom-Signature")!],
            let signature = header.split(separator: ",").first(where: { $0.hasPrefix("signature=") })?
                .dropFirst("signature=".count),
            let mac = Data(base64Encoded: String(signature))
        else {
            return json(#"{"error":"unsigned"}"#, status: .unauthorized)
        }
        let bodyHash = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        let target = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
        let text = "\(request.method.rawValue)\n\(target)\n\(date)\n\(bodyHash)"
        let valid = HMAC<SHA256>.isValidAuthenticationCode(
            mac, authenticating: Data(text.utf8), using: SymmetricKey(data: signingSecret))
        return valid ? json(#"{"verified":true}"#) : json(#"{"error":"bad signature"}"#, status: .unauthorized)
    }
}

/// What `/echo` returns.
struct EchoBody: Decodable {
    var method: String
    var path: String
    var query: String
    var args: [[String]]
    var headers: [[String]]
    var body: String?
    var bodyLength: Int

    func header(_ name: String) -> [String] {
        headers.filter { $0[0].lowercased() == name.lowercased() }.map { $0[1] }
    }
}
