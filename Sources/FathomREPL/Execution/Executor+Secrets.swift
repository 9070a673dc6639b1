/// Where secrets and environments come from.
extension Executor {
    /// A secret's value from `FATHOM_SECRET_<NAME>`, the `.env` file, or a prompt on a terminal.
    func secretValue(_ name: String) async throws -> String {
        if let value = storedSecretValue(name) { return value }
        return try await ask(for: name, prompt: "\(name): ")
    }

    /// A secret typed at a prompt without echo. Ctrl-C cancels the line; an empty answer (or none
    /// in time) is an error that says what to do, and where nobody can be asked, says so.
    func ask(for name: String, prompt: String) async throws -> String {
        let typed = await options.prompter.readSecret(prompt: prompt)
        try Task.checkCancellation()
        if let typed, !typed.isEmpty { return typed }
        guard options.prompter.canAskForSecrets else { throw CommandError.noValue(forSecret: name) }
        throw CommandError(.session, .noValue(secret: name, typed: true, canBeAsked: true))
    }

    /// A secret's value from `FATHOM_SECRET_<NAME>` or the `.env` file (`FATHOM_SECRET_<NAME>` or `NAME`).
    func storedSecretValue(_ name: String) -> String? {
        let key = DotEnv.secretKey(for: name)
        let value = options.environment[key] ?? session.dotEnv[key] ?? session.dotEnv[name]
        return value?.isEmpty == false ? value : nil
    }

    /// The secrets of `names` with no value in the environment or `.env`.
    func storedlessSecrets(_ names: [String]) -> [String] {
        names.filter { storedSecretValue($0) == nil }
    }

    /// Pins the variables the current environment set: a file's own `set` lines leave them
    /// (`replay --env`).
    func pinEnvironmentVariables() {
        guard let name = session.currentEnvironment,
            let environment = session.environments.first(where: { $0.name == name })
        else { return }
        for (key, _) in environment.variables {
            if let value = session.variables[key] { session.variables.set(key, value, pin: true) }
        }
    }

    /// Reads the environments file once, the first time an `env` line needs it.
    func loadEnvironments() throws {
        guard session.environmentFile == nil, session.environments.isEmpty else { return }
        let (path, environments) = try EnvironmentFile.load(from: options.environmentPaths)
        session.environmentFile = path
        session.environments = environments
    }
}
