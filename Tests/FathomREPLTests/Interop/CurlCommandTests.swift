import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

@Suite struct CurlCommandTests {
    func curl(_ line: String) throws -> CurlInvocation {
        let words = try ShellWords.split(line).words
        return try CurlInvocation.parse(words) { path in Data("from \(path)\n".utf8) }
    }

    @Test func takesFlagsAsCurlDoes() throws {
        let post = try curl(#"-sSL -XPUT https://api.test/x -H 'A: 1' -d a=1 --data-raw @b -d@f -u ada:pw"#)
        #expect(post.method == .put)
        #expect(post.url == "https://api.test/x")
        #expect(
            post.headers.map { "\($0.name): \($0.value)" } == [
                "A: 1", "Content-Type: application/x-www-form-urlencoded",
            ])
        // The file is named, not read: it streams, line breaks dropped, when the request is sent.
        #expect(post.body == .data([.text("a=1"), .text("@b"), .file("f", binary: false)]))
        #expect(try curl("--data-binary @f http://api.test").body == .file("f"))
        #expect(try curl("-d @f http://api.test").body == .data([.file("f", binary: false)]))
        // In a -G URL the data is text: its file is read (up to the limit), line breaks dropped.
        #expect(try curl("-G -d @f http://api.test").url == "http://api.test?from f")
        #expect(post.user?.name == "ada" && post.user?.password == "pw")
        #expect(post.redirects == 50)
        #expect(post.outputFlags == ["-s", "-S"])

        let get = try curl("api.test/search -G --data-urlencode 'q=a b' --url-query page=2")
        #expect(get.method == .get)
        #expect(get.url == "http://api.test/search?page=2&q=a%20b")

        let json = try curl(#"--json '{"a":' --json '1}' http://api.test"#)
        #expect(json.method == .post)
        #expect(json.body == .text(#"{"a":1}"#))
        #expect(json.headers.map(\.name) == ["Content-Type", "Accept"])

        #expect(try curl("-I http://api.test").method == .head)
        #expect(try curl("-T up.bin http://api.test").url == "http://api.test/up.bin")
        #expect(
            try curl("-F name=Ada -F photo=@me.png http://api.test").body
                == .multipart([.field(name: "name", value: "Ada"), .file(name: "photo", path: "me.png")]))
        // As written: `-X wHat` goes as `wHat`, and `-X GET -d` is a GET with a body, as curl sends it.
        #expect(try curl("-X wHat http://api.test").method.rawValue == "wHat")
        let search = try curl("-X GET -d q=1 http://api.test/search")
        #expect(search.method == .get && search.body == .text("q=1"))
    }

