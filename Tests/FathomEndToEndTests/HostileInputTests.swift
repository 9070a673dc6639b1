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
}
