import FathomHTTP
import Foundation

/// Reading and checking every file before anything is sent.
extension ReplayRunner {
    /// Why a file cannot be run, as the problems a report lists.
    struct Unrunnable: Error {
        var problems: [ReplayProblem]
    }

    /// Reads the file at `path` with what it needs: its recording (with `--compare`), the
    /// environments and `.env` nearest to it, and a check that every file it reads exists.
    func read(_ path: String) throws(Unrunnable) -> Plan {
        let folder = (path as NSString).deletingLastPathComponent
        var executor = options.executor
        executor.prompter = prompter
        executor.environmentPaths = environmentPaths(from: folder)
        executor.dotEnvPath = options.dotEnvFile ?? ProjectFiles.nearest(".env", from: folder) ?? executor.dotEnvPath
        do {
            if path.lowercased().hasSuffix(".har") {
                if options.record {
                    throw CommandError(.replay, "a HAR holds its own responses: --record writes none for it")
                }
                // A HAR is its own recording: today's responses are compared with the ones it holds.
                let har = try Importer.harReplay(path, redactor: Redactor())
                return Plan(
                    file: har.file, recording: options.compare ? har.recording : nil, secrets: har.secrets,
                    isHAR: true, executor: executor)
            }
            let file = try SessionFile.read(path)
            var plan = Plan(file: file, executor: executor)
            let missing = missingFiles(file, folder: folder)
            guard missing.isEmpty else { throw Unrunnable(problems: missing) }
            if options.compare {
                let recordingPath = Recording.path(forSession: path)
                if FileManager.default.fileExists(atPath: recordingPath) {
                    plan.recording = try Recording.load(recordingPath)
                } else {
                    plan.recordingMissing = true
                }
            }
            return plan
        } catch let unrunnable as Unrunnable {
            throw unrunnable
        } catch let problem as SessionFile.Problem {
            throw Unrunnable(problems: [
                ReplayProblem(
                    file: problem.path, line: problem.line, column: problem.column, reason: problem.message,
                    hint: problem.hint)
            ])
        } catch let error as CommandError {
            throw Unrunnable(problems: [ReplayProblem(file: path, reason: error.message, hint: error.advice)])
        } catch {
            throw Unrunnable(problems: [ReplayProblem(file: path, reason: "\(error)")])
        }
    }

    /// Where a file in `folder` finds its environments: `--env-file`, else the nearest
    /// `fathom.env.json` up to the repository root, then the usual places.
    private func environmentPaths(from folder: String) -> [String] {
        if let file = options.environmentFile { return [file] }
        var paths = ProjectFiles.nearest("fathom.env.json", from: folder).map { [$0] } ?? []
        for path in options.executor.environmentPaths
        where !paths.contains(where: { Self.samePath($0, path) }) {
            paths.append(path)
        }
        return paths
    }

    private static func samePath(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }

    /// The files `file`'s lines read (`body @`, `load`, `spec`, `mock … @`, items `name@path`)
    /// that are not there, each with its line. Names with `{{variables}}` are known only when
    /// they run.
    func missingFiles(_ file: SessionFile, folder: String) -> [ReplayProblem] {
        var problems: [ReplayProblem] = []
        for entry in file.entries {
            for written in entry.command.filesRead where !written.contains("{{") && written != "-" {
                let expanded = Executor.expandTilde(written)
                let path =
                    expanded.hasPrefix("/") || folder.isEmpty
                    ? expanded : (folder as NSString).appendingPathComponent(expanded)
                guard !FileManager.default.fileExists(atPath: path) else { continue }
                problems.append(
                    ReplayProblem(
                        file: file.path, line: entry.line, reason: "no such file: \(written)",
                        hint: expanded.hasPrefix("/")
                            ? nil : "a relative name is read from the session file's folder (\(path))"))
            }
        }
        return problems
    }

    /// `--env-file` and `--dotenv` exist.
    func checkGivenFiles() -> [ReplayProblem] {
        var problems: [ReplayProblem] = []
        for (option, path) in [("--env-file", options.environmentFile), ("--dotenv", options.dotEnvFile)] {
            guard let path, !FileManager.default.fileExists(atPath: path) else { continue }
            problems.append(ReplayProblem(file: "\(option) \(path)", reason: "no such file"))
        }
        return problems
    }

    /// Each file's session, sending nothing, answers: its environment can be used, and every
    /// `secret NAME` has a value (the environment, `.env`, `--var`) — or, at a terminal, is
    /// asked for now, once for every file, with the line that needs it, before the first
    /// request goes.
    func checkSecretsAndEnvironments(
        _ plans: [Plan]
    ) async -> (problems: [ReplayProblem], asked: [(name: String, value: String)]) {
        var problems: [ReplayProblem] = []
        var asked: [(name: String, value: String)] = []
        for plan in plans {
            let file = plan.file
            let probe = Executor(options: plan.executor)
            if let environment = options.environment {
                let command = EnvCommand(use: environment)
                let result = await probe.run(command, text: command.line, location: nil)
                if result.outcome == .failed {
                    for case .failure(let failure) in result.outputs {
                        var problem = ReplayProblem(
                            file: "--env \(environment)", reason: ErrorRenderer().message(failure.reason))
                        if case .command(let error) = failure.reason {
                            problem.reason = error.message
                            problem.hint = error.advice
                        }
                        if !problems.contains(problem) { problems.append(problem) }
                    }
                }
            }
            let secretNames = file.secretNames.filter { name in
                !options.variables.contains { $0.name == name } && !plan.secrets.contains { $0.name == name }
                    && !asked.contains { $0.name == name }
            }
            for name in await probe.storedlessSecrets(secretNames) {
                let declared = file.entries.first {
                    $0.command.secretAskedFor == name
                }?.line
                // The line that needs it says what it is for.
                let user = file.entries.first { $0.text.contains("{{\(name)}}") }
                if prompter.canAskForSecrets {
                    let context = user.map { " (\(file.path):\($0.line) \(Self.firstLine($0.text)))" } ?? ""
                    if let value = await prompter.readSecret(prompt: "\(name)\(context): "), !value.isEmpty {
                        asked.append((name, value))
                        continue
                    }
                }
                let error = CommandError.noValue(forSecret: name, canBeAsked: false)
                problems.append(
                    ReplayProblem(file: file.path, line: declared, reason: error.message, hint: error.advice))
            }
        }
        return (problems, asked)
    }

    static func firstLine(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        return line.count > 60 ? line.prefix(60) + "…" : line
    }
}

extension ReplaySummary {
    /// A run that sent nothing: each file with a problem, with its reasons (JUnit's `<error>`).
    init(problems: [ReplayProblem], elapsed: Duration) {
        var files: [FileReport] = []
        for problem in problems {
            let text = ReplayRenderer.text(of: problem)
            if let index = files.firstIndex(where: { $0.path == problem.file }) {
                files[index].problem! += "\n" + text
            } else {
                var report = FileReport(path: problem.file, redactor: Redactor())
                report.problem = text
                files.append(report)
            }
        }
        self.init(files: files, elapsed: elapsed, stopped: nil)
    }
}
