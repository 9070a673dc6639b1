import Foundation
import Testing

@testable import FathomREPL

@Suite struct HistoryStoreTests {
    @Test func survivesARestartWithMode0600() throws {
        let directory = NSTemporaryDirectory() + "fathom-history-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/state/fathom/history"
        let store = HistoryStore(path: path, limit: 3)
        store.add("get /users")
        store.add("get /users")
        store.add("body <<EOF\n{\"a\": \"back\\\\slash\"}\nEOF")
        store.add("send")
        store.add("exit")

        let reloaded = HistoryStore(path: path, limit: 3)
        #expect(reloaded.all == ["body <<EOF\n{\"a\": \"back\\\\slash\"}\nEOF", "send", "exit"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func defaultPathFollowsXDG() {
        #expect(HistoryStore.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/fathom/history")
        #expect(HistoryStore.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/state/fathom/history")
    }

    /// Entries are appended, and the file is compacted to the last `limit` when it doubles.
    @Test func appendsAndCompactsAtTwiceTheLimit() throws {
        let directory = NSTemporaryDirectory() + "fathom-history-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/history"
        let store = HistoryStore(path: path, limit: 10)
        func lines() throws -> Int { try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count }
        for index in 1...20 { store.add("get /\(index)") }
        #expect(try lines() == 20, "appended, not rewritten")
        store.add("get /21")
        #expect(try lines() == 10, "compacted to the last 10")
        store.add("get /22")
        #expect(try lines() == 11)
        #expect(HistoryStore(path: path, limit: 10).all == (13...22).map { "get /\($0)" })
    }
}
