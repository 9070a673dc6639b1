import Foundation
import Testing

@testable import FathomHTTP

@Suite struct MockTransportTests {
    @Test func firstRegisteredMatchWins() async throws {
        let transport = MockTransport()
        transport.register("category/some-title", .json(#"{"which":"specific"}"#))
        transport.register("category", .json(#"{"which":"general"}"#))
        let client = NetworkClient(baseURL: "http://api.test", transport: transport)

        let specific = try await client.send(.get("/category/some-title"))
        let general = try await client.send(.get("/category/other"))

        #expect(String(decoding: specific.body, as: UTF8.self) == #"{"which":"specific"}"#)
        #expect(String(decoding: general.body, as: UTF8.self) == #"{"which":"general"}"#)
    }

    @Test func unmatchedRequestFailsClearly() async throws {
        let client = NetworkClient(baseURL: "http://api.test", transport: MockTransport())
        await #expect {
            try await client.send(.get("/users?page=2"))
        } throws: { error in
            "\(error)" == "no mock for /v1/users?page=2" || "\(error)" == "no mock for /users?page=2"
        }
    }

    @Test func recordsRequestsAndServesFilesAndStatuses() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mock-\(UUID()).json").path
        try Data(#"[1,2,3]"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let transport = MockTransport()
        transport.register("/list", try .file(path))
        transport.register("/gone", .status(410))
        let client = NetworkClient(baseURL: "http://api.test", transport: transport)

        let list = try await client.send(.get("/list").header("X-Trace", "1"))
        let gone = try await client.send(.delete("/gone"))

        #expect(list.contentType == "application/json")
        #expect(list.body == Data("[1,2,3]".utf8))
        #expect(gone.status.code == 410)
        #expect(transport.requests.map(\.method) == [.get, .delete])
        #expect(transport.requests.first?.headers["x-trace"] == "1")
    }

    @Test func fallbackTransportGetsUnmatchedRequests() async throws {
        let real = MockTransport()
        real.register("/", .json(#"{"from":"fallback"}"#))
        let mock = MockTransport(fallback: real)
        mock.register("/mocked", .json(#"{"from":"mock"}"#))
        let client = NetworkClient(baseURL: "http://api.test", transport: mock)

        #expect(String(decoding: try await client.send(.get("/other")).body, as: UTF8.self) == #"{"from":"fallback"}"#)
        #expect(String(decoding: try await client.send(.get("/mocked")).body, as: UTF8.self) == #"{"from":"mock"}"#)
    }
}
