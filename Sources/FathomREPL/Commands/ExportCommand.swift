import FathomHTTP

/// `export curl|httpie|swift [#N|--all]`: the draft (or the request behind response #N, or every
/// request the session kept) as curl or HTTPie commands that bash runs to send the identical
/// requests, or as a Swift program on FathomHTTP; secrets by name (`FATHOM_SECRET_<NAME>`).
struct ExportCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "export", synopsis: "export curl|httpie|swift [#N|--all]",
        summary: "the draft, #N's request or all of them as curl, HTTPie or FathomHTTP code (secrets by name)",
        details: """
            The command sends the same method, URL, headers and body bytes. Each secret becomes \
            ${FATHOM_SECRET_<NAME>}: set that variable where the command runs.
            """,
        completion: .words(["curl", "httpie", "swift"]), group: .draft)

    enum Format: String, CaseIterable, Equatable, Sendable {
        case curl, httpie, swift
    }

    var format: Format = .curl
    /// `nil` exports the draft.
    var response: Int?
    /// `--all`: every request behind the responses the session keeps.
    var all = false

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let formatWord = try arguments.word("a format")
        guard let format = Format(rawValue: formatWord.text.lowercased()) else {
            throw arguments.badChoice(formatWord, Format.allCases.map(\.rawValue))
        }
        guard let word = try arguments.optionalWord() else { return ExportCommand(format: format, response: nil) }
        try arguments.end()
        if word.text == "--all", !word.quoted { return ExportCommand(format: format, response: nil, all: true) }
        guard let number = try CommandParser.responseNumber(word) else {
            throw CommandError("expected #N, not '\(word.text)'", column: word.column, hint: arguments.usage)
        }
        return ExportCommand(format: format, response: number)
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let requests: [PreparedRequest]
        if all {
            requests = executor.session.responses.entries.map(\.response.request)
            guard !requests.isEmpty else {
                throw CommandError("no responses yet to export", hint: "send a request first, or export the draft")
            }
        } else if let response {
            requests = [try executor.session.responses.entry(response).response.request]
        } else {
            requests = [try await executor.prepare(executor.session.draft, preview: true)]
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
        }
        var outputs: [Output] = [.value(name: format.rawValue, value: text)]
        if response == nil, !all, case .oauth2ClientCredentials = executor.session.auth {
            outputs.append(.notice(.aside("the OAuth2 token is fetched when Fathom sends; export #N to include it")))
        }
        return CommandResult(.succeeded, outputs)
    }

    /// Every secret the session knows, with the name a replay or an export reads it by: a secret
    /// variable's own name, a credential typed into `auth` by its kind, and the rest numbered.
    static func namedSecrets(_ executor: isolated Executor) -> [CurlExport.Secret] {
        let variables = executor.session.variables
        var secrets: [CurlExport.Secret] = []
        for name in variables.names where variables.isSecret(name) {
            if let value = variables[name] { secrets.append(.init(value: value, name: name)) }
        }
        switch executor.session.auth {
        case .bearer(let token): secrets.append(.init(value: token, name: "token"))
        case .basic(_, let password?): secrets.append(.init(value: password, name: "password"))
        case .apiKey(_, _, let value): secrets.append(.init(value: value, name: "api_key"))
        case .oauth2ClientCredentials(_, _, let secret, _): secrets.append(.init(value: secret, name: "client_secret"))
        default: break
        }
        var known = Set(secrets.map(\.value))
        var counter = 1
        for value in executor.redactor.secretValues where !known.contains(value) {
            secrets.append(.init(value: value, name: counter == 1 ? "secret" : "secret\(counter)"))
            known.insert(value)
            counter += 1
        }
        return secrets.filter { !$0.value.contains("{{") }
    }
}
