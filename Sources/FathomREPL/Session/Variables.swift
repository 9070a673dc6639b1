import FathomHTTP
@_spi(Fathom) import FathomJSON
import Foundation
import Synchronization

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

    init(environment: [String: String] = ProcessEnvironment.current) {
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

    /// What one request of a batch has of its own (``RequestValues``), while it is prepared.
    @TaskLocal static var request: RequestValues?

    /// The names built in: `$i` (the request's index in its batch, from 0), `$uuid` (a new
    /// random UUID), `$random.int MIN MAX` (a whole number in that range, both included).
    static let builtInNames = ["$i", "$uuid", "$random.int MIN MAX", "$env.NAME"]

    /// A built-in name's value, fresh for each request.
    private static func builtIn(_ name: String, column: Int?) throws(CommandError) -> String {
        let parts = name.split(separator: " ", omittingEmptySubsequences: true)
        let value: String
        switch parts.first {
        case "$i" where parts.count == 1:
            value = String(request?.index ?? 0)
        case "$uuid" where parts.count == 1:
            value = UUID().uuidString.lowercased()
        case "$random.int":
            guard parts.count == 3, let low = Int(parts[1]), let high = Int(parts[2]), low <= high else {
                throw CommandError(
                    .parse, "'{{\(name)}}' needs a range", column: column,
                    hint: "write {{$random.int 1 100}}: MIN MAX, MIN ≤ MAX")
            }
            value = String(Int.random(in: low...high))
        default:
            throw CommandError(
                .session, .unknownVariable(name: name, suggestion: nil), column: column,
                hint: "built in: " + builtInNames.map { "{{\($0)}}" }.joined(separator: ", "))
        }
        request?.used.store(true, ordering: .relaxed)
        return value
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
                    throw CommandError(.parse, "environment variable '\(key)' is not set", column: at)
                }
                result += value
            } else if name.hasPrefix("$") {
                result += try Self.builtIn(name, column: at)
            } else if let request = Self.request, let value = request.row[name] {
                request.used.store(true, ordering: .relaxed)
                result += value
            } else if let value = values[name] {
                result += value
            } else {
                throw CommandError(
                    .session, .unknownVariable(name: name, suggestion: Spelling.closest(to: name, among: names)),
                    column: at, hint: "set it with `set \(name) = …`")
            }
            rest = rest[close.upperBound...]
        }
        result += rest
        return result
    }
}

/// What one request of a batch has of its own while it is prepared: its index (`{{$i}}`) and its
/// row of the data file (`{{column}}`, before the session's variables). Whether the request used
/// any of it (or `$uuid`, `$random.int`) tells the batch whether each request must be prepared
/// anew or one prepared request serves them all.
final class RequestValues: Sendable {
    let index: Int
    let row: [String: String]
    let used = Atomic<Bool>(false)

    init(index: Int, row: [String: String] = [:]) {
        self.index = index
        self.row = row
    }
}