    /// `-b FILE` sends the cookies of a Netscape cookie file that curl would send to the URL:
    /// domain (and subdomains when the file says so), path, secure only over https, not expired.
    @Test func aCookieFileSendsWhatMatchesTheURL() throws {
        let file = [
            "# Netscape HTTP Cookie File",
            "api.test\tFALSE\t/\tFALSE\t0\tsid\tabc",
            ".test\tTRUE\t/\tFALSE\t0\twide\t1",
            "#HttpOnly_api.test\tFALSE\t/v1\tFALSE\t0\tscoped\t2",
            "api.test\tFALSE\t/\tTRUE\t0\tsecure\t3",
            "api.test\tFALSE\t/\tFALSE\t1\texpired\t4",
            "other.test\tFALSE\t/\tFALSE\t0\telsewhere\t5",
            "sub.api.test\tFALSE\t/\tFALSE\t0\tsub\t6",
            "api.test\tFALSE\t/v1x\tFALSE\t0\tnear\t7",
        ].joined(separator: "\n")
        #expect(CurlInvocation.cookieFile(file, for: "http://api.test/v1/users") == "sid=abc; wide=1; scoped=2")
        #expect(CurlInvocation.cookieFile(file, for: "https://api.test/") == "sid=abc; wide=1; secure=3")
        #expect(CurlInvocation.cookieFile(file, for: "http://nowhere.example/") == "")
        let line = try ShellWords.split("-H 'A: 1' -b jar.txt -H 'B: 2' http://api.test/v1").words
        let sent = try CurlInvocation.parse(line) { _ in Data(file.utf8) }
        #expect(
            sent.headers.map { "\($0.name): \($0.value)" } == ["A: 1", "Cookie: sid=abc; wide=1; scoped=2", "B: 2"])
        let none = try CurlInvocation.parse(try ShellWords.split("-b jar.txt http://nowhere.example").words) { _ in
            Data(file.utf8)
        }
        #expect(none.headers.isEmpty)
        // Several URLs: each gets the cookies that match it.
        let two = try CurlInvocation.parse(
            try ShellWords.split("-b jar.txt --json '{}' http://nowhere.example https://api.test/").words
        ) { _ in Data(file.utf8) }
        #expect(two.headers(for: two.urls[0]).map(\.name) == ["Content-Type", "Accept"])
        #expect(
            two.headers(for: two.urls[1]).map { "\($0.name): \($0.value)" } == [
                "Cookie: sid=abc; wide=1; secure=3", "Content-Type: application/json", "Accept: application/json",
            ])
    }

    @Test func severalURLsAreEachSentWithTheSameOptions() throws {
        let line = try curl("--url-query a=1 http://a.test http://b.test/x?b=2 -H 'X: 1'")
        #expect(line.urls == ["http://a.test?a=1", "http://b.test/x?b=2&a=1"])
        #expect(line.headers.map(\.name) == ["X"])
        let upload = #expect(throws: CommandError.self) { try curl("-T f http://a.test http://b.test") }
        #expect(upload?.message == "-T with 2 URLs is not taken: Fathom uploads to one URL per line")
    }

    @Test func aFilePartKeepsItsTypeAndName() {
        #expect(RequestItem.fileSpec("me.png") == ("me.png", nil, nil))
        let spec = RequestItem.fileSpec(#"a;b.png;type=image/png;filename="avatar one.png""#)
        #expect(spec.path == "a;b.png" && spec.type == "image/png" && spec.filename == "avatar one.png")
    }

    @Test func refusesWhatItDoesNotTake() {
        let unknown = #expect(throws: CommandError.self) { try curl("--frobnicate http://api.test") }
        #expect(unknown?.message == "curl option --frobnicate is not taken")
        #expect(throws: CommandError.self) { try curl("http://a.test --next http://b.test") }
        #expect(throws: CommandError.self) { try curl("-d @- http://a.test") }
        let none = #expect(throws: CommandError.self) { try curl("-s") }
        #expect(none?.message == "the curl line has no URL")
    }

    @Test func takesClientCertificatesAsPEM() throws {
        let line = try curl(#"--cert 'c\:1.pem:s3cret' --key k.pem --cacert ca.pem --cert-type PEM https://api.test"#)
        #expect(line.certificate == "c:1.pem" && line.certificatePassword == "s3cret")
        #expect(line.key == "k.pem" && line.cacert == "ca.pem")
        #expect(try curl("-E c.pem https://api.test").certificatePassword == nil)
        let der = #expect(throws: CommandError.self) { try curl("--cert-type DER --cert c.der https://api.test") }
        #expect(der?.message == "curl option --cert-type DER is not taken: Fathom reads PEM files")
        #expect(try curl("--capath /etc/ssl/certs https://api.test").capath == "/etc/ssl/certs")
        let both = #expect(throws: CommandError.self) { try curl("--cacert ca.pem --capath certs https://api.test") }
        #expect(
            both?.message == "curl's --cacert and --capath together are not taken: Fathom trusts one file or one folder"
        )
    }

    @Test func aPastedBlockIsOneEntry() {
        var assembler = LineAssembler()
        #expect(assembler.add("curl 'http://a.test' \\") == nil)
        #expect(assembler.add("  -d '{") == nil)
        #expect(assembler.add("  \"a\": 1}'") == "curl 'http://a.test' \\\n  -d '{\n  \"a\": 1}'")
    }
}
