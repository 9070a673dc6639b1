import Foundation
import Testing

@testable import FathomREPL

/// A path's kind and size from `stat(2)`, as Foundation's `FileManager` reports them for the same
/// path with its links resolved: the bound every whole-file read checks first.
@Suite struct FileStatusTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("status-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func kindsAndSizesAsFoundationSeesThem() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/file"
        for size in [0, 1, 4095, 4096, 70_001] {
            try Data(repeating: 0x61, count: size).write(to: URL(fileURLWithPath: file))
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect(FileStatus(path: file) == FileStatus(kind: .regular, size: size))
            #expect((attributes[.size] as? NSNumber)?.intValue == size)
        }
        #expect(FileStatus(path: folder)?.kind == .directory)
        #expect(FileStatus(path: "/dev/null")?.kind == .other)
        let fifo = folder + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileStatus(path: fifo)?.kind == .other)
        // A link is followed, as `resolvingSymlinksInPath` did before the check.
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: file)
        #expect(FileStatus(path: folder + "/link") == FileStatus(kind: .regular, size: 70_001))
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: folder + "/gone")
        #expect(FileStatus(path: folder + "/dangling") == nil)
        #expect(FileStatus(path: folder + "/gone") == nil)
        #expect(FileStatus(path: "") == nil)
    }

    @Test func boundedReadsStillRefuseWhatTheyRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let big = folder + "/big.env"
        try Data(repeating: 0x61, count: BoundedFile.dotEnv + 1).write(to: URL(fileURLWithPath: big))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.env", withDestinationPath: big)
        #expect(DotEnv.load(big).problem?.contains("may be at most") == true)
        #expect(DotEnv.load(folder + "/link.env").problem?.contains("may be at most") == true)
        #expect(DotEnv.load(folder).problem?.contains("not a regular file") == true)
        #expect(DotEnv.load(folder + "/none.env").problem == nil)
        // A config too large, or one that is a folder, is a problem; none at all is not.
        let config = folder + "/config"
        try Data(repeating: 0x23, count: UserConfig.sizeLimit + 1).write(to: URL(fileURLWithPath: config))
        #expect(UserConfig(path: config, environment: [:]).problems.first?.contains("not read") == true)
        #expect(UserConfig(path: folder, environment: [:]).problems == ["\(folder): cannot be read"])
        #expect(UserConfig(path: folder + "/none", environment: [:]).problems.isEmpty)
    }
}
