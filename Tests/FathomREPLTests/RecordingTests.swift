import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

@Suite struct RecordingTests {
    @Test func roundTripsAndMasksSecretFields() throws {
        let redactor = Redactor()
        redactor.addSecret("s3cr3t-value")
        let body = Recording.body(
            Data(
                #"{"token": "abc", "user": {"password": "pw", "name": "Ada"}, "note": "has s3cr3t-value in it", "n": 1.50}"#
                    .utf8),
            contentType: "application/json", redactor: redactor)
        let recording = Recording(
            session: "s.fathom",
            entries: [
                Recording.Entry(
                    request: 1, line: 4, method: "GET", path: "/a", status: 200, contentType: "application/json",
                    body: body),
                Recording.Entry(
                    request: 3, line: nil, method: "GET", path: "/b", status: 404, contentType: "text/plain",
                    body: .text("gone\n")),
                Recording.Entry(
                    request: 4, line: 9, method: "GET", path: "/c", status: 200, contentType: nil,
                    body: .binary(Data([0, 1, 2]))),
                Recording.Entry(
                    request: 5, line: 9, method: "DELETE", path: "/c", status: 204, contentType: nil, body: .empty),
            ])
        let text = recording.serialized()
        #expect(!text.contains("abc"))
        #expect(!text.contains("\"pw\""))
        #expect(!text.contains("s3cr3t-value"))
        #expect(text.contains("\"n\": 1.50"))
        let path = NSTemporaryDirectory() + "fathom-rec-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Recording.load(path) == recording)
        #expect(Recording.path(forSession: "dir/a.fathom") == "dir/a.recording.json")
        #expect(Recording.path(forSession: "a.txt") == "a.txt.recording.json")
    }

    @Test func rejectsWhatIsNotARecording() throws {
        let path = NSTemporaryDirectory() + "fathom-rec-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"responses": [{"request": 1}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CommandError.self) { try Recording.load(path) }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CommandError.self) { try Recording.load(path) }
    }

    /// A binary body is masked before it is stored as base64, where no later mask could see it.
    @Test func aBinaryBodyIsMaskedBeforeItIsEncoded() {
        let redactor = Redactor()
        redactor.addSecret("bin-s3cr3t-value")
        var data = Data([0, 0xFF, 0x10])
        data.append(Data("bin-s3cr3t-value".utf8))
        guard
            case .binary(let stored) = Recording.body(data, contentType: "application/octet-stream", redactor: redactor)
        else {
            Issue.record("expected a binary body")
            return
        }
        #expect(stored.range(of: Data("bin-s3cr3t-value".utf8)) == nil)
        #expect(!stored.base64EncodedString().contains(Data("bin-s3cr3t-value".utf8).base64EncodedString()))
    }
}
