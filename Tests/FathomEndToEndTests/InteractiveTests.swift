import Foundation
import Testing

/// The prompt on a real terminal (tmux): completion, history across restarts, Ctrl-C, Ctrl-D,
/// hidden password entry and the pager. One test at a time: each drives its own terminal.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
struct InteractiveTests {
    let state = NSTemporaryDirectory() + "fathom-state-\(UUID().uuidString)"

    func start(_ arguments: String = "--demo", environment: String = "") throws -> Tmux {
        try Tmux(
            "XDG_STATE_HOME=\(state) NO_COLOR=1 \(environment) \(FathomBinary.binary) \(arguments); echo FATHOM-EXIT=$?"
        )
    }

    @Test func completionFromTheCommandTableAndTheSession() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try start()
        try terminal.waitFor("/>")
        try terminal.type("hea")
        try terminal.send("Tab")
        try terminal.waitFor("/> head")
        try terminal.send("Tab")
        try terminal.waitFor("header  ")  // both candidates listed
        try terminal.type("er Content-T")
        try terminal.send("Tab")
        try terminal.waitFor("header Content-Type:")
        try terminal.type("application/j")
        try terminal.send("Tab")
        try terminal.waitFor("header Content-Type: application/json")
        try terminal.send("Enter")
        try terminal.type("get /users per_page==1")
        try terminal.send("Enter")
        try terminal.waitFor("#1")
        try terminal.waitFor("/users [1 query item]>")  // the prompt is back, with what the draft carries
        // Paths from the Link header and the body are offered.
        try terminal.type("get /users?pa")
        try terminal.send("Tab")
        try terminal.waitFor("get /users?page=")
        try terminal.send("C-c")
        try terminal.type("set user_id = 2")
        try terminal.send("Enter")
        try terminal.type("vars")
        try terminal.send("Enter")
        try terminal.waitFor("user_id = 2")  // the command has run: completion can know the name
        try terminal.waitForPrompt()
        try terminal.type("get /users/{{us")
        try terminal.send("Tab")
        try terminal.waitFor("get /users/{{user_id}}")
        try terminal.send("Enter")
        try terminal.waitFor("Grace Hopper")
    }

    /// With the demo's description loaded: Tab completes operationIds, a path template and a
    /// query parameter's enum values; `ls` and `describe` answer; the response carries `schema ✓`.
    @Test func completionAndNavigationFromTheDescription() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try start()
        try terminal.waitFor("/>")
        try terminal.type("describe getU")
        try terminal.send("Tab")
        try terminal.waitFor("describe getUser ")
        try terminal.send("Enter")
        try terminal.waitFor("GET /users/{id}  getUser")
        try terminal.waitForPrompt()
        try terminal.type("ls /us")
        try terminal.send("Tab")
        try terminal.waitFor("ls /users")
        try terminal.send("Enter")
        try terminal.waitFor("listUsers")
        try terminal.waitForPrompt()
        try terminal.type("get /users role==a")
        try terminal.send("Tab")
        try terminal.waitFor("get /users role==admin")
        try terminal.send("Enter")
        try terminal.waitFor("schema ✓")
    }

    /// A request slower than a second says how long it has run and that Ctrl-C cancels it; the
    /// notice is gone once the response is shown. A script never sees it (`PromptScriptTests`).
    @Test func aSlowRequestSaysCtrlCCancelsIt() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try start()
        try terminal.waitFor("/>")
        try terminal.type("get /slow ms==2500")
        try terminal.send("Enter")
        let running = try terminal.waitFor("— Ctrl-C cancels")
        #expect(running.contains(" s — Ctrl-C cancels") || running.contains(" ms — Ctrl-C cancels"))
        let done = try terminal.waitFor("200 OK")
        try terminal.waitForPrompt()
        #expect(!((try? terminal.screen()) ?? done).contains("Ctrl-C cancels"), "the notice is wiped")
    }

    @Test func ctrlCCancelsARequestAndClearsTheLineCtrlDExits() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try start()
        try terminal.waitFor("/>")
        try terminal.type("get /slow ms==10000")
        try terminal.send("Enter")
        // Ctrl-C until the request is cancelled: one that lands before the request has started is ignored.
        var cancelled = ""
        for _ in 0..<20 where !cancelled.contains("cancelled after") {
            Thread.sleep(forTimeInterval: 0.5)
            try terminal.send("C-c")
            cancelled = (try? terminal.waitFor("cancelled after", timeout: 0.5)) ?? ""
        }
        #expect(cancelled.contains("cancelled after"), "the screen:\n\((try? terminal.screen()) ?? "")")
        #expect(!cancelled.contains("FATHOM-EXIT"))
        try terminal.waitForPrompt()
        try terminal.type("a half-typed line")
        try terminal.send("C-c")
        try terminal.waitFor("a half-typed line^C")
        try terminal.type("get /users/3")
        try terminal.send("Enter")
        try terminal.waitFor("Alan Turing")  // the session went on
        try terminal.waitForPrompt()
        try terminal.send("C-d")
        try terminal.waitFor("FATHOM-EXIT=0")
    }

    /// `import curl -` at a terminal: a `paste>` prompt until the command is whole, Ctrl-C
    /// cancels one, and nothing pasted reaches the history.
    @Test func aPasteAfterImportDashIsReadUntilWhole() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let planted = "tmux-pasted-secret-31337"
        let terminal = try start()
        try terminal.waitFor("/>")
        try terminal.type("import curl -")
        try terminal.send("Enter")
        try terminal.waitForPrompt("paste>")
        try terminal.send("C-c")
        try terminal.waitFor("import cancelled: nothing was imported")
        try terminal.waitForPrompt()
        try terminal.type("import curl -")
        try terminal.send("Enter")
        try terminal.waitForPrompt("paste>")
        try terminal.type("curl -X POST http://127.0.0.1:9/things \\")
        try terminal.send("Enter")
        try terminal.waitFor("paste> curl -X POST http://127.0.0.1:9/things \\")
        try terminal.waitForPrompt("paste>")  // the editor reads the next line
        try terminal.type("  -H 'X-Api-Key: \(planted)' -d a=1")
        try terminal.send("Enter")
        let screen = try terminal.waitFor("imported the pasted command into the draft")
        #expect(screen.contains("POST http://127.0.0.1:9/things"))
        try terminal.waitFor("POST 127.0.0.1:9/things [2 headers, body]>")  // the badge: what the draft carries
        try terminal.type("exit")
        try terminal.send("Enter")
        try terminal.waitFor("FATHOM-EXIT=0")
        let history = try String(contentsOfFile: state + "/fathom/history", encoding: .utf8)
        #expect(history.contains("import curl -") && !history.contains(planted) && !history.contains("X-Api-Key"))
    }

    @Test func historySurvivesARestartMaskedAndPrivate() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let planted = "tmux-planted-secret-98765"
        var terminal = try start()
        try terminal.waitFor("/>")
        for line in ["secret token = \(planted)", "auth bearer {{token}}", "get /users/4 X-Echo:\(planted)", "exit"] {
            try terminal.type(line)
            try terminal.send("Enter")
            // Keys typed while a command runs reach the terminal before the line editor: wait for it.
            if line != "exit" { try terminal.waitForPrompt() }
        }
        try terminal.waitFor("FATHOM-EXIT=0")
        let history = try String(contentsOfFile: state + "/fathom/history", encoding: .utf8)
        #expect(history.contains("secret token = ••••8765"))
        #expect(history.contains("get /users/4"))
        #expect(!history.contains(planted))
        let mode = try FileManager.default.attributesOfItem(atPath: state + "/fathom/history")[.posixPermissions]
        #expect((mode as? NSNumber)?.intValue == 0o600)

        terminal = try start()
        try terminal.waitFor("/>")
        try terminal.send("Up")
        try terminal.send("Up")
        try terminal.waitFor("/> get /users/4 X-Echo:••••8765")
        try terminal.send("C-u")
        try terminal.type("history")
        try terminal.send("Enter")
        let screen = try terminal.waitFor("auth bearer {{token}}")
        #expect(!screen.contains(planted))
    }

    /// A line that fails still declared its secret: the history file holds it masked. A line that
    /// is no command at all (a misspelt `auht`) stays out of the file, though Up still recalls it.
    @Test func failedLinesReachTheHistoryFileMaskedOrNotAtAll() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let planted = "nobase-SECRET-2718281828"
        let typo = "typo-SECRET-3141592653"
        let terminal = try start("")
        try terminal.waitFor(">")
        for line in ["auth bearer \(planted)", "auht bearer \(typo)", "auth basic ada:\(planted)x"] {
            try terminal.type(line)
            try terminal.send("Enter")
            try terminal.waitFor("error")
            try terminal.waitForPrompt()
        }
        try terminal.send("Up")
        try terminal.send("Up")
        try terminal.waitFor("auht bearer")
        try terminal.send("C-u")
        try terminal.type("exit")
        try terminal.send("Enter")
        try terminal.waitFor("FATHOM-EXIT=0")
        let history = try String(contentsOfFile: state + "/fathom/history", encoding: .utf8)
        #expect(history.contains("auth bearer ••••1828"), "\(history)")
        #expect(!history.contains(planted) && !history.contains("2718281828x"), "\(history)")
        #expect(!history.contains(typo) && !history.contains("auht"), "\(history)")
    }

    /// A secret asked for at the prompt keeps its line: the slow line's notice does not draw over
    /// it, Ctrl-C cancels the line, and an empty answer says what to do (not "run on a terminal").
    @Test func aSecretPromptIsUsable() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try start()
        try terminal.waitFor("/>")
        try terminal.type("secret apikey")
        try terminal.send("Enter")
        try terminal.waitFor("apikey:")
        Thread.sleep(forTimeInterval: 2)
        var screen = try terminal.screen()
        #expect(screen.contains("apikey:") && !screen.contains("Ctrl-C cancels"), "\(screen)")
        try terminal.send("C-c")
        screen = try terminal.waitFor("cancel")
        try terminal.waitForPrompt()
        try terminal.type("secret apikey")
        try terminal.send("Enter")
        try terminal.waitFor("apikey:")
        try terminal.send("Enter")
        screen = try terminal.waitFor("no value was typed for 'apikey'")
        #expect(!screen.contains("run on a terminal"), "\(screen)")
        try terminal.waitForPrompt()
        try terminal.type("secret apikey")
        try terminal.send("Enter")
        try terminal.waitFor("apikey:")
        try terminal.type("typed-key-123456789")
        try terminal.send("Enter")
        try terminal.waitForPrompt()
        try terminal.type("vars")
        try terminal.send("Enter")
        screen = try terminal.waitFor("apikey")
        #expect(!screen.contains("typed-key-123456789"))
    }

    @Test func passwordIsReadWithoutEchoAndLongBodiesArePaged() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let paged = NSTemporaryDirectory() + "fathom-paged-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: paged) }
        let terminal = try start(environment: "PAGER='tee \(paged) | sed s/^/PAGED:/'")
        try terminal.waitFor("/>")
        try terminal.type("auth basic ada")
        try terminal.send("Enter")
        try terminal.waitFor("password for ada:")
        // The password and the next line in one go, as a fast typist sends them: the line typed
        // ahead is the line editor's, not flushed with the prompt's terminal settings.
        try terminal.type("lovelace-typed\rauth\r")
        let screen = try terminal.waitFor("basic ada:••••")
        #expect(!screen.contains("lovelace-typed"))
        try terminal.type("get /users per_page==25")
        try terminal.send("Enter")
        try terminal.waitFor("PAGED:")
        // What the pager was handed is masked like everything else: the echo of the typed password.
        try terminal.type("pager on")
        try terminal.send("Enter")
        try terminal.waitForPrompt()
        try terminal.type("get /echo X-Echo:lovelace-typed")
        try terminal.send("Enter")
        try terminal.waitFor("PAGED:")
        try terminal.waitForPrompt()
        let handed = try String(contentsOfFile: paged, encoding: .utf8)
        #expect(handed.contains("••••"))
        #expect(!handed.contains("lovelace-typed"))
    }

    /// The real pager, in the terminal's foreground group: it pages down and quits on keys.
    @Test func thePagerPagesDownAndQuits() throws {
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try start(environment: "PAGER='less -RX'")
        try terminal.waitFor("/>")
        try terminal.type("get /users per_page==25")
        try terminal.send("Enter")
        // The first screen: the start of the body, and less waiting for a key.
        try terminal.waitFor("Ada Lovelace")
        #expect(!(try terminal.screen()).contains("FATHOM-EXIT"), "the pager did not quit by itself")
        try terminal.send("G")
        // The end of the body, past the first screen: less read the key from the terminal.
        try terminal.waitFor("\"total\": 25")
        try terminal.send("q")
        try terminal.waitForPrompt()
        try terminal.type("exit")
        try terminal.send("Enter")
        try terminal.waitFor("FATHOM-EXIT=0")
    }

    @Test func replayAsksForAMissingSecretOnATerminal() throws {
        let file = NSTemporaryDirectory() + "fathom-ask-\(UUID().uuidString).fathom"
        try "base {{demo}}\nsecret password\npost /login username=ada password={{password}}\nexpect status 200\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        // On a terminal and not in CI (this test may run under one): asked once, before anything is sent.
        let terminal = try start("replay --demo \(file)", environment: "CI=")
        try terminal.waitFor("password (")
        try terminal.waitFor(":3 post /login username=ada")
        try terminal.type("difference-engine")
        try terminal.send("Enter")
        let screen = try terminal.waitFor("FATHOM-EXIT=0")
        #expect(screen.contains("✓ POST /login"))
        #expect(!screen.contains("difference-engine"))

        // A CI's pseudo-terminal (CI set, or Jenkins's own variables without CI), or --no-input:
        // never waits, says what to set.
        for (command, environment) in [
            ("replay --demo \(file)", "CI=true"), ("replay --demo --no-input \(file)", "CI="),
            ("replay --demo \(file)", "CI= JENKINS_URL=http://ci.test/ BUILD_NUMBER=7"),
        ] {
            let ci = try start(command, environment: environment)
            let said = try ci.waitFor("FATHOM-EXIT=2")
            #expect(
                said.replacingOccurrences(of: "\n", with: " ").contains("has no value — set FATHOM_SECRET_PASSWORD"))
        }
    }
}
