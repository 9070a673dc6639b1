import FathomTestSupport
import Foundation
import Testing

/// Input made to hurt: control characters from outside, files too large to hold, an alias bomb,
/// imports built to be quadratic. Each gets a bounded, one-line answer.
@Suite(.serialized) struct HostileFilesAndTextTests {
    static let evil = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[8m\u{0}\u{9B}31m"

    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "fathom-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Bytes that would drive a terminal: below 0x20 other than tab and line feed, DEL, C1.
    static func drivingBytes(_ text: String) -> [String] {
        var found: [String] = []
        var afterC2 = false
        for byte in text.utf8 {
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F
                || (afterC2 && (0x80...0x9F).contains(byte))
            {
                found.append(String(format: "%02x", byte))
            }
            afterC2 = byte == 0xC2
        }
        return found
    }

    /// Every escape in colored output is one of Fathom's colors: `ESC [ digits ; … m`.
    static func foreignEscapes(_ text: String) -> Int {
        var count = 0
        var rest = Substring(text)
        while let escape = rest.firstIndex(of: "\u{1B}") {
            let after = rest[rest.index(after: escape)...]
            let sgr = after.prefix { $0 != "m" }
            if !(after.first == "[" && sgr.dropFirst().allSatisfy { $0.isNumber || $0 == ";" }
                && sgr.count < after.count)
            {
                count += 1
            }
            rest = after
        }
        return count
    }

    @Test func noControlCharacterFromOutsideReachesTheTerminal() throws {
        let evil = Self.evil
        let server = try FaultServer { path, _ in
            switch path {
            case "/status": .response("200 OK\(evil)", body: "status\n")
            case "/header": .response(headers: ["X-Evil: a\(evil)b"], body: "header\n")
            default: .response(headers: ["Content-Type: text/plain"], body: "body \(evil) end\n")
            }
        }
        // Without `;`, which would end a curl line's command.
        let word = "\u{1B}[2J\u{07}\u{0}\u{9B}x"

        let spec = directory + "/evil.json"
        let title = evil.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }
            .joined()
        try
            #"{"openapi": "3.1.0", "info": {"title": "API \#(title)", "version": "1"}, "paths": {"/x": {"get": {"summary": "S \#(title)", "responses": {"200": {"description": "ok"}}}}}}"#
            .write(toFile: spec, atomically: true, encoding: .utf8)
        let script = """
            base \(server.baseURL)
            log body
            get /x
            log off
            get /status
            get /header
            spec \(spec)
            describe GET /x
            curl --evil\(word) \(server.baseURL)/
            load 'evil\(evil).fathom'
            body @'evil\(evil).json'
            send
            diff
            """
        for color in ["never", "always"] {
            let run = try FathomBinary.run(["--color", color], script: script, directory: directory)
            let output = run.stdout + run.stderr
            #expect(output.contains("body ␛]0;pwned␇␛[2J␛[8m␀\\x9b31m end"), "\(output)")
            #expect(output.contains("loaded API ␛]0;pwned␇"))
            #expect(output.contains("curl option --evil␛[2J␇␀\\x9bx is not taken"))
            #expect(output.contains("cannot load evil␛]0;pwned␇"))
            if color == "never" {
                #expect(Self.drivingBytes(output) == [], "\(color): \(Self.drivingBytes(output))")
            } else {
                #expect(Self.drivingBytes(output).allSatisfy { $0 == "1b" })
                #expect(Self.foreignEscapes(output) == 0)
                #expect(output.contains("\u{1B}[1;32m"), "colors are still there")
            }
        }

        // Asked for as it is: the body reaches the terminal exactly.
        let raw = try FathomBinary.run(["--color", "never"], script: "base \(server.baseURL)\ndecoder raw\nget /x\n")
        #expect(raw.stdout.contains("body \(evil) end"))
    }

