@_spi(Fathom) import FathomJSON

/// `env [use NAME]`: the environments, or a switch to one (its base URL, variables and secrets).
struct EnvCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "env", synopsis: "env [use NAME]",
        summary: "list environments, or switch to one (its base URL and variables)",
        details: """
            Read from ./fathom.env.json or $XDG_CONFIG_HOME/fathom/environments.json. An environment moves \
            the base's API to its base URL, with the API's auth, defaults and description: dev and staging \
            are one API, its credentials templates (`auth bearer {{token}}`) filled by each environment.
            """,
        completion: .subcommands([.init("use", then: .environments)]), group: .session)

    /// `nil` lists the environments.
    var use: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard let word = try arguments.optionalWord() else { return EnvCommand(use: nil) }
        guard word.text == "use", !word.quoted else {
            throw CommandError(
                .parse, .unknown(kind: "env action", word: word.text, suggestion: nil), column: word.column,
                hint: "use `env use NAME`")
        }
        return EnvCommand(use: try arguments.single("an environment name").text)
    }

    var logKind: SessionLog.Kind? { use == nil ? nil : .setting }

    var line: String { "env" + (use.map { " use " + Quoting.word($0, literal: true) } ?? "") }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        try executor.loadEnvironments()
        let session = executor.session
        guard let name = use else {
            let items = session.environments.map { environment in
                Listing.Item(
                    name: environment.name, detail: environment.base,
                    marked: environment.name == session.currentEnvironment)
            }
            let source = session.environmentFile ?? executor.options.environmentPaths.first ?? "fathom.env.json"
            return .shows(.listing(Listing(kind: .environments, items: items, source: source)))
        }
        guard let environment = session.environments.first(where: { $0.name == name }) else {
            throw CommandError(
                .session,
                .notFound(
                    kind: "environment", name: name,
                    suggestion: Spelling.closest(to: name, among: session.environments.map(\.name))),
                hint: "known: \(session.environments.map(\.name).joined(separator: ", "))")
        }
        // Resolve every secret first, so a missing one changes nothing: from the environment
        // (`FATHOM_SECRET_<NAME>`, `.env`), a secret already set by that name, else asked for.
        var secrets: [(String, String)] = []
        for secret in environment.secrets {
            if let value = executor.storedSecretValue(secret) {
                secrets.append((secret, value))
            } else if session.variables.isSecret(secret), let value = session.variables[secret] {
                secrets.append((secret, value))
            } else {
                secrets.append((secret, try await executor.secretValue(secret)))
            }
        }
        // Loaded before anything changes: a description that does not load leaves the session as it was.
        var spec: LoadedSpec?
        if let source = environment.spec { spec = try await executor.loadSpec(source).0 }
        // The environment before takes its variables with it: what it set and this one does not
        // is no longer set (its secrets stay masked).
        let names = environment.variables.map(\.0) + environment.secrets
        let removed = session.environmentVariables.filter { !names.contains($0) }
        for name in removed { _ = executor.session.variables.remove(name) }
        for (key, value) in environment.variables { executor.session.variables.set(key, value) }
        for (key, value) in secrets {
            executor.redactor.addSecret(value)
            executor.session.variables.set(key, value, secret: true)
        }
        if let base = environment.base { try executor.moveCurrentAPI(to: base) }
        if let spec {
            if executor.session.current == nil {
                executor.session.givenSpec = spec
            } else {
                executor.session.currentAPI?.spec = spec
            }
        }
        executor.session.currentEnvironment = name
        executor.session.environmentVariables = names
        return .shows(
            .event(
                .environmentSwitched(
                    EnvironmentSwitch(
                        name: name, previous: session.currentEnvironment, base: environment.base,
                        variables: names, secrets: environment.secrets, removed: removed))))
    }
}
