import FathomHTTP
import FathomJSON
import FathomTestSupport
import Foundation
import Testing

/// FathomHTTP's AWS Signature Version 4 beside botocore's, byte for byte: the same requests signed
/// at the same time with the same keys give the same `Authorization` (and, for S3, the same
/// `X-Amz-Content-SHA256`). The requests are generated: reserved characters and dot segments in
/// paths, repeated and empty query items, unicode, headers with runs of blanks and repeats,
/// empty, in-memory and file bodies, session tokens, S3 and other services.
@Suite struct SignatureV4OracleTests {
    /// Text made of the characters that canonical forms disagree on most.
    static func word(_ random: inout SeededGenerator) -> String {
        let pieces = [
            "a", "Z", "0", "-", "_", ".", "~", "%20", "%2F", "%25", "+", "!", "*", "'", "(", ")", "$", ",", ";",
            ":", "@", "%C3%A9", "%E2%82%AC", "x",
        ]
        return (0..<Int.random(in: 1...5, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            .joined()
    }

    static func path(_ random: inout SeededGenerator) -> String {
        let segments = (0..<Int.random(in: 0...4, using: &random)).map { _ -> String in
            switch Int.random(in: 0..<8, using: &random) {
            case 0: "."
            case 1: ".."
            case 2: ""
            default: word(&random)
            }
        }
        let path = "/" + segments.joined(separator: "/")
        return Bool.random(using: &random) && !path.hasSuffix("/") ? path + "/" : path
    }

    static func query(_ random: inout SeededGenerator) -> String? {
        guard Int.random(in: 0..<4, using: &random) > 0 else { return nil }
        let names = ["a", "b", "Action", "list-type", "x y", "é"]
        return (0..<Int.random(in: 1...5, using: &random)).map { _ -> String in
            let name = names.randomElement(using: &random)!.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return name + "="
            default: return name + "=" + word(&random)
            }
        }.joined(separator: "&")
    }

    struct Case {
        var request: PreparedRequest
        var service: String
        var region: String
        var credentials: AWSSignatureV4.Credentials
        var file: String?
    }

    static func cases(count: Int, in directory: String) throws -> [Case] {
        var random = SeededGenerator(seed: 29_35)
        var cases: [Case] = []
        for index in 0..<count {
            let scheme = Bool.random(using: &random) ? "https" : "http"
            let port: Int? = [nil, 443, 80, 8443, 9000].randomElement(using: &random)!
            let url = RequestURL(
                scheme: scheme,
                host: ["example.amazonaws.com", "s3.eu-west-1.amazonaws.com", "127.0.0.1"]
                    .randomElement(using: &random)!, port: port, path: path(&random), query: query(&random))
            let method: HTTPMethod = [.get, .post, .put, .delete, .head].randomElement(using: &random)!
            var headers = NetworkHeaders()
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let name = ["X-Custom", "x-custom", "Content-Type", "X-Amz-Meta-Note", "Accept", "User-Agent"]
                    .randomElement(using: &random)!
                let value = ["  spaced   out  ", "a,b", "text/plain", "v\(index)", "tab\there"].randomElement(
                    using: &random)!
                headers.add(NetworkHeaders.Name(name), value)
            }
            var body: PreparedBody?
            var file: String?
            switch Int.random(in: 0..<4, using: &random) {
            case 0: body = nil
            case 1: body = .bytes(Data())
            case 2: body = .bytes(Data(word(&random).utf8))
            default:
                let path = directory + "/body-\(index).bin"
                let data = Data((0..<Int.random(in: 1...70_000, using: &random)).map { UInt8($0 % 251) })
                try data.write(to: URL(fileURLWithPath: path))
                body = .file(path: path, length: data.count)
                file = path
            }
            let service = ["execute-api", "s3", "dynamodb", "sts"].randomElement(using: &random)!
            let token = Bool.random(using: &random) ? "FwoGZXIvYXdzEJr//////////wEaDN+token\(index)" : nil
            cases.append(
                Case(
                    request: PreparedRequest(method: method, url: url, headers: headers, body: body),
                    service: service,
                    region: ["us-east-1", "eu-west-1", "ap-southeast-2"].randomElement(using: &random)!,
                    credentials: .init(
                        accessKeyID: "AKIDEXAMPLE\(index)", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCY\(index)",
                        sessionToken: token),
                    file: file))
        }
        return cases
    }

