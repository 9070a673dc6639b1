import FathomDemo
import Foundation
import Testing

/// `fathom` reading commands from standard input and `-c`, against the demo API.
@Suite struct PromptScriptTests {
    @Test func scriptOnStandardInputRunsEveryLineAndReportsFailures() throws {
        let server = try DemoServerProcess()
        let run = try FathomBinary.run(
            [server.baseURL],
            script: """
                # a comment, then a request
                get /users/1
                hedaer X: 1
                get /users per_page==1
                body {"name": "Grace",
                  "email": "g@example.com"}
                method POST
                path /echo
                send
                """)
        #expect(run.status == 1, "one line failed")
        #expect(run.stdout.contains(#""name": "Ada Lovelace""#))
        #expect(run.stdout.contains("X-Total-Count: 25"))
        #expect(run.stdout.contains(#""body": "{\"name\": \"Grace\",\n  \"email\": \"g@example.com\"}""#))
        #expect(run.stderr == "error at column 1: unknown command 'hedaer' — did you mean 'header'?\n")
        #expect(!run.stdout.contains("\u{1B}["), "no colors when not on a terminal")
        #expect(!run.stdout.contains("GET"), "no prompt when not on a terminal")
    }

    /// Start-up values go to the session as values, not text: a quote in the base URL or in the
    /// description's path is part of it, not the end of a word.
    @Test func startUpValuesWithQuotesAreTakenAsTheyAre() throws {
        let server = try DemoServerProcess(accessLog: true)
        let folder = NSTemporaryDirectory() + "fathom-quotes-\(UUID().uuidString)/dir with \"quotes\""
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let spec = folder + "/api.json"
        try DemoOpenAPI.json.write(toFile: spec, atomically: true, encoding: .utf8)
        let run = try FathomBinary.run(["--spec", spec, server.baseURL + "/echo/a\"b"], script: "get\nspec\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.takeRequests() == ["GET /echo/a%22b/"])
        #expect(run.stdout.contains("dir with \"quotes\"/api.json): 32 operations"))
    }

    /// A slow request in a script prints its response and nothing about Ctrl-C.
    @Test func aScriptNeverSaysCtrlCCancels() throws {
        let server = try DemoServerProcess()
        let run = try FathomBinary.run([server.baseURL, "-c", "get /slow ms==1300"])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("Ctrl-C") && !run.stderr.contains("Ctrl-C"))
    }

    @Test func commandsFromDashCAndExitStatus() throws {
        let server = try DemoServerProcess()
        let ok = try FathomBinary.run(["-c", "base \(server.baseURL)", "-c", "get /users/2", "--color", "always"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("\u{1B}[1;32m200 OK\u{1B}[0m"), "--color always colors the status")
        #expect(ok.stdout.contains("Grace Hopper"))

        let failed = try FathomBinary.run(["-c", "get http://127.0.0.1:9/", "-c", "get \(server.baseURL)/users/3"])
        #expect(failed.status == 1)
        #expect(failed.stderr == "error: connection refused to 127.0.0.1:9 — is the server running?\n")
        #expect(failed.stdout.contains("Alan Turing"), "a failed command does not stop the next")

        let exit = try FathomBinary.run(["-c", "exit", "-c", "get http://127.0.0.1:9/"])
        #expect(exit.status == 0)
        #expect(exit.stderr.isEmpty)
    }

    @Test func demoFlagStartsTheDemoAndPrintsATour() throws {
        let run = try FathomBinary.run(["--demo", "-c", "get /users/1", "-c", "show session"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("Fathom demo API at http://127.0.0.1:"))
        #expect(lines[1].hasPrefix("Try: get /users"))
        #expect(lines[2].hasPrefix("Auth: post /login"))
        #expect(run.stdout.contains("Ada Lovelace"))
    }

    @Test func environmentsAndDotEnvSecrets() throws {
        let server = try DemoServerProcess()
        let directory = NSTemporaryDirectory() + "fathom-env-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(
            """
            {"local": {"base": "\(server.baseURL)", "variables": {"user": 2, "greeting": "hi"}, "secrets": ["token"]},
             "nowhere": {"base": "http://127.0.0.1:9"}}
            """.utf8
        ).write(to: URL(fileURLWithPath: directory + "/fathom.env.json"))
        try Data("FATHOM_SECRET_TOKEN=dotenv-secret-value-123456\n".utf8).write(
            to: URL(fileURLWithPath: directory + "/.env"))

        let run = try FathomBinary.run(
            ["--env", "local"],
            script:
                "env\nget /users/{{user}}\nget /echo X-Token:{{token}}\nvars\nenv use nowher\nenv use nowhere\nget /\n",
            environment: ["XDG_CONFIG_HOME": directory + "/config"], directory: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("* local"))
        #expect(run.stdout.contains("Grace Hopper"))
        #expect(run.stdout.contains(#""X-Token","#))
        #expect(!run.stdout.contains("dotenv-secret-value-123456"))
        #expect(run.stdout.contains("token    = ••••3456  (secret)"))
        #expect(run.stderr.contains("error: no environment 'nowher' — did you mean 'nowhere'?"))
        #expect(run.stderr.contains("connection refused to 127.0.0.1:9"))
    }

    @Test func helpAndCompletionScriptsComeFromArgumentParser() throws {
        let help = try FathomBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("prompt (default)"))
        #expect(help.stdout.contains("fmt"))
        let promptHelp = try FathomBinary.run(["prompt", "--help"])
        #expect(promptHelp.stdout.contains("-c <c>"))
        #expect(promptHelp.stdout.contains("--demo"))
        let bash = try FathomBinary.run(["--generate-completion-script", "bash"])
        #expect(bash.status == 0)
        #expect(bash.stdout.contains("complete"))
        let bad = try FathomBinary.run(["--colour", "never"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--colour"))
    }
}
