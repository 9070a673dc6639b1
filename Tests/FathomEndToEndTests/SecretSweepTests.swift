import Foundation
import Testing

/// A planted secret, used every way a session can use one against a server that echoes it back,
/// must appear in none of Fathom's outputs: standard output and error (text and JSON), the wire
/// log, a saved session, its recording, a body written with `show #N > FILE`, a hex view, curl
/// exports, a replay's report and its JUnit XML. (History and the pager: `InteractiveTests`.)
@Suite struct SecretSweepTests {
    static let planted = "sweep-Secret-91c4e7a2b8"
    static var spellings: [String] {
        [
            planted, Data("ada:\(planted)".utf8).base64EncodedString(), Data(planted.utf8).base64EncodedString(),
            planted.replacingOccurrences(of: "-", with: "%2D"),
        ]
    }

    func assertClean(_ text: String, _ place: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for spelling in Self.spellings {
            #expect(
                !text.contains(spelling), "\(place) shows the planted secret as '\(spelling)'",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["text", "json"])
    func noOutputPathShowsThePlantedSecret(format: String) throws {
        let server = try DemoServerProcess()
        let directory = NSTemporaryDirectory() + "fathom-sweep-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try FathomBinary.run(
            ["--output", format, server.baseURL],
            script: """
                secret token
                log body \(directory)/wire.log
                record on
                header X-Token: {{token}}
                get /echo q=={{token}}
                post /echo note={{token}} password=typed-Password-5521
                auth basic ada:{{token}}
                get /echo
                auth bearer {{token}}
                decoder hex
                get /echo
                decoder auto
                let echoed = $.headers.X-Token
                vars
                show session
                show request
                get /nope/{{token}}
                show #2 > \(directory)/body.json
                export curl #2
                export curl
                save \(directory)/sweep.fathom
                """, environment: ["FATHOM_SECRET_TOKEN": Self.planted], directory: directory)
        #expect(run.stdout.contains("••••"), "masked, not missing")
        #expect(run.stdout.contains("${FATHOM_SECRET_TOKEN}"), "an export names the secret")
        assertClean(run.stdout, "standard output (\(format))")
        assertClean(run.stderr, "standard error (\(format))")
        assertClean(run.stdout, "the typed password")
        #expect(!run.stdout.contains("typed-Password-5521"), "a password typed into an item is a secret")
        for file in ["wire.log", "sweep.fathom", "sweep.recording.json", "body.json"] {
            let text = try String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8)
            #expect(!text.isEmpty, "\(file) was written")
            assertClean(text, file)
            #expect(!text.contains("typed-Password-5521"), "\(file) has the typed password")
        }

        let replay = try FathomBinary.run(
            ["replay", "--output", format, "--junit", "\(directory)/junit.xml", "\(directory)/sweep.fathom"],
            environment: [
                "FATHOM_SECRET_TOKEN": Self.planted, "FATHOM_SECRET_PASSWORD": "typed-Password-5521",
            ], directory: directory)
        #expect(replay.status == 0, "\(replay.stdout)")
        assertClean(replay.stdout, "the replay's report")
        assertClean(replay.stderr, "the replay's errors")
        assertClean(try String(contentsOfFile: "\(directory)/junit.xml", encoding: .utf8), "JUnit XML")
    }

    /// Every run of eight or more characters of the planted secret but its last four, which a
    /// mask shows: a preview cut before it was masked would show one of them.
    static var pieces: [String] {
        let characters = Array(planted)
        return (0...(characters.count - 8)).flatMap { start in
            ((start + 8)...characters.count).map { String(characters[start..<$0]) }
        }
    }

    /// A batch's summary shows bodies and differences cut to a width: masked before they are cut,
    /// in text and JSON, with the secret as a header, a bearer token and a query item.
    @Test(arguments: ["text", "json"])
    func batchSummariesShowNoPartOfTheSecret(format: String) throws {
        let server = try DemoServerProcess()
        let run = try FathomBinary.run(
            ["--output", format, server.baseURL],
            script: """
                secret token
                get /echo X-Api-Key:{{token}} padding==\(String(repeating: "x", count: 90)) --repeat 3 -c 2
                auth bearer {{token}}
                get /echo q=={{token}} --repeat 2
                show #1
                inspect #2 $
                """, environment: ["FATHOM_SECRET_TOKEN": Self.planted])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        for piece in Self.pieces {
            #expect(!run.stdout.contains(piece), "standard output (\(format)) shows '\(piece)'")
            #expect(!run.stderr.contains(piece), "standard error (\(format)) shows '\(piece)'")
        }
    }

    /// `fathom import` of a curl line holding the secret writes a session file that names it and
    /// never holds its value; its notes and errors show none of it either.
    @Test func importWritesNoSecret() throws {
        let directory = NSTemporaryDirectory() + "fathom-sweep-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "curl -H 'Authorization: Bearer \(Self.planted)' -u ada:\(Self.planted) http://127.0.0.1:9/x --frobnicate"
            .write(toFile: "\(directory)/req.curl", atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(["import", "\(directory)/req.curl"])
        assertClean(run.stdout, "fathom import's session file")
        assertClean(run.stderr, "fathom import's errors")
    }
}
