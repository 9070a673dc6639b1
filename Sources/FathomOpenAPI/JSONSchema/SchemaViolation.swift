import FathomJSON

/// One way an instance breaks its schema: where (a JSONPath into the instance) and what was
/// expected there.
public struct SchemaViolation: Hashable, Sendable, CustomStringConvertible {
    /// Where in the instance, as a JSONPath: `$.data[3].email`.
    public var path: String
    /// What was expected: `expected string, got null`.
    public var message: String

    /// A violation at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `$.path: what is wrong`.
    public var description: String { "\(path): \(message)" }
}

/// A location in an instance, built as validation descends; turned into text only for a violation.
struct InstancePath {
    enum Step {
        case key(String)
        case index(Int)
    }

    private(set) var steps: [Step] = []

    func appending(_ step: Step) -> InstancePath {
        var copy = self
        copy.steps.append(step)
        return copy
    }

    /// `$.name` for names that read as identifiers, `$['odd key']` otherwise, `[3]` for indices.
    var text: String {
        var text = "$"
        for step in steps {
            switch step {
            case .index(let index): text += "[\(index)]"
            case .key(let key):
                if let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic,
                    key.unicodeScalars.allSatisfy({
                        $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
                    })
                {
                    text += ".\(key)"
                } else {
                    let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                        of: "'", with: "\\'")
                    text += "['\(escaped)']"
                }
            }
        }
        return text
    }
}
