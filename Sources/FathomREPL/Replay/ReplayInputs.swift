import Foundation

/// What `fathom replay` is given, as the files it runs: a file as it is, a folder as every
/// `.fathom` file under it, a glob (`tests/**/*.fathom`, quoted so the shell leaves it) as the
/// files it matches — each folder and glob sorted, so a run's order never depends on the disk.
enum ReplayInputs {
    /// The files `arguments` name, in order, each once; and the arguments that name none.
    static func expand(_ arguments: [String]) -> (files: [String], problems: [ReplayProblem]) {
        var files: [String] = []
        var seen = Set<String>()
        var problems: [ReplayProblem] = []
        func add(_ file: String) {
            if seen.insert(file).inserted { files.append(file) }
        }
        for argument in arguments {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    add(argument)
                    continue
                }
                let found = sessionFiles(under: argument)
                if found.isEmpty {
                    problems.append(ReplayProblem(file: argument, reason: "no .fathom files in this folder"))
                }
                found.forEach(add)
            } else if isGlob(argument) {
                let found = matches(argument)
                if found.isEmpty {
                    problems.append(
                        ReplayProblem(
                            file: argument, reason: "matches no files",
                            hint: "`**` matches any folders, `*` any name in one folder"))
                }
                found.forEach(add)
            } else {
                // Read as a file, so it fails where every other unreadable file fails.
                add(argument)
            }
        }
        return (files, problems)
    }

    static func isGlob(_ text: String) -> Bool { text.contains { $0 == "*" || $0 == "?" || $0 == "[" } }

    /// Every `.fathom` file under `folder`, sorted by path; hidden folders are not entered.
    static func sessionFiles(under folder: String) -> [String] {
        walk(folder).filter { $0.hasSuffix(".fathom") }
    }

    /// The files `pattern` matches: segments between `/` match one name each, as the shell
    /// matches them, and `**` matches any number of folders.
    static func matches(_ pattern: String) -> [String] {
        var segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // Start where the pattern stops being literal.
        var root = pattern.hasPrefix("/") ? "/" : ""
        while let first = segments.first, !isGlob(first), segments.count > 1 {
            root += first + "/"
            segments.removeFirst()
        }
        let start = root.isEmpty ? "." : String(root.dropLast(root == "/" ? 0 : 1))
        return walk(start).filter { path in
            let relative = root.isEmpty ? String(path.dropFirst(2)) : String(path.dropFirst(root.count))
            return match(segments[...], relative.split(separator: "/").map(String.init)[...])
        }
        .map { path in root.isEmpty ? String(path.dropFirst(2)) : path }
    }

    private static func match(_ pattern: ArraySlice<String>, _ names: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return names.isEmpty }
        if first == "**" {
            // Zero folders, or one more and try again.
            if match(pattern.dropFirst(), names) { return true }
            return !names.isEmpty && match(pattern, names.dropFirst())
        }
        guard let name = names.first, fnmatch(first, name, FNM_PERIOD) == 0 else { return false }
        return match(pattern.dropFirst(), names.dropFirst())
    }

    /// Every file under `folder`, as `folder/…` paths, sorted; hidden entries left out.
    private static func walk(_ folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            let path = folder == "/" ? "/" + relative : folder + "/" + relative
            if name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }
}

/// Files a project keeps beside its session files: found from a file's folder up to the
/// repository's root (the folder with `.git`), so `fathom replay tests/api/*.fathom` from the
/// root finds the `fathom.env.json` and `.env` the files were written with.
enum ProjectFiles {
    /// The nearest `name` from `folder` up to the repository root (or the file system's root,
    /// outside a repository).
    static func nearest(_ name: String, from folder: String) -> String? {
        var current = URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL.path
        while true {
            let candidate = (current as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let isRoot = FileManager.default.fileExists(atPath: (current as NSString).appendingPathComponent(".git"))
            let parent = (current as NSString).deletingLastPathComponent
            if isRoot || parent == current || parent.isEmpty { return nil }
            current = parent
        }
    }
}
