import FathomTestSupport
import Foundation
import Testing

/// `fathom replay --jobs N` and `--shard I/N` against the demo API.
@Suite struct ParallelReplayTests {
    /// A folder of `count` session files (some in a subfolder), each with a slow request.
    private func suite(_ count: Int) throws -> String {
        let directory = NSTemporaryDirectory() + "fathom-parallel-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/more", withIntermediateDirectories: true)
        for index in 1...count {
            let folder = index % 3 == 0 ? directory + "/more" : directory
            try """
            base {{demo}}
            get /slow ms==150
            expect status 200
            get /users/\(index)
            expect $.id == \(index)
            """.write(toFile: "\(folder)/file\(index).fathom", atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// Times and paths aside, a report as text.
    private func normalized(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d+(\.\d+)? (ms|s)"#, with: "T", options: .regularExpression)
    }

    @Test func jobsRunFilesAtOnceAndReportInFileOrder() throws {
        let directory = try suite(6)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let one = try FathomBinary.run(["replay", "--demo", "--junit", "one.xml", "."], directory: directory)
        let start = Date()
        let four = try FathomBinary.run(
            ["replay", "--demo", "--jobs", "4", "--junit", "four.xml", "."], directory: directory)
        let elapsed = Date().timeIntervalSince(start)
        #expect(one.status == 0 && four.status == 0, "\(four.stdout)\(four.stderr)")
        // The same report, only sooner: never interleaved, files in their order.
        #expect(normalized(four.stdout) == normalized(one.stdout))
        // Six files of 150 ms each, four at once: two rounds, not six.
        #expect(elapsed < 0.9 * 6 * 0.15 + 1.0, "took \(elapsed) s")
        let junitOne = try String(contentsOfFile: directory + "/one.xml", encoding: .utf8)
        let junitFour = try String(contentsOfFile: directory + "/four.xml", encoding: .utf8)
        func names(_ xml: String) -> [String] {
            xml.components(separatedBy: "<testcase ").dropFirst().map { String($0.prefix { $0 != ">" }) }
                .map { $0.replacingOccurrences(of: #"time="[^"]*""#, with: "", options: .regularExpression) }
        }
        #expect(names(junitFour) == names(junitOne))
        #expect(names(junitOne).count == 12)
    }

    @Test func shardsCoverEveryFileExactlyOnce() throws {
        let directory = try suite(7)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var seen: [String] = []
        for index in 1...3 {
            let run = try FathomBinary.run(["replay", "--demo", "--shard", "\(index)/3", "."], directory: directory)
            #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
            let files = run.stdout.split(separator: "\n").filter { $0.hasSuffix(".fathom") && !$0.hasPrefix("✓") }
            #expect((2...3).contains(files.count), "shard \(index): \(files)")
            seen += files.map(String.init)
        }
        #expect(seen.count == 7)
        #expect(Set(seen).count == 7)
        let bad = try FathomBinary.run(["replay", "--shard", "4/3", "."], directory: directory)
        #expect(bad.status != 0 && bad.stderr.contains("--shard takes I/N"))
    }
}
