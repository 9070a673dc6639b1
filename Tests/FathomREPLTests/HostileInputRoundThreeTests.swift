import FathomHTTP
import FathomJSON
import Foundation
import Testing

@_spi(Fuzzing) @testable import FathomREPL

/// "Hostile input, round three" in process: files over their bounds (or devices) are one line,
/// rates out of range are one line, parsing stays linear, and `--output json` escapes C1 controls.
@Suite struct HostileInputRoundThreeTests {
    static func executor() -> Executor {
        Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: MockTransport()))
    }

    static func failure(_ result: CommandResult) -> String {
        result.outputs.compactMap { output -> String? in
            guard case .failure(let failure) = output else { return nil }
            return ErrorRenderer().line(failure)
        }.joined()
    }

    /// A sparse file says it is 3 GiB without taking the disk: each reader refuses it by its size.
    static func sparseFile(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "fathom-big-\(UUID().uuidString)-\(name)"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        return path
    }

    @Test func filesOverTheirBoundAreOneLine() async throws {
        let big = try Self.sparseFile("rows.csv")
        defer { try? FileManager.default.removeItem(atPath: big) }
        let executor = Self.executor()
        _ = await executor.run("base http://api.test")
        for (line, what) in [
            ("get /x --data \(big)", "a --data file may be at most 64 MiB"),
            ("mock /x @\(big)", "a mock's answer may be at most 64 MiB"),
            ("load \(big)", "a session file may be at most 64 MiB"),
        ] {
            let result = await executor.run(line)
            #expect(result.outcome == .failed, "\(line)")
            let text = Self.failure(result)
            #expect(text.contains("is 3 GiB") && text.contains(what), "\(line): \(text)")
        }
        #expect(throws: CommandError.self) { try Recording.load(big) }
        let (values, problem) = DotEnv.load(big)
        #expect(
            values.isEmpty && problem?.contains("a .env file may be at most 1 MiB") == true,
            "\(String(describing: problem))")
        #expect(DotEnv.load("/dev/zero").problem?.contains("not a regular file") == true)
    }

    @Test(arguments: ["1e-10/s", "1e300/s", "2000000/s", "inf/s"])
    func aRateOutOfRangeIsOneLine(rate: String) async {
        let executor = Self.executor()
        _ = await executor.run("base http://api.test")
        let result = await executor.run("get /x --rate \(rate) --repeat 2")
        #expect(result.outcome == .failed)
        let text = Self.failure(result)
        #expect(text.contains("rate") && !text.contains("\n\n"), "\(text)")
    }

    /// An unterminated quote before 20,000 lines is read in one pass, and the lines after it count.
    @Test func aDotEnvWithAnUnterminatedQuoteIsLinear() {
        var text = "A=\"never closed\n"
        for index in 0..<20_000 { text += "K\(index)=v\(index)\n" }
        text += "C='open too\nLAST=end\n"
        let start = ContinuousClock.now
        let values = DotEnv.parse(text)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(values["K19999"] == "v19999" && values["LAST"] == "end", "\(values.count) values")
        #expect(values["A"] == nil && values["C"] == nil, "no closing quote: not a pair")
        #expect(DotEnv.parse("Q=\"a\\\"b\nc\"\n")["Q"] == "a\"b\nc", "a quoted value spanning lines still reads")
    }

    /// 40,000 distinct `set` lines: no copy of the session each, so linear.
    @Test func manySetLinesAreLinear() async {
        let executor = Self.executor()
        let start = ContinuousClock.now
        for index in 0..<40_000 {
            _ = await executor.run(SetCommand(name: "v\(index)", value: "\(index)"), text: "", location: nil)
        }
        #expect(ContinuousClock.now - start < .seconds(30))
        #expect(await executor.session.variables["v39999"] == "39999")
    }

    /// C1 control characters (U+009B is CSI) are escaped in `--output json`.
    @Test func jsonOutputEscapesC1Controls() {
        let line = JSONOutputRenderer.line(.object([JSON.Member(key: "x", value: .string("a\u{9B}31mb\u{85}c"))]))
        #expect(line == #"{"x":"a\u009b31mb\u0085c"}"# + "\n", "\(line)")
        #expect(!line.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
    }
}

/// A replay asks for a secret only where a person is: the common CI systems are recognised,
/// whether or not they set `CI`.
@Suite struct ContinuousIntegrationTests {
    @Test func theCommonSystemsAreRecognised() {
        #expect(ContinuousIntegration.detected(in: ["CI": "true"]))
        #expect(!ContinuousIntegration.detected(in: ["CI": "false"]))
        #expect(!ContinuousIntegration.detected(in: ["CI": "0"]))
        #expect(ContinuousIntegration.detected(in: ["JENKINS_URL": "http://ci:8080/", "BUILD_NUMBER": "7"]))
        #expect(ContinuousIntegration.detected(in: ["BUILD_NUMBER": "7", "BUILD_ID": "7"]))
        #expect(ContinuousIntegration.detected(in: ["TF_BUILD": "True"]))
        #expect(ContinuousIntegration.detected(in: ["TEAMCITY_VERSION": "2025.1"]))
        #expect(!ContinuousIntegration.detected(in: ["HOME": "/root", "TERM": "xterm"]))
    }
}

/// The readers `fuzz-files` drives (`make fuzz`), on the shapes that broke them and a few that
/// are hostile on purpose: each ends, in linear time, with values or one error.
@Suite struct DataFileReaderTests {
    static func file(_ reader: UInt8, _ text: String) -> [UInt8] { [reader] + Array(text.utf8) }

    static let cases: [[UInt8]] = [
        file(0, "A=\"open\n" + String(repeating: "x", count: 10_000)),
        file(0, "K=\"a\\"),
        file(1, String(repeating: "nonsense 1\n", count: 2_000)),
        file(1, "color 'never\ntimeout $'\\x"),
        file(2, "a,b\n\"unclosed"),
        file(2, String(repeating: "\"", count: 10_001)),
        file(3, #"{"fathomRecording": 2, "responses": [{"request": "x"}]}"#),
        file(3, #"{"fathomRecording": 1e999}"#),
        [3, 0xFF, 0xFE],
    ]

    @Test(arguments: cases)
    func hostileFilesEndWithValuesOrAnError(bytes: [UInt8]) {
        let start = ContinuousClock.now
        Fuzzing.dataFile(bytes)
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}
