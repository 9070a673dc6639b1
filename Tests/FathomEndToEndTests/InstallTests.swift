import FathomTestSupport
import Foundation
import Testing

/// `make install` as a person runs it: into a folder (`DESTDIR`), then the installed binary runs
/// with the Swift toolchain off PATH, its completion script completes, and its manual renders
/// without a warning. The build is a release one in its own folder (`.build-install`): `swift
/// test` holds `.build`'s lock while it runs.
@Suite struct InstallTests {
    static let root = FathomBinary.packageRoot

    /// `command` run with only the system's PATH (no Swift) and no library path.
    static func bare(_ command: [String]) throws -> (status: Int32, output: String) {
        try Program.run(["env", "-i", "PATH=/usr/bin:/bin", "HOME=\(NSTemporaryDirectory())", "TERM=dumb"] + command)
    }

    @Test func makeInstallGivesAWorkingFathomAndMakeUninstallTakesItAway() throws {
        let destination = NSTemporaryDirectory() + "fathom-install-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let make = ["make", "-C", Self.root, "SCRATCH=.build-install", "DESTDIR=\(destination)", "PREFIX=/usr/local"]
        let install = try Program.run(make + ["install"])
        #expect(install.status == 0, "\(install.output.suffix(3_000))")
        let prefix = destination + "/usr/local"
        let fathom = prefix + "/bin/fathom"
        guard FileManager.default.isExecutableFile(atPath: fathom) else { return }

        // The version and commit, as the build says.
        let version = try Self.bare([fathom, "--version"])
        #expect(version.status == 0 && version.output.hasPrefix("0.3.0 (commit "), "\(version.output)")

        // No Swift library is loaded from anywhere: the standard library and Foundation are in it.
        let libraries = try Program.run(["ldd", fathom])
        #expect(libraries.status == 0)
        for swift in ["libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "/opt/swift"] {
            #expect(!libraries.output.contains(swift), "\(libraries.output)")
        }
        // Nor libcurl and the libraries under it: nothing in Fathom needs FoundationNetworking.
        #expect(!libraries.output.contains("libcurl"), "\(libraries.output)")

        // A one-liner against a server on loopback, and the demo, with Swift off PATH.
        let server = try DemoServerProcess()
        let oneLiner = try Self.bare([fathom, "--color", "never", "-c", "get \(server.baseURL)/users/1"])
        #expect(oneLiner.status == 0 && oneLiner.output.contains("HTTP/1.1 200 OK"), "\(oneLiner.output)")
        let demo = try Self.bare([fathom, "--color", "never", "--demo", "-c", "get /users"])
        #expect(demo.status == 0 && demo.output.contains("Grace Hopper"), "\(demo.output)")

        // The bash completion script completes a subcommand.
        let completion = try Program.run([
            "bash", "-c",
            """
            source '\(prefix)/share/bash-completion/completions/fathom'
            COMP_WORDS=(fathom rep); COMP_CWORD=1; COMP_LINE='fathom rep'; COMP_POINT=10
            function=$(complete -p fathom | sed 's/.*-F \\([^ ]*\\).*/\\1/')
            "$function" fathom rep fathom
            echo "${COMPREPLY[@]}"
            """,
        ])
        #expect(completion.output.trimmingCharacters(in: .whitespacesAndNewlines) == "replay", "\(completion.output)")
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/zsh/site-functions/_fathom"))
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/fish/vendor_completions.d/fathom.fish"))

        // The manual renders without a warning, and has the prompt's commands from the registry.
        let page = prefix + "/share/man/man1/fathom.1"
        let warnings = try Program.run(["sh", "-c", "MANWIDTH=80 man --warnings -l '\(page)' 2>&1 >/dev/null"])
        #expect(warnings.output.isEmpty, "\(warnings.output)")
        let rendered = try Program.run(["sh", "-c", "MANWIDTH=80 man -l '\(page)' 2>/dev/null"])
        for expected in ["PROMPT COMMANDS", "replay", "spec [--remote] [--max-documents N]", "EXIT STATUS"] {
            #expect(rendered.output.contains(expected), "the manual lacks \(expected)")
        }

        let uninstall = try Program.run(make + ["uninstall"])
        #expect(uninstall.status == 0)
        #expect(!FileManager.default.fileExists(atPath: fathom))
        #expect(!FileManager.default.fileExists(atPath: page))
    }
}

/// The person's config file, as the binary reads it: settings by source in `fathom config`, a
/// malformed line one clear line on stderr, and the prompt still starts with the rest applied.
@Suite struct UserConfigEndToEndTests {
    @Test func aConfigSetsThePromptAndABadLineIsOneLine() throws {
        let directory = NSTemporaryDirectory() + "fathom-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/fathom", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/fathom/config"
        try "# mine\ntimeout 7s\nvalidate strict\ncolour never\noutput json\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let environment = ["FATHOM_CONFIG": "", "XDG_CONFIG_HOME": directory, "FATHOM_REDIRECTS": "2"]

        let shown = try FathomBinary.run(["config", "--output", "text"], environment: environment)
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("config file: \(file)\n"))
        #expect(shown.stdout.contains("timeout       7s      \(file):2"), "\(shown.stdout)")
        #expect(shown.stdout.contains("redirects     2       environment FATHOM_REDIRECTS"))
        #expect(shown.stdout.contains("output        text    flag --output"))
        #expect(shown.stdout.contains("history       1000    built-in"))
        #expect(shown.stdout.contains("archive-size  100MB   built-in"))
        #expect(
            shown.stderr
                == "fathom: \(file):4: 'colour' is not a setting the config holds (color, output, history, pager, timeout, redirects, validate, archive, archive-size, archive-age)\n"
        )

        // The prompt starts, in the config's output format, with its settings applied.
        let server = try DemoServerProcess()
        let run = try FathomBinary.run(
            [server.baseURL, "-c", "validate", "-c", "timeout", "-c", "redirects"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("fathom: \(file):4: 'colour'"))
        #expect(run.stdout.contains(#""name":"validate","value":"strict""#), "\(run.stdout)")
        #expect(run.stdout.contains(#""name":"timeout","value":7000.000,"unit":"ms""#), "\(run.stdout)")
        #expect(run.stdout.contains(#""name":"redirects","value":2}"#), "\(run.stdout)")
    }
}

/// FathomHTTP as a dependency: `Examples/ReadmeExample`, a package outside Fathom's targets that
/// depends on the library's product by path, builds and runs the README's example against the
/// demo API — the product and public API exercised the way a user's package uses them.
@Suite struct LibraryAsADependencyTests {
    @Test func aPackageThatDependsOnFathomHTTPRunsTheREADMEsExample() throws {
        let package = FathomBinary.packageRoot + "/Examples/ReadmeExample"
        let build = try Program.run(["swift", "build", "--package-path", package])
        #expect(build.status == 0, "\(build.output.suffix(3_000))")
        let server = try DemoServerProcess()
        let bin = try Program.run(["swift", "build", "--package-path", package, "--show-bin-path"])
        let run = try Program.run([
            bin.output.trimmingCharacters(in: .whitespacesAndNewlines) + "/readme-example", server.baseURL,
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(
            run.output == "[\"Ada Lovelace\", \"Grace Hopper\", \"Alan Turing\"]\n401 Unauthorized\n", "\(run.output)")
    }
}
