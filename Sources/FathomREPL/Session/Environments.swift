import FathomHTTP
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
        environment: [String: String] = ProcessEnvironment.current
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
                throw CommandError(.file, .cannotRead(path: path, reason: nil))
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
            throw CommandError(.file, "\(path): \(error.summary)")
        }
        guard case .object(let members) = document else {
            throw CommandError(.file, "\(path): expected an object of environments, found \(document.kindName)")
        }
        var environments: [Environment] = []
        for member in members {
            guard case .object = member.value else {
                throw CommandError(.file, "\(path): environment '\(member.key)' must be an object")
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

/// A `.env` file, read as the dotenv tools read it: `KEY=VALUE` lines, `#` comment lines, an
/// optional `export`, and values that are
///
/// - unquoted: blanks around them dropped, and a ` #` starts a comment;
/// - in single quotes: taken as written, may span lines;
/// - in double quotes: `\n`, `\t`, `\"` and `\\` read as escapes, may span lines.
///
/// After a closing quote only a comment may follow. `${NAME}` is not expanded. A line that is
/// not a pair — a value whose quote never closes included — is skipped, as dotenv skips it.
enum DotEnv {
    /// The values of the `.env` at `path` (none when there is none), or the one line that says
    /// why it is not read (a file over ``BoundedFile/dotEnv``, a device).
    static func load(_ path: String) -> (values: [String: String], problem: String?) {
        // Most folders have none: a stat says so for less than Foundation's failed read.
        guard let status = FileStatus(path: path) else { return ([:], nil) }
        if let problem = BoundedFile.problem(path, status: status, limit: BoundedFile.dotEnv, what: "a .env file") {
            return ([:], problem)
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { return ([:], nil) }
        return (parse(text), nil)
    }

    static func parse(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var index = 0
        // Quotes found to have no closing quote after some line: a later value opened with the
        // same quote cannot close either, and is skipped at once — so a file of unterminated
        // quotes is read in one pass, not one pass per line.
        var unclosed: Set<Character> = []
        while index < lines.count {
            var line = lines[index].trimmingBlanks
            index += 1
            if line.hasPrefix("export ") || line.hasPrefix("export\t") { line = line.dropFirst(7).trimmingBlanks }
            guard !line.isEmpty, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingBlanks
            guard !key.isEmpty, !key.contains(where: \.isWhitespace) else { continue }
            let value = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            guard let quote = value.first, quote == "\"" || quote == "'" else {
                // Unquoted: a comment starts at a blank followed by `#`.
                let hash = value.indices.first { position in
                    value[position] == "#"
                        && (position == value.startIndex || value[value.index(before: position)].isWhitespace)
                }
                values[String(key)] = String(value[..<(hash ?? value.endIndex)].trimmingBlanks)
                continue
            }
            // Quoted: to the closing quote, over the next lines when it is not on this one. Each
            // line is looked at once; an escape at a line's end carries over to the next.
            var body = ""
            var piece = value.dropFirst()
            var next = index
            var escaped = false
            var close: String.Index?
            while true {
                if let found = Self.closingQuote(quote, in: piece, escaped: &escaped) {
                    body += piece[..<found]
                    close = found
                    break
                }
                body += piece
                guard next < lines.count, !unclosed.contains(quote) else { break }
                body += "\n"
                piece = lines[next]
                next += 1
            }
            guard close != nil else {
                // No closing quote: this line is not a pair (as dotenv skips it), and the lines
                // after it are read on their own.
                unclosed.insert(quote)
                continue
            }
            index = next
            values[String(key)] = quote == "\"" ? Self.unescaped(body[...]) : body
        }
        return values
    }

    /// Where the quote that closes a value opened with `quote` is in `body`: a `\"` does not close
    /// a double-quoted value. `escaped` carries a backslash that ended the text before.
    private static func closingQuote(
        _ quote: Character, in body: Substring, escaped: inout Bool
    ) -> Substring.Index? {
        var index = body.startIndex
        while index < body.endIndex {
            let character = body[index]
            if escaped {
                escaped = false
            } else if quote == "\"", character == "\\" {
                escaped = true
            } else if character == quote {
                return index
            }
            index = body.index(after: index)
        }
        return nil
    }

    private static func unescaped(_ raw: Substring) -> String {
        var result = ""
        var escaping = false
        for character in raw {
            if escaping {
                switch character {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "\"", "\\", "$": result.append(character)
                default: result += "\\" + String(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return result
    }

    /// The environment-variable name a secret's value is read from: `FATHOM_SECRET_<NAME>`.
    static func secretKey(for name: String) -> String {
        "FATHOM_SECRET_" + String(name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
