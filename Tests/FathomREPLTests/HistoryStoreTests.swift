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
}
