import ArgumentParser
import FathomDemo
import FathomHTTP
import Foundation

@main
struct Fathom: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fathom",
        abstract: "Explore HTTP APIs from the terminal.",
        discussion: """
            The interactive prompt is being built. Today `fathom --demo` starts the built-in demo API
            on 127.0.0.1 and tours the FathomHTTP library against it, `fathom serve` runs the demo
            API until interrupted, and `fmt`, `query`, `diff` and `patch` work on JSON documents.
            """,
        version: "0.1.0",
        subcommands: [Format.self, Query.self, Diff.self, Patch.self, Serve.self]
    )

    @Flag(name: .long, help: "Start the built-in demo API on 127.0.0.1 and tour the library against it.")
    var demo = false

    @OptionGroup var output: OutputOptions

    func run() async throws {
        guard demo else {
            print(Fathom.helpMessage())
            return
        }
        let server = try await DemoAPI.start()
        defer { Task { await server.stop() } }
        let style = Style(enabled: output.color.isEnabled)
        try await Tour(baseURL: server.baseURL, style: style).run()
        await server.stop()
    }
}

/// `fathom serve`: the demo API in the foreground.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the demo API on 127.0.0.1 until interrupted.")

    @Option(name: .long, help: "The port to listen on; 0 picks a free one.")
    var port = 0

    func run() async throws {
        let server = try await DemoAPI.start(port: port)
        print(server.baseURL)
        fflush(nil)
        try await server.wait()
    }
}

/// Options every command shares. Declared as one group in the root and in each subcommand, so
/// `--color` reaches whichever command runs (a plain option in both would be taken by the root).
struct OutputOptions: ParsableArguments {
    @Option(help: "Color output: auto (a terminal, and NO_COLOR unset), always or never.")
    var color: ColorMode = .auto
}

enum ColorMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    var isEnabled: Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        }
    }
}
