import FathomHTTP
import Foundation

/// Named values that `{{name}}` expands to; some of them secret.
struct Variables: Equatable, Sendable {
    /// Names in the order they were first set.
    private(set) var names: [String] = []
    private(set) var values: [String: String] = [:]
    /// Names whose values are masked everywhere and never written to disk.
    private(set) var secrets: Set<String> = []
    /// Names given on a replay's command line (`--var`, `FATHOM_VAR_NAME`) or by its `--env`:
    /// a file's `set`, `let`, `env` and `unset` lines leave them as they are.
    private(set) var pinned: Set<String> = []
    /// Where `{{$env.NAME}}` looks: the process environment, then a `.env` file.
    var environment: [String: String]

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    subscript(name: String) -> String? { values[name] }

    func isSecret(_ name: String) -> Bool { secrets.contains(name) }

    /// Sets a variable and returns the value it replaced; a pinned one keeps its value unless
    /// `pin` (which pins it).
    @discardableResult
    mutating func set(_ name: String, _ value: String, secret: Bool = false, pin: Bool = false) -> String? {
        if pinned.contains(name), !pin {
            if secret { secrets.insert(name) }
            return values[name]
        }
        if pin { pinned.insert(name) }
        if values[name] == nil { names.append(name) }
        let old = values.updateValue(value, forKey: name)
        if secret { secrets.insert(name) }
        return old
    }

    /// Removes a variable and returns its value.
    mutating func remove(_ name: String) -> String? {
        guard !pinned.contains(name) else { return values[name] }
        names.removeAll { $0 == name }
        secrets.remove(name)
        return values.removeValue(forKey: name)
    }

    /// Whether `text` has a `{{`: a byte scan, as every line of a replay asks it of several
    /// texts (Foundation's substring search costs more than the rest of the expansion).
    static func hasReference(_ text: String) -> Bool {
        var afterBrace = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "{") {
                if afterBrace { return true }
                afterBrace = true
            } else {
                afterBrace = false
            }
        }
        return false
    }

    /// `template` with each `{{name}}` and `{{$env.NAME}}` replaced.
    ///
    /// - Throws: ``CommandError`` naming the first unknown variable (with its column when the
    ///   template starts at `column`).
    func expand(_ template: String, column: Int? = nil) throws(CommandError) -> String {
        guard Self.hasReference(template) else { return template }
        var result = ""
        var rest = template[...]
        while let open = rest.range(of: "{{") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                result += rest[open.lowerBound...]
                return result
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingBlanks
            let at = column.map { $0 + template.distance(from: template.startIndex, to: open.lowerBound) }
            if name.hasPrefix("$env.") {
                let key = String(name.dropFirst(5))
                guard let value = environment[key] else {
                    throw CommandError("environment variable '\(key)' is not set", column: at)
                }
                result += value
            } else if let value = values[name] {
                result += value
            } else {
                let hint =
                    CommandError.suggestion(for: name, among: names) ?? "set it with `set \(name) = …`"
                throw CommandError("unknown variable '\(name)'", column: at, hint: hint)
            }
            rest = rest[close.upperBound...]
        }
        result += rest
        return result
    }
}