    /// The peak resident memory of a process, sampled from /proc until it ends, in MiB.
    static func peakMemory(of process: Process) -> Int {
        var peak = 0
        while process.isRunning {
            let status =
                (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                let kilobytes =
                    Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
                peak = max(peak, kilobytes / 1024)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return peak
    }

    /// Runs `fathom` on `script`; its status, output, and peak memory in MiB.
    func measured(_ script: String) throws -> (status: Int32, output: String, peak: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FathomBinary.binary)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let input = Pipe()
        let output = directory + "/out-\(UUID().uuidString).txt"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = process.standardOutput
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let peak = Self.peakMemory(of: process)
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOfFile: output, encoding: .utf8), peak)
    }

    /// A 2 GiB file goes up as a body, as a multipart part and from a curl line, in flat memory:
    /// read as it is sent, never held.
    @Test func aTwoGigabyteUploadRunsInFlatMemory() throws {
        let server = try DemoServerProcess()
        let size = 2 << 30
        let big = directory + "/big.bin"
        _ = FileManager.default.createFile(atPath: big, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: UInt64(size))  // sparse: no disk used
        try handle.close()
        // Line breaks every 10 bytes: `-d @` drops them as it streams.
        let lines = directory + "/lines.txt"
        try String(repeating: "123456789\n", count: 100_000).write(toFile: lines, atomically: true, encoding: .utf8)

        let started = Date()
        let run = try measured(
            """
            base \(server.baseURL)
            put /upload
            body @big.bin
            send
            expect $.bytes == \(size)
            curl -F part=@big.bin \(server.baseURL)/upload
            expect $.bytes > \(size)
            curl -d @lines.txt \(server.baseURL)/upload
            expect $.bytes == 900000
            curl --data-binary @lines.txt \(server.baseURL)/upload
            expect $.bytes == 1000000
            """)
        #expect(run.status == 0, "\(run.output)")
        // Half the file: never held whole. A debug build beside the parallel end-to-end suite
        // peaked at 410 MiB here with the server slowed, and at 553 MiB with a release build
        // compiling beside it (the peak follows how far the slow server lets the client get, not
        // the file); `make bench-hostile` measures the release build alone.
        #expect(
            run.peak < 1024,
            "peak memory \(run.peak) MiB: the 2 GiB are never held (a debug build; `make bench-hostile` measures the release)"
        )
        #expect(Date().timeIntervalSince(started) < 60)
    }

    /// What a curl line reads into itself is bounded: a file past the limit is one line.
    @Test func aCurlLineReadsAFileIntoItselfOnlyUpToALimit() throws {
        let big = directory + "/headers.txt"
        _ = FileManager.default.createFile(atPath: big, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let run = try measured(
            "curl -H @headers.txt http://127.0.0.1:9/\nimport curl -\ncurl -G -d @/dev/zero http://127.0.0.1:9/\n")
        #expect(
            run.output.contains("'headers.txt' is 2 GiB: a curl line reads at most 1 MiB of a file into itself"),
            "\(run.output)")
        #expect(run.output.contains("'/dev/zero' is longer than the 1 MiB a curl line reads of a file into itself"))
        #expect(run.peak < 100)
    }

    /// Imports of thousands of headers, parts or URLs: every header once, the run done, the
    /// output bounded by the input (`make bench-hostile` times them).
    @Test func importsOfThousandsStayBounded() throws {
        let headers = (0..<20_000).map { #"{"name": "X-H\#($0)", "value": "v\#($0)"}"# }.joined(separator: ",")
        let query = (0..<5_000).map { "q\($0)=v" }.joined(separator: "&")
        let har =
            #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"request": {"method": "GET", "url": "http://127.0.0.1:9/x?\#(query)", "headers": [\#(headers)]}, "response": {"status": 0}}]}}"#
        try har.write(toFile: directory + "/many.har", atomically: true, encoding: .utf8)
        let parts = (0..<20_000).map { "-F f\($0)=v" }.joined(separator: " ")
        try "curl \(parts) http://127.0.0.1:9/x\n".write(
            toFile: directory + "/parts.curl", atomically: true, encoding: .utf8)
        let urls = (0..<150).map { "http://127.0.0.1:9/u\($0)" }.joined(separator: " ")
        let many = (0..<150).map { "-H 'X-H\($0): v'" }.joined(separator: " ")
        try "curl \(many) -d a=1 \(urls)\n".write(toFile: directory + "/urls.curl", atomically: true, encoding: .utf8)

        let started = Date()
        let run = try measured("import har many.har\nshow request\nimport curl parts.curl\n")
        #expect(run.output.contains("X-H19999: v19999"), "\(run.output.suffix(500))")
        #expect(run.output.contains("q4999=v"))
        #expect(Date().timeIntervalSince(started) < 30)

        // A curl line with 150 URLs writes its 150 headers once, not once per URL.
        let imported = try FathomBinary.run(["import", "urls.curl"], directory: directory)
        #expect(imported.status == 0)
        #expect(imported.stdout.components(separatedBy: "header X-H7: v").count - 1 == 1)
        #expect(imported.stdout.components(separatedBy: "\nsend").count - 1 == 150)
        #expect(imported.stdout.utf8.count < 30_000)
    }

    /// Input quoted in an error is cut: a 100 KB value makes a line of a few hundred characters.
    @Test func errorsQuoteLongInputInPart() throws {
        let long = String(repeating: "9", count: 100_000)
        try #"{"openapi": "3.\#(long)", "info": {"title": "t", "version": "1"}, "paths": {}}"#
            .write(toFile: directory + "/version.json", atomically: true, encoding: .utf8)
        try #"{"openapi": "3.1.0", "info": {"title": "\#(long)", "version": "1"}, "paths": {}}"#
            .write(toFile: directory + "/title.json", atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(
            [], script: "spec version.json\nspec title.json\ncurl --\(long) http://127.0.0.1:9/\nget /\(long)\n",
            directory: directory)
        let lines = (run.stdout + run.stderr).split(separator: "\n")
        #expect(lines.count >= 4)
        #expect(lines.allSatisfy { $0.count < 300 }, "\(lines.map(\.count))")
        #expect(run.stderr.contains("(100002 characters)"))
    }
}
