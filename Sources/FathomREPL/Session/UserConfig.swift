import FathomHTTP
import Foundation

/// What a person sets once for every prompt: `$XDG_CONFIG_HOME/fathom/config` (or
/// `~/.config/fathom/config`, or the file `FATHOM_CONFIG` names), and the environment.
///
/// The file is written in the session-file language: one setting per line, as it is typed at the
/// prompt (`timeout 10s`, `validate strict`, `pager off`, `redirects 3`), `#` comments, and three
/// settings that exist only at start (`color never`, `output json`, `history 5000`). One syntax
/// and one parser for everything a person writes, and any line can be tried at the prompt before
/// it goes in the file. The response archive has three more (`archive off`, `archive-size 200MB`,
/// `archive-age 7d`). Each value comes from, strongest first: a flag, the environment
/// (`FATHOM_TIMEOUT=10s`, or `NO_COLOR` for color), the file, or Fathom's built-in default.
/// `fathom replay` reads none of it: a CI run does not depend on a person's preferences.
public struct UserConfig: Sendable {
    /// A setting the file may hold.
    public enum Key: String, CaseIterable, Sendable {
        case color, output, history, pager, timeout, redirects, validate
        /// The response archive (``ResponseArchive``): `on` or `off`, its size and its age.
        case archive
        case archiveSize = "archive-size"
        case archiveAge = "archive-age"

        /// The value when nothing sets one.
        public var builtIn: String {
            switch self {
            case .color: "auto"
            case .output: "text"
            case .history: String(HistoryStore.defaultLimit)
            case .pager: "auto"
            case .timeout: "off"
            case .redirects: "5"
            case .validate: "warn"
            case .archive: "on"
            case .archiveSize: "100MB"
            case .archiveAge: "30d"
            }
        }

        /// The environment variable that sets it: `FATHOM_TIMEOUT`.
        public var environmentName: String {
            "FATHOM_" + String(rawValue.uppercased().map { $0 == "-" ? "_" : $0 })
        }

        /// Whether the value is a prompt command's (applied as that line at start) rather than
        /// one the binary reads before the session starts.
        public var isCommand: Bool { ![.color, .output, .history, .archive, .archiveSize, .archiveAge].contains(self) }
    }

    /// Where a value came from.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case builtIn
        case file(path: String, line: Int)
        case environment(String)
        case flag(String)

