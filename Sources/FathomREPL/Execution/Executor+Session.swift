import FathomHTTP
import Foundation

extension Executor {
    // MARK: - Defaults

    func editDefaults(_ edit: DefaultEdit?) {
        guard let edit else {
            var lines = session.defaultHeaders.map { "header \($0.name): \(shownHeaderValue($0))" }
            lines += session.defaultQuery.map { "query \($0.name)\($0.value.map { "=\($0)" } ?? "")" }
            say(lines.isEmpty ? "no defaults" : lines.joined(separator: "\n"))
            return
        }
        switch edit {
        case .header(let headerEdit):
            if case .set(let name, let value) = headerEdit { registerIfSecret(header: name, value: value) }
            var holder = Draft()
            holder.headers = session.defaultHeaders
            holder.apply(headerEdit)
            session.defaultHeaders = holder.headers
        case .query(let queryEdit):
            var holder = Draft()
            holder.query = session.defaultQuery
            if case .add(let name, _) = queryEdit { holder.apply(QueryEdit.remove(name)) }
            holder.apply(queryEdit)
            session.defaultQuery = holder.query
        }
    }

    // MARK: - Authentication

    func setAuth(_ spec: AuthSpec?) async throws {
        guard var spec else {
            say(describe(session.auth))
            return
        }
        let variables = session.variables
        switch spec {
        case .none: break
        case .bearer(let token): redactor.addSecret(try variables.expand(token))
        case .basic(let user, let password):
            if let password {
                redactor.addSecret(try variables.expand(password))
            } else {
                guard let typed = await console.readSecret(prompt: "password for \(user): "), !typed.isEmpty else {
                    throw CommandError(
                        "auth basic \(user) needs a password", hint: "write USER:PASS, or run on a terminal to be asked"
                    )
                }
                redactor.addSecret(typed)
                spec = .basic(user: user, password: typed)
            }
        case .apiKey(let placement, let name, let value):
            redactor.addSecret(try variables.expand(value))
            switch placement {
            case .header: redactor.markSecretHeader(NetworkHeaders.Name(name))
            case .query: redactor.markSecretQuery(name)
            }
        case .oauth2ClientCredentials(let url, let id, let secret, let scope):
            let tokenURL = try variables.expand(url)
            if tokenURL.contains("://") { _ = try RequestURL(parsing: tokenURL) }
            _ = try variables.expand(id)
            _ = try scope.map { try variables.expand($0) }
            redactor.addSecret(try variables.expand(secret))
        }
        session.auth = spec
    }

    func describe(_ auth: AuthSpec) -> String {
        switch auth {
        case .none: "none"
        case .bearer(let token): "bearer \(maskedTemplate(token))"
        case .basic(let user, let password): "basic \(user)\(password == nil ? "" : ":\(maskedTemplate(password!))")"
        case .apiKey(let placement, let name, let value):
            "apikey \(placement.rawValue) \(name) \(maskedTemplate(value))"
        case .oauth2ClientCredentials(let url, let id, let secret, let scope):
            "oauth2 client-credentials \(url) \(id) \(maskedTemplate(secret))\(scope.map { " \($0)" } ?? "")"
        }
    }

    /// A credential as written: a `{{variable}}` reference stays readable, a literal is masked.
    func maskedTemplate(_ template: String) -> String {
        template.hasPrefix("{{") && template.hasSuffix("}}") ? template : Redactor.masked(template)
    }

    /// Adds the credentials of `auth bearer|basic|apikey` to a request the draft built.
    func applyCredentials(to request: inout NetworkRequest) throws {
        let variables = session.variables
        switch session.auth {
        case .none, .oauth2ClientCredentials: break
        case .bearer(let token):
            if !request.headers.contains(.authorization) {
                request.headers.add(.authorization, "Bearer \(try variables.expand(token))")
            }
        case .basic(let user, let password):
            if !request.headers.contains(.authorization) {
                let pair = "\(try variables.expand(user)):\(try variables.expand(password ?? ""))"
                request.headers.add(.authorization, "Basic \(Data(pair.utf8).base64EncodedString())")
            }
        case .apiKey(.header, let name, let value):
            request.headers.replace(NetworkHeaders.Name(name), with: try variables.expand(value))
        case .apiKey(.query, let name, let value):
            request.queryItems.append(QueryItem(name, try variables.expand(value)))
        }
    }

    // MARK: - Variables and secrets

    func setVariable(_ name: String, _ template: String) throws {
        let value = try session.variables.expand(template)
        let secret = session.variables.isSecret(name)
        session.variables.set(name, value, secret: secret)
        if secret { redactor.addSecret(value) }
    }

    func unsetVariable(_ name: String) throws {
        guard session.variables.remove(name) != nil else {
            throw CommandError(
                "no variable '\(name)'", hint: CommandError.suggestion(for: name, among: session.variables.names))
        }
    }

    func displayValue(of name: String) -> String {
        let value = session.variables[name] ?? ""
        return session.variables.isSecret(name) ? Redactor.masked(value) : value
    }

