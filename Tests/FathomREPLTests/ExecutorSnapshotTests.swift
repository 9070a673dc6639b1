import FathomDemo
import Foundation
import Testing

@testable import FathomREPL

/// The executor driven with strings against the demo API, its output checked against snapshots.
@Suite struct ExecutorSnapshotTests {
    @Test func buildingTheDraft() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let session = Transcript()
        let outcomes = await session.run(
            """
            base \(server.baseURL)
            path /users
            cd 1
            cd todos
            cd ..
            query page=2 per_page=10 flag
            query -flag
            query
            header Accept: application/json
            header X-Trace: one
            header X-Trace: two
            header
            show request
            method POST
            body {"name": "Ada",
              "tags": ["math", "engines"]}
            show request
            body json name=Ada age:=36 admin:=true
            show request
            body form a=1 b='two words'
            show request
            body <<EOF
            plain text
              with indentation
            EOF
            show request
            header -X-Trace
            reset
            show request
            cd /
            show request
            """)
        #expect(!outcomes.contains(.failed))
        try Snapshot.check(session.text, named: "draft")
        await server.stop()
    }

    @Test func sendingAndShowingResponses() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let session = Transcript()
        let outcomes = await session.run(
            """
            base \(server.baseURL)
            get /users per_page==2 page==2
            show headers off
            get /users/9999
            post /users name="Edsger Dijkstra" email=ewd@example.com
            auth oauth2 client-credentials /oauth/token fathom-demo demo-client-secret
            post /users name="Edsger Dijkstra" email=ewd@example.com
            show request
            get /users/26
            patch /users/26 role=admin
            delete /users/26
            get /users/26
            get /status/418
            show #2
            get /users/1/todos per_page==1
            show session
            """)
        #expect(outcomes.filter { $0 == .failed }.isEmpty)
        try Snapshot.check(session.text, named: "responses")
        await server.stop()
    }

    @Test func decodersAndMocks() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let directory = NSTemporaryDirectory() + "fathom-mock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(0..<40)).write(
            to: URL(fileURLWithPath: directory + "/logo.png"))
        try Data(#"{"mocked": true, "items": [1, 2]}"#.utf8).write(to: URL(fileURLWithPath: directory + "/users.json"))

        let session = Transcript()
        let outcomes = await session.run(
            """
            base \(server.baseURL)
            show headers off
            mock /logo @\(directory)/logo.png
            mock /users @\(directory)/users.json
            mock /boom status 503
            mock
            get /logo
            get /users
            get /boom
            get /users/1/todos per_page==1
            decoder text
            get /users
            decoder hex
            get /users
            decoder raw
            get /users
            decoder auto
            mock off
            get /users/1
            get /gzip
            """)
        #expect(!outcomes.contains(.failed))
        try Snapshot.check(session.text.replacingOccurrences(of: directory, with: "<dir>"), named: "decoders")
        await server.stop()
    }

    @Test func badInputLeavesTheSessionAsItWas() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let session = Transcript()
        let outcomes = await session.run(
            """
            get /users
            base \(server.baseURL)
            path /users/{{id}}
            hedaer Accept: text/plain
            decoder jsn
            send
            set id = 2
            body {"broken": }
            body json n:=nope
            get /users/{{id}} name=x
            timeout soon
            unset nothing
            show #7
            auth digest x
            help sned
            secret password
            send
            """)
        #expect(
            outcomes == [.failed, .succeeded, .succeeded] + Array(repeating: .failed, count: 3) + [.succeeded]
                + Array(repeating: .failed, count: 9) + [.succeeded])
        try Snapshot.check(session.text, named: "errors")
        await server.stop()
    }

    @Test func networkFaultsAreOneLineAndTheSessionGoesOn() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let session = Transcript()
        let outcomes = await session.run(
            """
            get http://127.0.0.1:9/
            base \(server.baseURL)
            timeout 300ms
            get /slow ms==2000
            timeout off
            redirects 2
            get /redirect/5
            redirects off
            show headers off
            get /redirect/1
            redirects 5
            get /redirect/2
            """)
        #expect(
            outcomes == [.failed, .succeeded, .succeeded, .failed, .succeeded, .succeeded, .failed]
                + Array(repeating: .succeeded, count: 5))
        try Snapshot.check(session.text, named: "faults")
        await server.stop()
    }

    @Test func helpComesFromTheRegistry() async throws {
        let session = Transcript()
        await session.run("help\nhelp body\nhelp quit")
        try Snapshot.check(session.text, named: "help")
        for spec in CommandRegistry.all {
            #expect(session.text.contains(spec.name), "help lists \(spec.name)")
        }
    }
}

/// Client settings whose effect shows on the wire.
@Suite struct ClientSettingTests {
    @Test func proxySettingRoutesRequestsThroughTheProxy() async throws {
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let session = Transcript()
        let outcomes = await session.run(
            """
            base \(server.baseURL)
            proxy http://user:proxy-password-123456@127.0.0.1:9
            proxy
            get /users/1
            proxy off
            get /users/1
            """)
        #expect(outcomes == [.succeeded, .succeeded, .succeeded, .failed, .succeeded, .succeeded])
        #expect(session.console.stderr.contains("connection refused to 127.0.0.1:9"), "the proxy refused, and is named")
        #expect(session.console.stdout.contains("Ada Lovelace"))
        #expect(!session.console.stdout.contains("proxy-password-123456"), "the proxy password is masked")
        await server.stop()
    }
}