        public var description: String {
            switch self {
            case .builtIn: "built-in"
            case .file(let path, let line): "\(path):\(line)"
            case .environment(let name): "environment \(name)"
            case .flag(let name): "flag \(name)"
            }
        }
    }

    /// A setting's value and where it came from.
    public struct Setting: Sendable, Equatable {
        public var key: Key
        public var value: String
        public var source: Source
    }

    /// The config file's path (it may not exist).
    public let path: String
    /// Every setting, in ``Key`` order.
    public private(set) var settings: [Setting]
    /// One line per problem (`FILE:LINE: …`); each problem line was left out, and the rest applies.
    public private(set) var problems: [String] = []

    /// `$FATHOM_CONFIG`, else `$XDG_CONFIG_HOME/fathom/config`, else `~/.config/fathom/config`.
    public static func defaultPath(environment: [String: String] = ProcessEnvironment.current) -> String {
        if let given = environment["FATHOM_CONFIG"], !given.isEmpty { return given }
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return config + "/fathom/config"
    }

    /// Reads the file at `path` (none is no problem) and the environment.
    public init(
        path: String = UserConfig.defaultPath(),
        environment: [String: String] = ProcessEnvironment.current
    ) {
        self.path = path
        settings = Key.allCases.map { Setting(key: $0, value: $0.builtIn, source: .builtIn) }
        // No file at all is no problem: Fathom's own settings.
        if let status = FileStatus(path: path) {
            if status.size > Self.sizeLimit {
                problems.append(
                    "\(path): \(status.size) bytes, more than the \(Self.sizeLimit / 1024) KiB a config may hold: not read"
                )
            } else if let data = FileManager.default.contents(atPath: path) {
                read(String(decoding: data, as: UTF8.self))
            } else {
                problems.append("\(path): cannot be read")
            }
        }
        for key in Key.allCases {
            if key == .color, environment["NO_COLOR"].map({ !$0.isEmpty }) == true {
                set(key, "never", from: .environment("NO_COLOR"))
            }
            if let value = environment[key.environmentName], !value.isEmpty {
                if let problem = Self.problem(key, value) {
                    problems.append("\(key.environmentName): \(problem)")
                } else {
                    set(key, value, from: .environment(key.environmentName))
                }
            }
        }
    }

    /// The settings a config file with `contents` gives, with no environment (the fuzz target's).
    init(contents: String, path: String) {
        self.path = path
        settings = Key.allCases.map { Setting(key: $0, value: $0.builtIn, source: .builtIn) }
        read(contents)
    }

    /// The value of `key`.
    public subscript(key: Key) -> String { settings.first { $0.key == key }!.value }

    /// A flag's value, strongest of all.
    public mutating func setFlag(_ key: Key, _ value: String, name: String) {
        set(key, value, from: .flag(name))
    }

    /// The prompt commands the file and environment set (`timeout 10s`), to run at start; none
    /// for what is built in.
    public var commandLines: [String] {
        settings.filter { $0.key.isCommand && $0.source != .builtIn }.map { Self.line($0.key, $0.value) }
    }

    /// The prompt command that sets `key` to `value`: `validate` sets the mode every API starts
    /// with (`validate --default strict`), the others their setting.
    static func line(_ key: Key, _ value: String) -> String {
        key == .validate ? "validate --default \(value)" : "\(key.rawValue) \(value)"
    }

    private mutating func set(_ key: Key, _ value: String, from source: Source) {
        guard let index = settings.firstIndex(where: { $0.key == key }) else { return }
        settings[index] = Setting(key: key, value: value, source: source)
    }

    /// The largest config file read: a few settings, never megabytes.
    static let sizeLimit = 256 * 1024

    /// The most problems reported one by one; past it, how many more.
    static let problemLimit = 10

    /// Reads the file's lines with the command language's own tokenizer: `#` comments (at the
    /// start, or after a blank: `color never  # for CI`), quotes and escapes as a session file has
    /// them.
    private mutating func read(_ text: String) {
        var more = 0
        func report(_ problem: String) {
            if problems.count < Self.problemLimit { problems.append(problem) } else { more += 1 }
        }
        defer { if more > 0 { problems.append("\(path): and \(more) more problem\(more == 1 ? "" : "s")") } }
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let place = "\(path):\(number + 1)"
            let words: [Word]
            do {
                words = try Tokenizer.words(raw)
            } catch {
                report("\(place): \(error.message)")
                continue
            }
            guard let first = words.first else { continue }
            guard let key = Key(rawValue: first.text) else {
                let known = Key.allCases.map(\.rawValue).joined(separator: ", ")
                report("\(place): '\(ErrorRenderer.cut(first.text))' is not a setting the config holds (\(known))")
                continue
            }
            guard words.count >= 2 else {
                report("\(place): \(key.rawValue) needs a value (as in `\(key.rawValue) \(key.builtIn)`)")
                continue
            }
            let value = words.dropFirst().map(\.text).joined(separator: " ")
            if let problem = Self.problem(key, value) {
                report("\(place): \(problem)")
                continue
            }
            set(key, value, from: .file(path: path, line: number + 1))
        }
    }

    /// Why `value` is no value for `key`; `nil` when it is one.
    static func problem(_ key: Key, _ value: String) -> String? {
        switch key {
        case .color:
            return ["auto", "always", "never"].contains(value) ? nil : "color is auto, always or never, not '\(value)'"
        case .output:
            return ["text", "json"].contains(value) ? nil : "output is text or json, not '\(value)'"
        case .history:
            guard let count = Int(value), count > 0 else {
                return "history is a number of lines, not '\(ErrorRenderer.cut(value))'"
            }
            return nil
        case .archive:
            return ["on", "off"].contains(value) ? nil : "archive is on or off, not '\(ErrorRenderer.cut(value))'"
        case .archiveSize:
            guard let bytes = ByteSizeText.parse(value), bytes >= 1 << 20 else {
                return "archive-size is a size of at least 1MB (as in 100MB), not '\(ErrorRenderer.cut(value))'"
            }
            return nil
        case .archiveAge:
            guard let age = DurationText.parse(value), age >= .seconds(60) else {
                return
                    "archive-age is a duration of at least a minute (as in 30d or 12h), not '\(ErrorRenderer.cut(value))'"
            }
            return nil
        case .pager, .timeout, .redirects, .validate:
            // Read by the prompt command itself: the file takes what the prompt takes.
            do {
                _ = try CommandParser.parse(line(key, value))
                return nil
            } catch {
                return "\(key.rawValue) \(ErrorRenderer.cut(value)): \(error.message)"
            }
        }
    }
}

extension UserConfig {
    /// The response archive these settings ask for: `nil` when `archive off`.
    public func responseArchive(
        environment: [String: String] = ProcessEnvironment.current
    ) -> ResponseArchive? {
        guard self[.archive] == "on" else { return nil }
        let limits = ResponseArchive.Limits(
            bytes: ByteSizeText.parse(self[.archiveSize]) ?? ResponseArchive.Limits.standard.bytes,
            age: DurationText.parse(self[.archiveAge]) ?? ResponseArchive.Limits.standard.age)
        return ResponseArchive(directory: ResponseArchive.defaultDirectory(environment: environment), limits: limits)
    }
}
