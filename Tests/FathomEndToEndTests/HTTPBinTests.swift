import Foundation
import Testing

/// Every command against httpbin on 127.0.0.1 (started by `make test` through scripts/with-httpbin.sh,
/// which sets FATHOM_HTTPBIN_URL). httpbin answers with what it received, so each test checks
/// what Fathom actually sent.
enum HTTPBin {
    static let baseURL = ProcessInfo.processInfo.environment["FATHOM_HTTPBIN_URL"]
}

@Suite(.enabled(if: HTTPBin.baseURL != nil, "needs FATHOM_HTTPBIN_URL: run through `make test`"))
struct HTTPBinTests {
    static var baseURL: String? { HTTPBin.baseURL }

    func run(_ script: String, environment: [String: String] = [:], directory: String? = nil) throws -> FathomBinary.Run
    {
        try FathomBinary.run([Self.baseURL!], script: script, environment: environment, directory: directory)
    }

    @Test func queryHeadersAndDefaults() throws {
        let result = try run(
            """
            default header X-Client: fathom-tests
            default query api-version=2
            path /get
            query page=2 tag=a tag=b flag
            header Accept: application/json
            send
            query -tag
            header -Accept
            default -X-Client
            get /get q=='two words' X-Trace:abc
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""page": "2""#))
        #expect(result.stdout.contains(#""tag": ["#))
        #expect(result.stdout.contains(#""api-version": "2""#))
        #expect(result.stdout.contains(#""X-Client": "fathom-tests""#))
        #expect(result.stdout.contains(#""q": "two words""#))
        #expect(result.stdout.contains(#""X-Trace": "abc""#))
        #expect(result.stdout.contains(#""User-Agent": "fathom/0.3.0""#))
        #expect(
            result.stdout.components(separatedBy: #""X-Client": "fathom-tests""#).count == 2,
            "removed default not sent again")
    }

    @Test func everyBodyKind() throws {
        let directory = NSTemporaryDirectory() + "fathom-bodies-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(#"{"from": "file"}"#.utf8).write(to: URL(fileURLWithPath: directory + "/payload.json"))
        try Data("photo bytes".utf8).write(to: URL(fileURLWithPath: directory + "/photo.txt"))
        let result = try run(
            """
            post /post name=Ada age:=36 tags:='["x"]'
            method PUT
            path /put
            body form a=1 b='two words'
            send
            body @payload.json
            send
            body multipart note=hello photo@photo.txt
            send
            body <<EOF
            line one
            line two
            EOF
            send
            body {"inline": [1,
              2]}
            method PATCH
            path /patch
            send
            body none
            delete /delete
            """, directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""age": 36"#))
        #expect(result.stdout.contains(#""form": {"#) && result.stdout.contains(#""b": "two words""#))
        #expect(result.stdout.contains(#""from": "file""#))
        #expect(result.stdout.contains(#""photo": "photo bytes""#))
        #expect(result.stdout.contains(#""note": "hello""#))
        #expect(result.stdout.contains(#""data": "line one\nline two""#))
        #expect(result.stdout.contains(#""inline": ["#))
        #expect(result.stdout.contains("\(Self.baseURL!)/delete"))
    }

    @Test func authenticationKinds() throws {
        let result = try run(
            """
            auth basic user:passwd
            get /basic-auth/user/passwd
            auth bearer abc.def.ghi
            get /bearer
            auth apikey header X-API-Key key-123456789012345
            get /headers
            auth apikey query api_key key-query-1234567890
            get /get
            auth none
            get /bearer
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""authenticated": true"#))
        #expect(result.stdout.contains(#""token": "abc.def.ghi""#) == false, "the bearer token is masked in the echo")
        #expect(result.stdout.contains(#""token": "••••""#))
        #expect(result.stdout.contains(#""X-Api-Key": "••••2345""#))
        #expect(result.stdout.contains("api_key=••••7890") || result.stdout.contains(#""api_key": "••••7890""#))
        #expect(result.stdout.contains("401 Unauthorized"))
        #expect(!result.stdout.contains("key-123456789012345"))
    }

    @Test func cookiesRedirectsStatusesAndTimeouts() throws {
        let result = try run(
            """
            show headers off
            get /cookies/set session==s3cr3t-cookie theme==dark
            cookies
            get /cookies
            cookies clear
            get /cookies
            redirects 1
            get /redirect/3
            redirects 5
            get /redirect/3
            get /status/418
            timeout 500ms
            get /delay/3
            timeout off
            get /gzip
            """)
        #expect(result.status == 1)
        #expect(result.stdout.contains(#""theme": "dark""#))
        #expect(result.stdout.contains("theme=dark  127.0.0.1/"))
        #expect(result.stdout.contains(#""cookies": {}"#), "cleared")
        #expect(result.stdout.contains("418 I'M A TEAPOT") || result.stdout.contains("418 I'm a teapot"))
        #expect(result.stdout.contains(#""gzipped": true"#))
        #expect(result.stdout.contains("3 redirects"))
        #expect(result.stderr.contains("too many redirects (more than 1)"))
        #expect(result.stderr.contains("timed out after 500 ms"))
    }

    @Test func decodersShowTextAndBinary() throws {
        let result = try run(
            """
            show headers off
            get /html
            get /xml
            get /bytes/64 seed==1
            get /image/png
            decoder hex
            get /robots.txt
            decoder raw
            get /robots.txt
            head /get
            options /get
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("<h1>Herman Melville - Moby-Dick</h1>"))
        #expect(result.stdout.contains("<?xml"))
        #expect(result.stdout.contains("binary body, 64 B, application/octet-stream"))
        #expect(result.stdout.contains("binary body,") && result.stdout.contains("image/png"))
        #expect(result.stdout.contains("|User-agent: *"))
        #expect(result.stdout.contains("Disallow: /deny"))
    }

    @Test func wireLogToAFileIsMasked() throws {
        let directory = NSTemporaryDirectory() + "fathom-log-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let planted = "httpbin-planted-secret-0042"
        let result = try run(
            """
            secret token
            log body \(directory)/wire.log
            auth bearer {{token}}
            post /anything X-Token:{{token}} value={{token}}
            log headers
            get /anything?t={{token}}
            log off
            get /get
            """, environment: ["FATHOM_SECRET_TOKEN": planted])
        #expect(result.status == 0, "\(result.stderr)")
        let log = try String(contentsOfFile: directory + "/wire.log", encoding: .utf8)
        #expect(log.contains("request") && log.contains("response"))
        for text in [log, result.stdout, result.stderr] {
            #expect(!text.contains(planted))
        }
        #expect(result.stderr.contains("response"), "log without a file goes to standard error")
    }

    @Test func mockInFrontOfTheRealServer() throws {
        let directory = NSTemporaryDirectory() + "fathom-mock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(#"{"mocked": "yes"}"#.utf8).write(to: URL(fileURLWithPath: directory + "/m.json"))
        let result = try run(
            """
            mock /anything @\(directory)/m.json
            get /anything
            get /get
            mock off
            get /anything
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""mocked": "yes""#))
        #expect(result.stdout.components(separatedBy: #""url": ""#).count == 3, "unmocked paths reach httpbin")
    }

    /// `auth aws-sigv4` signs what goes to httpbin with keys from the environment, masks the
    /// session token, saves a file that names no key, and that file replays from the environment
    /// (exit 3, the environment's fault, without it). A curl line with `--aws-sigv4` sends signed.
    @Test func awsSigningTakesItsKeysFromTheEnvironment() throws {
        let directory = NSTemporaryDirectory() + "fathom-aws-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let secret = "aws-planted-secret-access-key-0042"
        let token = "aws-planted-session-token-0042"
        let keys = ["AWS_ACCESS_KEY_ID": "AKIDE2E", "AWS_SECRET_ACCESS_KEY": secret, "AWS_SESSION_TOKEN": token]
        let result = try run(
            """
            auth aws-sigv4 --region eu-west-1 --service execute-api
            get /headers
            save \(directory)/aws.fathom
            """, environment: keys)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(#""Authorization": "AWS4-HMAC-SHA256 Credential=AKIDE2E/"#)
                && result.stdout.contains(
                    "/eu-west-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature="
                ),
            "\(result.stdout)")
        #expect(result.stdout.contains(#""X-Amz-Security-Token": "••••0042""#), "\(result.stdout)")
        for text in [result.stdout, result.stderr] {
            #expect(!text.contains(secret) && !text.contains(token) && !text.contains(String(token.prefix(20))))
        }
        let saved = try String(contentsOfFile: directory + "/aws.fathom", encoding: .utf8)
        #expect(saved.contains("auth aws-sigv4 --region eu-west-1 --service execute-api\n"), "\(saved)")
        #expect(!saved.contains(secret) && !saved.contains(token) && !saved.contains("AKIDE2E"))

        let replayed = try FathomBinary.run(["replay", directory + "/aws.fathom"], environment: keys)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        let without = try FathomBinary.run(
            ["replay", directory + "/aws.fathom"],
            environment: [
                "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "HOME": directory,
                "AWS_SHARED_CREDENTIALS_FILE": directory + "/none",
            ])
        #expect(without.status == 3, "\(without.stdout)")
        #expect(
            without.stdout.contains("secret 'aws_secret_access_key' has no value — no AWS keys"), "\(without.stdout)")

        let curl = try run(
            "curl --aws-sigv4 aws:amz:us-east-1:execute-api -u AKIDCURL:\(secret) \(Self.baseURL!)/headers")
        #expect(curl.status == 0, "\(curl.stderr)")
        #expect(curl.stdout.contains("Credential=AKIDCURL/"), "\(curl.stdout)")
        #expect(curl.stdout.contains("/us-east-1/execute-api/aws4_request") && !curl.stdout.contains(secret))
    }
    /// `base http+unix://…` reaches httpbin on a Unix socket; the socket is an API of its own, so
    /// its credentials do not reach httpbin on TCP (a second server); curl's `--unix-socket` line
    /// sends there, and its export runs in curl to the same answer.
    @Test func aUnixSocketIsAnAPIOfItsOwn() throws {
        let socket = try #require(ProcessInfo.processInfo.environment["FATHOM_HTTPBIN_SOCKET"])
        let encoded = socket.replacingOccurrences(of: "/", with: "%2F")
        let planted = "unix-socket-planted-token-0042"
        let result = try run(
            """
            base http+unix://\(encoded)
            auth bearer \(planted)
            get /headers
            get \(Self.baseURL!)/headers
            curl --unix-socket \(socket) 'http://localhost/anything/curl?q=1'
            export curl
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let answers = result.stdout.components(separatedBy: "HTTP/1.1 200 OK")
        try #require(answers.count == 4, "\(result.stdout)")
        #expect(
            answers[1].contains(#""Authorization": "Bearer ••••0042""#) && answers[1].contains(#""Host": "localhost""#))
        #expect(!answers[2].contains("Authorization"), "httpbin on TCP got the socket's credentials: \(answers[2])")
        #expect(answers[3].contains(#""url": "http://localhost/anything/curl?q=1""#), "\(answers[3])")
        #expect(!result.stdout.contains(planted) && !result.stderr.contains(planted))
        let exported = try #require(
            result.stdout.range(of: "curl \\\n").map { String(result.stdout[$0.lowerBound...]) })
        #expect(exported.contains("--unix-socket \(socket) 'http://localhost/anything/curl?q=1'"), "\(exported)")
        let (status, output) = try Program.run(["bash", "-c", exported])
        #expect(status == 0 && output.contains(#""url": "http://localhost/anything/curl?q=1""#), "\(output)")
    }
}
