import FathomJSON
import Foundation

/// A named set of variables and a base URL, switched with `env use NAME`.
struct Environment: Equatable, Sendable {
    var name: String
    var base: String?
    var variables: [(String, String)]
    /// Names of variables that are secrets in this environment (their values come from outside).
    var secrets: [String]
    /// An OpenAPI description to load (a file, relative to the environments file, or a URL).
    var spec: String? = nil

    static func == (lhs: Environment, rhs: Environment) -> Bool {
        lhs.name == rhs.name && lhs.base == rhs.base && lhs.secrets == rhs.secrets && lhs.spec == rhs.spec
            && lhs.variables.elementsEqual(rhs.variables, by: ==)
    }
}

/// Reads environments from `./fathom.env.json`, else `$XDG_CONFIG_HOME/fathom/environments.json`.
///
/// ```json
/// { "dev":     { "base": "http://127.0.0.1:8080", "variables": { "user": "ada" }, "secrets": ["token"] },
///   "staging": { "base": "https://staging.example.com" } }
/// ```
enum EnvironmentFile {
    static func defaultPaths(
        directory: String = FileManager.default.currentDirectoryPath,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return [directory + "/fathom.env.json", config + "/fathom/environments.json"]
    }

    /// The environments in the first of `paths` that exists; none when no file exists.
    ///
    /// - Throws: ``CommandError`` naming the file and what is wrong with it.
    static func load(from paths: [String]) throws(CommandError) -> (path: String?, [Environment]) {
        for path in paths where FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandError("cannot read \(path)")
            }
            return (path, try parse(data, path: path))
        }
        return (nil, [])
    }

    static func parse(_ data: Data, path: String) throws(CommandError) -> [Environment] {
        let document: JSON
        do {
            document = try JSON(parsing: data)
        } catch {
            throw CommandError("\(path): \(error.summary)")
        }
        guard case .object(let members) = document else {
            throw CommandError("\(path): expected an object of environments, found \(document.kindName)")
        }
        var environments: [Environment] = []
        for member in members {
            guard case .object = member.value else {
                throw CommandError("\(path): environment '\(member.key)' must be an object")
            }
            var environment = Environment(name: member.key, base: nil, variables: [], secrets: [])
            if case .string(let base)? = member.value["base"] { environment.base = base }
            if case .string(let spec)? = member.value["spec"] {
                let relative = !spec.hasPrefix("/") && !spec.contains("://") && !spec.hasPrefix("~")
                environment.spec =
                    relative
                    ? ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(spec) : spec
            }
            if case .object(let variables)? = member.value["variables"] {
                for variable in variables {
                    let value: String
                    switch variable.value {
                    case .string(let text): value = text
                    case .number(let text): value = text
                    case .bool(let flag): value = flag ? "true" : "false"
                    case .null: value = ""
                    case .array, .object: value = variable.value.formatted(.compactText)
                    }
                    environment.variables.append((variable.key, value))
                }
            }
            if case .array(let names)? = member.value["secrets"] {
                environment.secrets = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
            }
            environments.append(environment)
        }
        return environments
    }
}

/// `KEY=VALUE` lines (`#` comments, optional `export`, quotes removed), the usual `.env` format.
enum DotEnv {
    static func load(_ path: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { return [:] }
        return parse(text)
    }

    static func parse(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = rawLine.trimmingBlanks
            if line.hasPrefix("export ") { line = line.dropFirst(7).trimmingBlanks }
            guard !line.isEmpty, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingBlanks
            let value = line[line.index(after: equals)...].trimmingBlanks
            values[key] = CommandParser.unquote(value)
        }
        return values
    }

    /// The environment-variable name a secret's value is read from: `FATHOM_SECRET_<NAME>`.
    static func secretKey(for name: String) -> String {
        "FATHOM_SECRET_" + String(name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
