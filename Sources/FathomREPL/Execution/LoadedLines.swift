/// How a session file's lines run inside another line (`load FILE`, a pasted or imported file):
/// one by one in the same session, file names in them read from the file's own folder, at most
/// ``LoadCommand/depthLimit`` loads deep. The prompt, scripts and replay each say what running one
/// line means to them (print it, or count it in a report); this is the rest, in one place.
enum LoadedLines {
    /// Runs `each` on the file's entries in order until it returns `false`; `false` when the
    /// load is too deep to run at all (nothing ran).
    static func run(
        _ file: SessionFile, in executor: Executor, depth: Int, _ each: (SessionFile.Entry) async -> Bool
    ) async -> Bool {
        guard depth < LoadCommand.depthLimit else { return false }
        // Its `body @`, `load` and `spec` lines name files beside it.
        let folder = await executor.resolveFiles(besideFile: file.path)
        for entry in file.entries where !(await each(entry)) { break }
        await executor.resolveFiles(under: folder)
        return true
    }
}