    func listVariables() {
        let names = session.variables.names
        guard !names.isEmpty else {
            say("no variables — `set NAME = VALUE` or `secret NAME`")
            return
        }
        let width = names.map(\.count).max() ?? 0
        say(
            names.map { name in
                let padded = name.padding(toLength: width, withPad: " ", startingAt: 0)
                let marker = session.variables.isSecret(name) ? palette.dim("  (secret)") : ""
                return "\(palette.cyan(padded)) = \(displayValue(of: name))\(marker)"
            }.joined(separator: "\n"))
    }

    func setSecret(_ name: String, _ template: String?) async throws {
        let value: String
        if let template {
            value = try session.variables.expand(template)
        } else if let existing = session.variables[name] {
            // Already given (`set`, `replay --var`): from now on it is a secret.
            value = existing
        } else {
            value = try await secretValue(name)
        }
        redactor.addSecret(value)
        session.variables.set(name, value, secret: true)
    }

    /// A secret's value from `FATHOM_SECRET_<NAME>`, the `.env` file, or a prompt on a terminal.
    func secretValue(_ name: String) async throws -> String {
        if let value = storedSecretValue(name) { return value }
        if let typed = await console.readSecret(prompt: "\(name): "), !typed.isEmpty {
            return typed
        }
        throw CommandError(
            "secret '\(name)' has no value",
            hint: "set \(DotEnv.secretKey(for: name)), add it to .env, or run on a terminal to be asked")
    }

    /// A secret's value from `FATHOM_SECRET_<NAME>` or the `.env` file (`FATHOM_SECRET_<NAME>` or `NAME`).
    func storedSecretValue(_ name: String) -> String? {
        let key = DotEnv.secretKey(for: name)
        let value = options.environment[key] ?? session.dotEnv[key] ?? session.dotEnv[name]
        return value?.isEmpty == false ? value : nil
    }

    func reveal(_ name: String) throws {
        guard let value = session.variables[name] else {
            throw CommandError(
                "no variable '\(name)'", hint: CommandError.suggestion(for: name, among: session.variables.names))
        }
        // Asked for by name: the one place a secret is printed as it is.
        console.write(value + "\n")
    }

    // MARK: - Environments

    func loadEnvironments() throws {
        guard session.environmentFile == nil, session.environments.isEmpty else { return }
        let (path, environments) = try EnvironmentFile.load(from: options.environmentPaths)
        session.environmentFile = path
        session.environments = environments
    }

    func useEnvironment(_ name: String?) throws {
        try loadEnvironments()
        guard let name else {
            guard !session.environments.isEmpty else {
                say("no environments — write them in \(options.environmentPaths.first ?? "fathom.env.json")")
                return
            }
            let lines = session.environments.map { environment in
                let marker = environment.name == session.currentEnvironment ? "* " : "  "
                return marker + environment.name + (environment.base.map { palette.dim("  \($0)") } ?? "")
            }
            say(lines.joined(separator: "\n") + palette.dim("\n(from \(session.environmentFile ?? "?"))"))
            return
        }
        guard let environment = session.environments.first(where: { $0.name == name }) else {
            throw CommandError(
                "no environment '\(name)'",
                hint: CommandError.suggestion(for: name, among: session.environments.map(\.name))
                    ?? "known: \(session.environments.map(\.name).joined(separator: ", "))")
        }
        // Resolve every secret first, so a missing one changes nothing.
        var secrets: [(String, String)] = []
        for secret in environment.secrets {
            guard let value = storedSecretValue(secret) else {
                throw CommandError(
                    "secret '\(secret)' has no value", hint: "set \(DotEnv.secretKey(for: secret)) or add it to .env")
            }
            secrets.append((secret, value))
        }
        for (key, value) in environment.variables { session.variables.set(key, value) }
        for (key, value) in secrets {
            redactor.addSecret(value)
            session.variables.set(key, value, secret: true)
        }
        if let base = environment.base { session.base = base }
        session.currentEnvironment = name
    }

    // MARK: - History and help

    func listHistory() {
        let entries = options.history.all
        let width = String(entries.count).count
        say(
            entries.enumerated().map { index, entry in
                String(repeating: " ", count: width - String(index + 1).count) + "\(index + 1)  "
                    + entry.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: width + 2))
            }.joined(separator: "\n"))
    }

    func help(_ topic: String?) {
        if let topic, let spec = CommandTable.spec(named: topic) {
            var text = palette.bold(spec.synopsis) + "\n  " + spec.summary
            if !spec.details.isEmpty { text += "\n  " + spec.details }
            if !spec.aliases.isEmpty { text += "\n  also: " + spec.aliases.joined(separator: ", ") }
            say(text)
            return
        }
        var text = ""
        for group in CommandSpec.Group.allCases {
            text += palette.bold(group.rawValue) + "\n"
            for spec in CommandTable.all where spec.group == group {
                text +=
                    "  " + palette.cyan(spec.name.padding(toLength: 10, withPad: " ", startingAt: 0)) + spec.summary
                    + "\n"
            }
        }
        text += palette.dim("`help COMMAND` for one command; {{name}} expands variables in every argument.")
        show(long: text)
    }
}
