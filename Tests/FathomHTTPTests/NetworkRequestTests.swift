import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

@Suite struct NetworkRequestTests {
    let base = "https://api.example.com/v1"

    @Test func relativePathIsAppendedToTheBasePath() throws {
        #expect(
            try NetworkRequest.get("/users/42").prepared(baseURL: base).url.description
                == "https://api.example.com/v1/users/42")
        #expect(
            try NetworkRequest.get("users").prepared(baseURL: base + "/").url.description
                == "https://api.example.com/v1/users")
        #expect(try NetworkRequest.get("").prepared(baseURL: base).url.description == "https://api.example.com/v1")
    }

    @Test func fullURLIgnoresTheBase() throws {
        let url = try NetworkRequest.get("http://127.0.0.1:8080/x?a=1").query("b", 2).prepared(baseURL: base).url
        #expect(url.description == "http://127.0.0.1:8080/x?a=1&b=2")
    }

    @Test func queryValuesArePercentEncoded() throws {
        let request = NetworkRequest.get("/search")
            .query("q", "hello world")
            .query("emoji", "café ☕")
            .query("reserved", "a&b=c+d/e?f#g")
        let query = try request.prepared(baseURL: base).url.query
        #expect(query == "q=hello%20world&emoji=caf%C3%A9%20%E2%98%95&reserved=a%26b%3Dc%2Bd%2Fe%3Ff%23g")
    }

    @Test func typedAndRepeatedQueryItems() throws {
        let request = NetworkRequest.get("/items")
            .query("page", 2).query("ratio", 0.5).query("active", true)
            .query("id", [1, 2, 3]).query(flag: "verbose")
        let query = try request.prepared(baseURL: base).url.query
        #expect(query == "page=2&ratio=0.5&active=true&id=1&id=2&id=3&verbose")
        #expect(
            try request.removingQuery("id").prepared(baseURL: base).url.query == "page=2&ratio=0.5&active=true&verbose")
    }

    @Test func pathCharactersAreEncodedAndEscapesKept() throws {
        let url = try NetworkRequest.get("/files/my report.pdf").prepared(baseURL: base).url
        #expect(url.path == "/v1/files/my%20report.pdf")
        #expect(try NetworkRequest.get("/a%2Fb").prepared(baseURL: base).url.path == "/v1/a%2Fb")
    }

    @Test func bodyOnGetIsSentAsGivenButNotOnTrace() throws {
        // Some APIs (search engines) read a GET body, and curl sends one: so does the library.
        let get = try NetworkRequest.get("/search").body(jsonText: "{}").prepared(baseURL: base)
        #expect(get.method == .get && get.body != nil)
        #expect {
            try NetworkRequest(".", method: .trace).body(text: "x").prepared(baseURL: base)
        } throws: { error in
            (error as? NetworkError)?.description.contains("a TRACE request cannot carry a body") == true
        }
    }

    @Test func methodsAreCaseSensitive() {
        #expect(HTTPMethod(rawValue: "wHat").rawValue == "wHat")
        #expect(HTTPMethod(rawValue: "get") != .get)
    }

    @Test func relativePathWithoutBaseIsAnError() {
        #expect {
            try NetworkRequest.get("/users").prepared()
        } throws: { error in
            "\(error)".contains("relative path needs a base URL")
        }
    }

    @Test func jsonBodyFromEncodableSetsContentType() throws {
        struct User: Encodable { var name: String }
        let prepared = try NetworkRequest.post("/users").body(json: User(name: "Ada")).prepared(baseURL: base)
        #expect(prepared.headers[.contentType] == "application/json")
        #expect(try prepared.body?.data() == Data(#"{"name":"Ada"}"#.utf8))
    }

    @Test func jsonEncodingFailureIsReportedWhenPrepared() {
        let request = NetworkRequest.post("/x").body(json: ["bad": Double.nan])
        #expect {
            try request.prepared(baseURL: base)
        } throws: { error in
            "\(error)".contains("cannot encode")
        }
    }

    @Test func explicitContentTypeWins() throws {
        let prepared = try NetworkRequest.post("/x").header(.contentType, "application/vnd.api+json")
            .body(jsonText: "{}").prepared(baseURL: base)
        #expect(prepared.headers.values(for: .contentType) == ["application/vnd.api+json"])
    }

    @Test func formBodyEncodesSpacesAsPlus() throws {
        let prepared = try NetworkRequest.post("/login")
            .body(form: [("user", "ada lovelace"), ("pass", "p&ss=1"), ("n", 3)])
            .prepared(baseURL: base)
        #expect(prepared.headers[.contentType] == "application/x-www-form-urlencoded")
        #expect(String(decoding: try prepared.body!.data(), as: UTF8.self) == "user=ada+lovelace&pass=p%26ss%3D1&n=3")
    }

    @Test func multipartBodyHasFieldsAndFiles() throws {
        let form = MultipartForm(boundary: "XyZ")
            .field("title", "Holiday")
            .file("photo", filename: "a.png", contentType: "image/png", data: Data([0x89, 0x50]))
        let prepared = try NetworkRequest.post("/upload").body(multipart: form).prepared(baseURL: base)
        #expect(prepared.headers[.contentType] == "multipart/form-data; boundary=XyZ")
        let text = String(decoding: try prepared.body!.data(), as: UTF8.self)
        #expect(text.hasPrefix("--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n"))
        #expect(text.contains("name=\"photo\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"))
        #expect(text.hasSuffix("\r\n--XyZ--\r\n"))
    }

    @Test func fileBodyIsStreamedWithItsLengthAndType() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-\(UUID()).json").path
        try Data(#"{"a":1}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let prepared = try NetworkRequest.put("/doc").body(file: path).prepared(baseURL: base)
        #expect(prepared.body == .file(path: path, length: 7))
        #expect(prepared.headers[.contentType] == "application/json")
        #expect {
            try NetworkRequest.put("/doc").body(file: "/nonexistent/x.bin").prepared(baseURL: base)
        } throws: { error in
            "\(error)" == "cannot read '/nonexistent/x.bin': no such file"
        }
    }

    /// A form's file part streams: the body holds the text and names the file, and its chunks
    /// are the whole form, byte for byte, as `encoded()` holds it at once.
    @Test func aMultipartFileStreams() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-\(UUID()).bin").path
        let bytes = Data((0..<200_000).map { UInt8($0 % 251) })
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let form = MultipartForm(boundary: "XyZ").field("title", "Holiday")
            .file("photo", path: path, filename: "p.bin", contentType: "application/octet-stream")
        let prepared = try NetworkRequest.post("/upload").body(multipart: form).prepared(baseURL: base)
        guard case .pieces(let pieces, let length)? = prepared.body else {
            Issue.record("expected a streamed body, got \(String(describing: prepared.body))")
            return
        }
        #expect(pieces.count == 3)
        #expect(pieces.contains(.file(path: path, length: bytes.count, dropsLineBreaks: false)))
        var streamed = Data()
        for try await chunk in prepared.body!.chunks {
            #expect(chunk.count <= 64 * 1024)
            streamed.append(chunk)
        }
        let head =
            "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"photo\"; filename=\"p.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        #expect(streamed == Data(head.utf8) + bytes + Data("\r\n--XyZ--\r\n".utf8))
        #expect(streamed == (try form.encoded()))
        #expect(streamed.count == length)
    }

    /// curl's `-d a=1 -d @file`: pieces joined, the file's line breaks dropped as it streams,
    /// its length counted before it goes.
    @Test func aSequenceBodyDropsAFilesLineBreaksAsItStreams() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-\(UUID()).txt").path
        try Data("b=2\r\nc=3\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = NetworkRequest.post("/form").body(
            sequence: [.bytes(Data("a=1&".utf8)), .file(path: path, dropsLineBreaks: true), .bytes(Data("&d".utf8))],
            contentType: "application/x-www-form-urlencoded")
        let prepared = try request.prepared(baseURL: base)
        #expect(prepared.body?.length == 12)
        var streamed = Data()
        for try await chunk in prepared.body!.chunks { streamed.append(chunk) }
        #expect(String(decoding: streamed, as: UTF8.self) == "a=1&b=2c=3&d")
        #expect(try prepared.body!.data() == streamed)
        var digested = Data()
        try prepared.body!.forEachChunk { digested.append($0) }
        #expect(digested == streamed)
    }

    /// Prepared only to be shown, a `-d @file` body is not read to count its line breaks: its
    /// size stands for its length (a preview of a 2 GiB file costs a stat, not a read).
    @Test func aPreviewCountsAFileBySize() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-\(UUID()).txt").path
        try Data("b=2\r\nc=3\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = NetworkRequest.post("/form").body(
            sequence: [.file(path: path, dropsLineBreaks: true)], contentType: "application/x-www-form-urlencoded")
        #expect(try request.prepared(baseURL: base).body?.length == 6)
        let shown = try FileBody.$sizesOnly.withValue(true) { try request.prepared(baseURL: base) }
        #expect(shown.body?.length == 9)
    }

    /// The line breaks a `-d @file` drops, counted with `memchr`: equal to a byte-by-byte count on
    /// 1,000 generated buffers (empty, all breaks, none, breaks at either end, sizes across 4 KiB).
    @Test func lineBreaksCountAsAByteByByteCountDoes() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<1000 {
            let size = round < 4 ? round : Int(generator.next() % 5000)
            // Random bytes a word at a time, then line breaks planted at a density of 0–50%.
            var bytes = [UInt8](repeating: 0, count: size)
            bytes.withUnsafeMutableBytes { buffer in
                for start in stride(from: 0, to: size, by: 8) {
                    withUnsafeBytes(of: generator.next()) { word in
                        buffer[start..<min(start + 8, size)].copyBytes(from: word.prefix(min(8, size - start)))
                    }
                }
            }
            let plants = size * [0, 1, 10, 50, 100][round % 5] / 200
            for _ in 0..<plants where size > 0 {
                bytes[Int(generator.next() % UInt64(size))] = generator.next() % 2 == 0 ? 0x0A : 0x0D
            }
            let expected = bytes.filter { $0 == 0x0A || $0 == 0x0D }.count
            #expect(bytes.withUnsafeBytes { FileBody.lineBreaks(in: $0) } == expected, "round \(round)")
        }
    }

    @Test func headerInjectionIsRefused() {
        #expect(throws: NetworkError.self) {
            try NetworkRequest.get("/").header("X-Evil", "a\r\nInjected: 1").prepared(baseURL: base)
        }
        #expect(throws: NetworkError.self) {
            try NetworkRequest.get("/").header("Bad Name", "1").prepared(baseURL: base)
        }
    }
}
