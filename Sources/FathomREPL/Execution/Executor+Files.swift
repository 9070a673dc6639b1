import FathomHTTP
import FathomJSON
import Foundation

extension Executor {
    // MARK: - The session log

    /// Keeps a line that ran for `save`, as it will be written back.
    func log(_ command: Command, entry: String) {
        guard let kind = command.logKind else { return }
        var text = entry.trimmingTrailingBlanks
        switch command {
        case .secret(let name, let value) where value != nil:
            // The value stays in memory; the file asks for it.
            text = "secret \(name)"
        case .auth(.basic(let user, nil)):
            // A password typed at the prompt: written as a reference to a secret by the writer.
            if case .basic(_, let password?) = session.auth { text = "auth basic \(user):\(password)" }
        default: break
        }
        session.log.append(text, kind: kind, summary: lastSent?.summary, recorded: lastSent?.recorded)
    }

    // MARK: - save

    func save(to file: String, requestsOnly: Bool) throws {
        let path = Self.expandTilde(try session.variables.expand(file))
        guard !session.log.lines.isEmpty else {
            throw CommandError("nothing to save yet", hint: "build and send a request first")
        }
        let fileName = (path as NSString).lastPathComponent
        let writer = SessionWriter(
            log: session.log, variables: session.variables, secretValues: redactor.secretValues,
            requestsOnly: requestsOnly, externalNames: externalVariables.map(\.name))
        let output = writer.write(fileName: fileName, redactor: redactor)
        // Whatever could not be named is masked rather than written.
        let text = redactor.redact(output.text)
        try write(text, to: path)
        var message = "saved \(output.requests) request\(output.requests == 1 ? "" : "s") to \(path)"
        if !output.recordings.isEmpty {
            let recordingPath = Recording.path(forSession: path)
            let recording = Recording(session: fileName, entries: output.recordings)
            try write(redactor.redact(recording.serialized()), to: recordingPath)
            message +=
                " and \(output.recordings.count) recorded response\(output.recordings.count == 1 ? "" : "s") to \(recordingPath)"
        } else if session.recording {
            message += palette.dim(" (nothing recorded: `record on` keeps the responses sent after it)")
        }
        say(message)
        if !output.namedSecrets.isEmpty {
            let keys = output.namedSecrets.map { "\($0) (\(DotEnv.secretKey(for: $0)))" }.joined(separator: ", ")
            say(palette.dim("credentials typed into lines are saved by name only: \(keys)"))
        }
    }

    /// Writes `text` atomically: an interrupted save leaves the old file as it was.
    func write(_ text: String, to path: String) throws {
        do {
            try AtomicFile.write(Data(text.utf8), to: path)
        } catch let error as POSIXError {
            let reason = String(cString: strerror(error.code.rawValue)).lowercased()
            throw CommandError("cannot save to \(path): \(reason)", hint: "the file as it was is unchanged")
        }
    }

    // MARK: - load

    func load(_ file: String) async throws -> Outcome {
        guard loadDepth < 8 else {
            throw CommandError("load is nested more than 8 deep", hint: "does a file load itself?")
        }
        let path = Self.expandTilde(try session.variables.expand(file))
        let sessionFile: SessionFile
        do {
            sessionFile = try SessionFile.read(path)
        } catch {
            throw CommandError("cannot load \(error.description)", hint: "nothing in it was run")
        }
        loadDepth += 1
        let outerLocation = location
        defer {
            loadDepth -= 1
            location = outerLocation
        }
        var failures = 0
        for entry in sessionFile.entries {
            location = "\(path):\(entry.line)"
            let outcome = await run(entry.text)
            if outcome == .exit { break }
            if outcome == .failed { failures += 1 }
        }
        location = outerLocation
        let count = sessionFile.entries.count
        if failures == 0 {
            say(palette.dim("loaded \(path): \(count) line\(count == 1 ? "" : "s")"))
            return .succeeded
        }
        fail("loaded \(path): \(failures) of \(count) lines failed")
        return .failed
    }

    // MARK: - record

    func record(_ on: Bool?) {
        guard let on else {
            say("record \(session.recording ? "on" : "off")")
            return
        }
        session.recording = on
        if on { say(palette.dim("recording: responses from now on are written beside the file by `save FILE`")) }
    }

    // MARK: - replay

    /// `replay FILE…` at the prompt: each file in a fresh session, reported here.
    func replay(_ files: [String], compare: Bool) async -> Outcome {
        var replayOptions = ReplayRunner.Options()
        replayOptions.compare = compare
        replayOptions.colors = palette.enabled
        replayOptions.executor = options
        // `--demo`'s `{{demo}}` and the like: what the session was given, each file gets too.
        replayOptions.variables = externalVariables
        let paths = files.map { Self.expandTilde((try? session.variables.expand($0)) ?? $0) }
        let status = await ReplayRunner(options: replayOptions, output: console, prompter: console).run(files: paths)
        return status == 0 ? .succeeded : .failed
    }

    // MARK: - For replay

    /// Sets a variable from outside the session (`replay --var`, the demo's `demo`): usable in
    /// every line, but not part of what `save` writes.
    public func define(_ name: String, _ value: String) {
        session.variables.set(name, value)
        externalVariables.removeAll { $0.name == name }
        externalVariables.append((name, value))
    }

    /// Runs an entry of a file: `location` (`FILE:LINE`) goes before its error messages, and the
    /// events it caused come back with its outcome (one call, one hop onto the actor).
    public func run(_ entry: String, location: String) async -> (Outcome, [Event]) {
        self.location = location
        defer { self.location = nil }
        let outcome = await run(entry)
        return (outcome, takeEvents())
    }

    /// The `secret NAME` lines with no value at hand: not in the environment or `.env`, and no
    /// terminal to ask on.
    public func missingSecrets(_ names: [String]) -> [String] {
        guard !console.canAskForSecrets else { return [] }
        return names.filter { storedSecretValue($0) == nil }
    }

    /// The differences between response #`number` and its recording, as lines; empty when they
    /// match (volatile fields and secrets left out).
    public func compare(response number: Int, with recorded: Recording.Entry) throws -> [String] {
        let response = try session.responses.entry(number).response
        var lines: [String] = []
        // The recording holds the path masked, as everything saved: compare it masked.
        let path = redactor.redact(response.url.path)
        if response.request.method.rawValue != recorded.method || path != recorded.path {
            lines.append(
                "recorded \(recorded.method) \(recorded.path), sent \(response.request.method) \(path) — record the file again"
            )
        }
        if response.status.code != recorded.status {
            lines.append("status \(recorded.status) → \(response.status.code)")
        }
        let oldType = recorded.contentType.map(MediaType.essence)
        let newType = response.contentType.map(MediaType.essence)
        if oldType != newType {
            lines.append("content type \(recorded.contentType ?? "none") → \(response.contentType ?? "none")")
        }
        let body = Recording.body(response.body, contentType: response.contentType, redactor: redactor)
        switch (recorded.body, body) {
        case (.json(let old), .json(let new)):
            let ignore = session.volatile.compactMap { try? JSONPath($0) }
            let diff = JSONDiff(from: old, to: new, options: JSONDiff.Options(ignore: ignore))
            if !diff.isEmpty {
                lines += diff.tree(colors: palette.enabled).split(separator: "\n").map(String.init)
            }
        case (.text(let old), .text(let new)) where old != new:
            lines += TextDiff(from: old, to: new).unified(colors: palette.enabled).split(separator: "\n").map(
                String.init)
        case (let old, let new) where old != new:
            lines.append("body \(old) → \(new)")
        default: break
        }
        return lines.map(redactor.redact)
    }

}
