/// `export curl|httpie [#N]`: the draft (or the request behind response #N) as a curl or HTTPie
/// command that bash runs to send the identical request, secrets as `${FATHOM_SECRET_<NAME>}`.
struct ExportCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "export", synopsis: "export curl|httpie [#N]",
        summary: "the draft, or the request behind #N, as a curl or HTTPie command (secrets by name, never by value)",
        details: """
            The command sends the same method, URL, headers and body bytes. Each secret becomes \
            ${FATHOM_SECRET_<NAME>}: set that variable where the command runs.
            """,
        completion: .words(["curl", "httpie"]), group: .draft)

    enum Format: String, Equatable, Sendable {
        case curl, httpie
    }

    var format: Format = .curl
    /// `nil` exports the draft.
    var response: Int?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let formatWord = try arguments.word("a format")
        guard let format = Format(rawValue: formatWord.text.lowercased()) else {
            throw arguments.badChoice(formatWord, ["curl", "httpie"])
        }
        guard let word = try arguments.optionalWord() else { return ExportCommand(format: format, response: nil) }
        try arguments.end()
        guard let number = try CommandParser.responseNumber(word) else {
            throw CommandError("expected #N, not '\(word.text)'", column: word.column, hint: arguments.usage)
        }
        return ExportCommand(format: format, response: number)
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let request =
            if let response {
                try executor.session.responses.entry(response).response.request
            } else {
                try await executor.prepare(executor.session.draft, preview: true)
            }
        let secrets = Self.namedSecrets(executor)
        let command =
            switch format {
            case .curl: try CurlExport(secrets: secrets).command(for: request)
            case .httpie: try HTTPieExport(secrets: secrets).command(for: request)
            }
        var outputs: [Output] = [.value(name: format.rawValue, value: command)]
        if response == nil, case .oauth2ClientCredentials = executor.session.auth {
            outputs.append(
                .notice(.aside("the OAuth2 token is fetched when Fathom sends; add -H 'Authorization: Bearer …'")))
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
