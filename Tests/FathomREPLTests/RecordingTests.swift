import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

@Suite struct RecordingTests {
    /// Only the session's secrets are masked, each by a keyed digest; a field is never hidden
    /// for its name (a `token_type` is compared as it is).
    @Test func roundTripsAndMasksOnlyTheSessionsSecretsByDigest() throws {
        let redactor = Redactor()
        redactor.addSecret("s3cr3t-value")
        let recording0 = Recording(session: "s.fathom")
        let body = Recording.body(
            Data(
                #"{"token_type": "Bearer", "sort_key": "k1", "note": "has s3cr3t-value in it", "n": 1.50}"#.utf8),
            contentType: "application/json", masker: recording0.masker(redactor))
        var recording = recording0
        recording.entries = [
            Recording.Entry(
                request: 1, line: 4, identity: RequestIdentity(method: "GET", target: "/a", occurrence: 1),
                method: "GET", path: "/a", status: 200, contentType: "application/json", body: body),
            Recording.Entry(
                request: 3, line: nil, identity: RequestIdentity(method: "GET", target: "/b/{{id}}", occurrence: 2),
                method: "GET", path: "/b/7", status: 404, contentType: "text/plain", body: .text("gone\n")),
            Recording.Entry(
                request: 4, line: 9, method: "GET", path: "/c", status: 200, contentType: nil,
                body: .binary(Data([0, 1, 2]))),
            Recording.Entry(
                request: 5, line: 9, method: "DELETE", path: "/c", status: 204, contentType: nil, body: .empty),
        ]
        let text = recording.serialized()
        #expect(text.contains(#""token_type": "Bearer""#))
        #expect(text.contains(#""sort_key": "k1""#))
        #expect(!text.contains("s3cr3t-value"))
        let digest = recording.masker(redactor).digest("s3cr3t-value")
        #expect(text.contains("has \(digest) in it"))
        #expect(digest.hasPrefix(Redactor.mask + "#") && digest.count == Redactor.mask.count + 9)
        #expect(text.contains("\"n\": 1.50"))
        let path = NSTemporaryDirectory() + "fathom-rec-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Recording.load(path) == recording)
        #expect(Recording.path(forSession: "dir/a.fathom") == "dir/a.recording.json")
        #expect(Recording.path(forSession: "a.txt") == "a.txt.recording.json")
    }

    /// The same secret gives the same digest under one key and another under another key; a
    /// different secret another digest: a changed value is caught, and nothing is learnt across
    /// recordings.
    @Test func digestsAreKeyed() {
        let redactor = Redactor()
        let one = Recording(session: "a").masker(redactor)
        let two = Recording(session: "b").masker(redactor)
        #expect(one.digest("token-a") == one.digest("token-a"))
        #expect(one.digest("token-a") != one.digest("token-b"))
        #expect(one.digest("token-a") != two.digest("token-a"))
    }

    /// A request is matched by method, path as written and occurrence: an inserted request
    /// leaves every other match as it was; a format-1 recording is matched by position.
    @Test func responsesAreMatchedByIdentityNotPosition() {
        var identities = RequestIdentities()
        #expect(
            identities.next(method: "GET", target: "{{demo}}/users?page=2")
                == .init(method: "GET", target: "/users", occurrence: 1))
        #expect(
            identities.next(method: "GET", target: "http://127.0.0.1:9/users")
                == .init(method: "GET", target: "/users", occurrence: 2))
        #expect(
            identities.next(method: "POST", target: "/users") == .init(method: "POST", target: "/users", occurrence: 1))
        #expect(RequestIdentity.path(of: "{{base}}") == "/")
        #expect(RequestIdentity.path(of: "/users/{{id}}#x") == "/users/{{id}}")
        #expect(RequestIdentity.path(of: "{{a}}{{b}}/x") == "{{a}}{{b}}/x")

        func entry(_ request: Int, _ identity: RequestIdentity?) -> Recording.Entry {
            Recording.Entry(
                request: request, line: nil, identity: identity, method: "GET", path: "/", status: 200,
                contentType: nil, body: .empty)
        }
        let users2 = RequestIdentity(method: "GET", target: "/users", occurrence: 2)
        let v2 = Recording(
            session: "s", entries: [entry(1, .init(method: "GET", target: "/users", occurrence: 1)), entry(2, users2)])
        #expect(v2.entry(for: users2, position: 7)?.request == 2)
        #expect(v2.entry(for: .init(method: "GET", target: "/new", occurrence: 1), position: 2) == nil)
        let v1 = Recording(session: "s", key: Data(), entries: [entry(1, nil), entry(2, nil)])
        #expect(v1.entry(for: users2, position: 1)?.request == 1)
    }

    @Test func rejectsWhatIsNotARecording() throws {
        let path = NSTemporaryDirectory() + "fathom-rec-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"responses": [{"request": 1}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CommandError.self) { try Recording.load(path) }
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CommandError.self) { try Recording.load(path) }
    }

    /// A recording's format is read, not assumed: 999, "two" or null is named, never compared.
    @Test(arguments: ["999", #""two""#, "null"])
    func anUnknownFormatIsNamed(format: String) throws {
        let path = NSTemporaryDirectory() + "fathom-rec-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{"fathomRecording": \#(format), "responses": []}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try Recording.load(path)
        } throws: { error in
            (error as? CommandError)?.message.contains("has format \(format), which this Fathom does not read") == true
        }
    }

    /// A binary body is masked before it is stored as base64, where no later mask could see it.
    @Test func aBinaryBodyIsMaskedBeforeItIsEncoded() {
        let redactor = Redactor()
        redactor.addSecret("bin-s3cr3t-value")
        var data = Data([0, 0xFF, 0x10])
        data.append(Data("bin-s3cr3t-value".utf8))
        let masker = Recording(session: "s").masker(redactor)
        guard case .binary(let stored) = Recording.body(data, contentType: "application/octet-stream", masker: masker)
        else {
            Issue.record("expected a binary body")
            return
        }
        #expect(stored.range(of: Data("bin-s3cr3t-value".utf8)) == nil)
        #expect(!stored.base64EncodedString().contains(Data("bin-s3cr3t-value".utf8).base64EncodedString()))
    }
}
