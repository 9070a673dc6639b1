@_spi(Fathom) import FathomHTTP
import Foundation

/// `export curl|httpie|swift [#N|--all]`: the draft (or the request behind response #N, or every
/// request the session kept) as curl or HTTPie commands that bash runs to send the identical
/// requests, or as a Swift program on FathomHTTP; secrets by name (`FATHOM_SECRET_<NAME>`).
struct ExportCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "export", synopsis: "export curl|httpie|swift|grpcurl [#N|--all] | export har FILE",
        summary:
            "the draft, #N's request or all as curl, HTTPie or FathomHTTP code; a gRPC call as grpcurl; the session as HAR 1.2",
        details: """
            The command sends the same method, URL, headers and body bytes. Each secret becomes \
            ${FATHOM_SECRET_<NAME>}: set that variable where the command runs. `export grpcurl` writes a gRPC \
            call (`call`: the last one, #N, or every one with --all) as the grpcurl command that makes it again.
            """,
        completion: .sequence([.words(["curl", "httpie", "swift", "grpcurl", "har"]), .files]), group: .draft)

    enum Format: String, CaseIterable, Equatable, Sendable {
        case curl, httpie, swift, grpcurl, har
    }

    var format: Format = .curl
    /// `nil` exports the draft.
    var response: Int?
    /// `--all`: every request behind the responses the session keeps.
    var all = false
    /// `export har FILE`: where the log goes.
    var file: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let formatWord = try arguments.word("a format")
        guard let format = Format(rawValue: formatWord.text.lowercased()) else {
            throw arguments.badChoice(formatWord, Format.allCases.map(\.rawValue))
        }
        if format == .har {
            return ExportCommand(format: .har, response: nil, all: true, file: try arguments.single("a file").text)
        }
        guard let word = try arguments.optionalWord() else { return ExportCommand(format: format, response: nil) }
        try arguments.end()
        if word.text == "--all", !word.quoted { return ExportCommand(format: format, response: nil, all: true) }
        guard let number = try CommandParser.responseNumber(word) else {
            throw CommandError(.parse, "expected #N, not '\(word.text)'", column: word.column, hint: arguments.usage)
        }
        return ExportCommand(format: format, response: number)
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String {
        var writer = LineWriter("export \(format.rawValue)")
        if let file { writer.word(file, literal: true) }
        if all, format != .har { writer.raw("--all") }
        if let response { writer.raw("#\(response)") }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if format == .har, let file { return try Self.writeHAR(to: file, executor) }
        if format == .grpcurl { return try grpcurl(executor) }
        let requests: [PreparedRequest]
        if all {
            // A gRPC call is no HTTP request a curl line could make: `export grpcurl` writes those.
            requests = executor.record.responses.entries.filter { $0.grpc == nil }.map(\.response.request)
            guard !requests.isEmpty else {
                throw CommandError(
                    .session, "no responses yet to export", hint: "send a request first, or export the draft")
            }
        } else if let response {
            let entry = try executor.record.responses.entry(response)
            guard entry.grpc == nil else {
                throw CommandError(
                    .session, "#\(response) is a gRPC call, not an HTTP request",
                    hint: "`export grpcurl #\(response)` writes it as a grpcurl command")
            }
            requests = [entry.response.request]
        } else {
            requests = [try await executor.preview(executor.session.draft).request]
        }
        let secrets = Self.namedSecrets(executor)
        let text: String
        switch format {
        case .curl:
            let export = CurlExport(secrets: secrets)
            text = try requests.map { request throws(CommandError) in try export.command(for: request) }
                .joined(separator: "\n")
        case .httpie:
            let export = HTTPieExport(secrets: secrets)
            text = try requests.map { request throws(CommandError) in try export.command(for: request) }
                .joined(separator: "\n")
        case .swift:
            text = SwiftExport(secrets: secrets).program(for: requests)
        case .har, .grpcurl:
            throw CommandError(.session, "export har needs a file", hint: "usage: export har FILE")
        }
        var outputs: [Output] = [.export(ExportText(format: format.rawValue, text: text))]
        if response == nil, !all, try await executor.preview(executor.session.draft).tokenFetchedOnSend {
            outputs.append(.event(.exportTokenOnSend))
        }
        return CommandResult(.succeeded, outputs)
    }

    /// gRPC calls as grpcurl commands: #N, every one kept (`--all`), or the last.
    private func grpcurl(_ executor: isolated Executor) throws -> CommandResult {
        let entries = executor.record.responses.entries
        let chosen: [ResponseHistory.Entry]
        if all {
            chosen = entries.filter { $0.grpc != nil }
        } else if let response {
            chosen = [try executor.record.responses.entry(response)]
        } else {
            chosen = entries.last(where: { $0.grpc != nil }).map { [$0] } ?? []
        }
        guard !chosen.isEmpty else {
            throw CommandError(.session, "no gRPC call to export", hint: "`call SERVICE/METHOD …` makes one")
        }
        let export = GRPCurlExport(secrets: Self.namedSecrets(executor))
        let insecure = executor.session.settings.insecure
        let text = try chosen.map { entry throws(CommandError) in try export.command(for: entry, insecure: insecure) }
            .joined(separator: "\n")
        return .shows(.export(ExportText(format: format.rawValue, text: text)))
    }

    /// The kept responses, with their requests, as a HAR 1.2 log written atomically.
    private static func writeHAR(to file: String, _ executor: isolated Executor) throws -> CommandResult {
        let entries = executor.record.responses.entries
        guard !entries.isEmpty else {
            throw CommandError(.session, "no responses yet to export", hint: "send a request first")
        }
        let path = executor.resolvePath(try executor.session.variables.expand(file))
        let text = HARExport(redactor: executor.redactor).document(entries).formatted(.pretty)
        do {
            // Masked once more as a whole: whatever the fields missed is not written.
            try AtomicFile.write(Data(executor.redactor.redact(text).utf8), to: path)
        } catch let error as POSIXError {
            let reason = String(cString: strerror(error.code.rawValue)).lowercased()
            throw CommandError(.file, .cannotWrite(path: path, reason: reason), hint: "the file as it was is unchanged")
        }
        return .shows(.event(.wroteHAR(path: path, entries: entries.count)))
    }

    /// Every secret the session knows, named as `save` names it — a secret variable by its own
    /// name, a credential typed into a line after what holds it (`password=…`, `auth bearer …`) —
    /// so an export and a saved file ask for the same `FATHOM_SECRET_<NAME>`; the rest numbered.
    static func namedSecrets(_ executor: isolated Executor) -> ExportSecrets {
        let session = executor.session
        let writer = SessionWriter(
            log: executor.record.log, variables: session.variables, secretValues: executor.redactor.secretValues,
            requestsOnly: false)
        var secrets = writer.substitutedLines(executor.record.log.lines).names.map {
            ExportSecrets.Secret(value: $0.value, name: $0.name)
        }
        var known = Set(secrets.map(\.value))
        var counter = 1
        for value in executor.redactor.secretValues where !known.contains(value) {
            secrets.append(.init(value: value, name: counter == 1 ? "secret" : "secret\(counter)"))
            known.insert(value)
            counter += 1
        }
        return ExportSecrets(secrets)
    }
}