    /// What botocore signs each case as: `Authorization` and `X-Amz-Content-SHA256`, a line each.
    static func oracle(_ file: String) throws -> [[String: String]] {
        let python = ProcessInfo.processInfo.environment["FATHOM_PYTHON"] ?? "python3"
        let script = """
            import base64, datetime, json, sys
            import botocore.auth
            from botocore.awsrequest import AWSRequest
            from botocore.config import Config
            from botocore.credentials import Credentials
            given = json.load(open(sys.argv[1]))
            fixed = datetime.datetime(2026, 11, 28, 1, 2, 3)
            botocore.auth.get_current_datetime = lambda *args, **kwargs: fixed
            out = []
            for case in given:
                body = None
                if case.get("file"):
                    body = open(case["file"], "rb")
                elif case.get("body") is not None:
                    body = base64.b64decode(case["body"])
                params = [(k, v) for k, v in case["query"]] if case["query"] is not None else None
                request = AWSRequest(method=case["method"], url=case["url"], data=body, params=params)
                for name, value in case["headers"]:
                    request.headers[name] = value
                if case["service"] == "s3":
                    if case.get("file"):
                        request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
                    signer = botocore.auth.S3SigV4Auth(
                        Credentials(case["key"], case["secret"], case["token"]), "s3", case["region"])
                else:
                    signer = botocore.auth.SigV4Auth(
                        Credentials(case["key"], case["secret"], case["token"]), case["service"], case["region"])
                signer.add_auth(request)
                out.append({
                    "authorization": request.headers["Authorization"],
                    "sha256": request.headers.get("X-Amz-Content-SHA256") or "",
                    "date": request.headers["X-Amz-Date"],
                    "token": request.headers.get("X-Amz-Security-Token") or "",
                })
            print(json.dumps(out))
            """
        let (status, text) = try Program.run([python, "-c", script, file])
        guard status == 0, let data = text.data(using: .utf8),
            let parsed = try JSONSerialization.jsonObject(with: data) as? [[String: String]]
        else { throw OracleFailure(text: text) }
        return parsed
    }

    struct OracleFailure: Error, CustomStringConvertible {
        var text: String
        var description: String { "botocore failed: \(text)" }
    }

    @Test func signaturesEqualBotocoresOnGeneratedRequests() async throws {
        let directory = NSTemporaryDirectory() + "fathom-sigv4-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases = try Self.cases(count: 400, in: directory)
        // 2026-11-28T01:02:03Z, as the oracle's clock.
        let now = Date(timeIntervalSince1970: 1_795_827_723)
        var given: [JSON] = []
        var ours: [PreparedRequest] = []
        for item in cases {
            var request = item.request
            try await AWSSignatureV4(region: item.region, service: item.service, credentials: item.credentials) {
                now
            }.authorize(&request)
            ours.append(request)
            let url = item.request.url
            let base = "\(url.scheme)://\(url.host)" + (url.port.map { ":\($0)" } ?? "") + url.path
            var query = JSON.null
            if let text = url.query {
                // Given to botocore decoded, as pairs: it encodes them as AWS asks.
                query = .array(
                    text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                        let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                        let value =
                            parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
                        return .array([.string(name), .string(value)])
                    })
            }
            var body = JSON.null
            if case .bytes(let data)? = item.request.body { body = .string(data.base64EncodedString()) }
            given.append(
                .object([
                    .init(key: "method", value: .string(item.request.method.rawValue)),
                    .init(key: "url", value: .string(base)), .init(key: "query", value: query),
                    .init(
                        key: "headers",
                        value: .array(
                            item.request.headers.map { .array([.string($0.name.rawName), .string($0.value)]) })),
                    .init(key: "body", value: body), .init(key: "file", value: item.file.map { .string($0) } ?? .null),
                    .init(key: "service", value: .string(item.service)),
                    .init(key: "region", value: .string(item.region)),
                    .init(key: "key", value: .string(item.credentials.accessKeyID)),
                    .init(key: "secret", value: .string(item.credentials.secretAccessKey)),
                    .init(key: "token", value: item.credentials.sessionToken.map { .string($0) } ?? .null),
                ]))
        }
        let file = directory + "/cases.json"
        try JSON.array(given).formatted(.compactText).write(toFile: file, atomically: true, encoding: .utf8)
        let expected = try Self.oracle(file)
        try #require(expected.count == cases.count)
        var differing = 0
        for (index, request) in ours.enumerated() {
            let botocore = expected[index]
            let same =
                request.headers[.authorization] == botocore["authorization"]
                && (request.headers["X-Amz-Content-SHA256"] ?? "") == botocore["sha256"]
                && request.headers["X-Amz-Date"] == botocore["date"]
                && (request.headers["X-Amz-Security-Token"] ?? "") == botocore["token"]
            if !same {
                differing += 1
                if differing <= 3 {
                    Issue.record(
                        """
                        case \(index) (\(cases[index].service) \(request.method) \(request.url)):
                          ours     \(request.headers[.authorization] ?? "none") \(request.headers["X-Amz-Content-SHA256"] ?? "")
                          botocore \(botocore["authorization"] ?? "none") \(botocore["sha256"] ?? "")
                        """)
                }
            }
        }
        #expect(differing == 0, "\(differing) of \(cases.count) signatures differ from botocore's")
        // The generator reached what it is for.
        #expect(cases.filter { $0.service == "s3" }.count > 50 && cases.filter { $0.file != nil }.count > 50)
        #expect(cases.filter { $0.credentials.sessionToken != nil }.count > 50)
    }
}
