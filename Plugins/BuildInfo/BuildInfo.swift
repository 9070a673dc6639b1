import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` for the `fathom` executable before each build: the commit the source
/// is at (`git rev-parse`), so `fathom --version` says what it was built from. Outside a git
/// checkout (a release tarball) the commit is `unknown`. The file is rewritten only when the
/// commit changes, so an unchanged build compiles nothing again.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        let root = context.package.directoryURL.path(percentEncoded: false)
        let script = """
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
            [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ] && commit="$commit+changes"
            text="/// The commit this binary was built from (\\`git rev-parse --short=12 HEAD\\`).
            let buildCommit = \\"$commit\\""
            [ "$(cat "$2" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" > "$2"
            """
        return [
            .prebuildCommand(
                displayName: "Recording the commit fathom is built from",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "build-info", root, output.path(percentEncoded: false)],
                outputFilesDirectory: context.pluginWorkDirectoryURL)
        ]
    }
}
