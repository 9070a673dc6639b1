import FathomJSON
import Foundation
import Testing

/// The response archive across two separate runs of `fathom` against httpbin: the second lists,
/// searches, shows, inspects and diffs what the first got, and a secret planted in the first is
/// in none of the archive's files.
@Suite(.enabled(if: HTTPBin.baseURL != nil, "needs FATHOM_HTTPBIN_URL: run through `make test`"))
struct ArchiveRunTests {
    @Test func aSecondRunFindsSearchesAndDiffsTheFirstsResponses() throws {
        let base = try #require(HTTPBin.baseURL)
        let state = NSTemporaryDirectory() + "fathom-archive-run-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let planted = "archive-planted-secret-0042"
        let environment = ["XDG_STATE_HOME": state, "FATHOM_SECRET_TOKEN": planted]
        let first = try FathomBinary.run(
            [base],
            script: """
                secret token
                header X-Token: {{token}}
                get /anything/first q==1
                post /anything/second name=Ada note={{token}}
                get /status/418
                """, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")

        let second = try FathomBinary.run(
            [base],
            script: """
                get /anything/first q==2
                responses --all
                responses search anything/second
                responses search $.args.q == "1"
                responses search teapot
                show @2
                inspect @1 $.args
                diff @1 #1 --body
                show @3 > \(state)/teapot.txt
                show @99
                """, environment: ["XDG_STATE_HOME": state])
        let out = second.stdout
        #expect(second.status == 1, "show @99 fails the script: \(second.stderr)")
        // `responses --all`: the first run's three and this run's one, with IDs and times.
        #expect(out.contains("@1 ") && out.contains("GET \(base)/anything/first?q=1 → 200 OK"), "\(out)")
        #expect(out.contains("@2 ") && out.contains("POST \(base)/anything/second → 200 OK"))
        #expect(out.contains("@3 ") && out.contains("GET \(base)/status/418 → 418"))
        #expect(out.contains("@4 ") && out.contains("#1  GET \(base)/anything/first?q=2"))
        #expect(out.contains("4 kept in \(state)/fathom/responses"))
        // Searches: by text, by a JSONPath comparison, by the status's reason.
        #expect(out.contains("1 of the archive's exchanges match"))
        #expect(out.components(separatedBy: "of the archive's exchanges match").count == 4)
        // `show @2`: the response as it was, the secret masked.
        #expect(out.contains("@2") && out.contains("\"name\": \"Ada\""))
        #expect(out.contains("\"q\": \"1\""), "inspect @1 $.args")
        #expect(out.contains("@1 GET /anything/first?q=1 → #1 GET /anything/first?q=2"), "diff: \(out)")
        #expect(out.contains("wrote the body of @3 to \(state)/teapot.txt"))
        #expect(try String(contentsOfFile: state + "/teapot.txt", encoding: .utf8).contains("teapot"))
        #expect(second.stderr.contains("no @99 in the response archive"))

        // The planted secret: on no screen, in no file of the archive.
        let archive = state + "/fathom/responses"
        let files = try FileManager.default.contentsOfDirectory(atPath: archive)
        #expect(Set(files) == ["index", "records"])
        for file in files {
            let text = try String(contentsOfFile: archive + "/" + file, encoding: .utf8)
            if file == "records" { #expect(text.contains("••••0042"), "the masked form is kept") }
            #expect(!text.contains(planted), "\(file) holds the secret")
        }
        for text in [first.stdout, first.stderr, second.stdout, second.stderr] { #expect(!text.contains(planted)) }

        // `archive off` keeps nothing more.
        let off = try FathomBinary.run(
            [base], script: "get /get\nresponses --all\n",
            environment: ["XDG_STATE_HOME": state, "FATHOM_ARCHIVE": "off"])
        #expect(off.stderr.contains("the response archive is off here"))
        let index = try String(contentsOfFile: archive + "/index", encoding: .utf8)
        #expect(index.split(separator: "\n").count == 4)
    }
}
