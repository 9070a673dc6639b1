import Foundation
import Testing

@testable import FathomREPL

/// The person's config file and environment: values by source, strongest first, and every
/// malformed line one problem naming its file, line and key, the rest still applied.
@Suite struct UserConfigTests {
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID())").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func valuesComeFromFlagEnvironmentFileOrFathom() throws {
        let path = try Self.file("# mine\ntimeout 7s\nvalidate strict\n\ncolor never\nredirects 3\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var config = UserConfig(path: path, environment: ["FATHOM_REDIRECTS": "1", "NO_COLOR": ""])
        config.setFlag(.output, "json", name: "--output")
        #expect(config.problems.isEmpty)
        let sources = Dictionary(uniqueKeysWithValues: config.settings.map { ($0.key, "\($0.value) \($0.source)") })
        #expect(sources[.timeout] == "7s \(path):2")
        #expect(sources[.validate] == "strict \(path):3")
        #expect(sources[.color] == "never \(path):5")
        #expect(sources[.redirects] == "1 environment FATHOM_REDIRECTS")
        #expect(sources[.output] == "json flag --output")
        #expect(sources[.history] == "1000 built-in")
        #expect(config.commandLines == ["timeout 7s", "redirects 1", "validate --default strict"])
        #expect(UserConfig(path: path, environment: ["NO_COLOR": "1"])[.color] == "never")
    }

    @Test func aMalformedLineIsOneProblemAndTheRestApplies() throws {
        let path = try Self.file("colour never\nhistory lots\nredirects\npager sometimes\ntimeout 2s\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = UserConfig(path: path, environment: ["FATHOM_OUTPUT": "yaml"])
        #expect(
            config.problems == [
                "\(path):1: 'colour' is not a setting the config holds (color, output, history, pager, timeout, redirects, validate, archive, archive-size, archive-age)",
                "\(path):2: history is a number of lines, not 'lots'",
                "\(path):3: redirects needs a value (as in `redirects 5`)",
                "\(path):4: pager sometimes: unknown pager option 'sometimes'",
                "FATHOM_OUTPUT: output is text or json, not 'yaml'",
            ])
        #expect(config[.timeout] == "2s" && config[.output] == "text" && config[.pager] == "auto")
    }

    @Test func theFileIsWhereXDGSays() {
        #expect(UserConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/fathom/config")
        #expect(UserConfig.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/fathom/config")
        #expect(UserConfig.defaultPath(environment: ["FATHOM_CONFIG": "/c", "HOME": "/h"]) == "/c")
        let none = UserConfig(path: "/nonexistent/fathom/config", environment: [:])
        #expect(none.problems.isEmpty && none.settings.allSatisfy { $0.source == .builtIn })
    }

    /// `validate --default` sets what every API named afterwards starts with; the API's own mode
    /// is still its own.
    @Test func validateDefaultIsWhatNewAPIsStartWith() async {
        let executor = Executor(options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:]))
        #expect(await executor.run("validate --default strict").outcome != .failed)
        _ = await executor.run("base http://a.test")
        #expect(await executor.session.currentAPI?.validation == .strict)
        _ = await executor.run("validate off")
        _ = await executor.run("base http://b.test")
        #expect(await executor.session.currentAPI?.validation == .strict)
        _ = await executor.run("base http://a.test")
        #expect(await executor.session.currentAPI?.validation == .off)
        #expect(await executor.run("validate --default").outcome == .failed)
    }
}
