import FathomJSON
import Foundation
import Yams

/// An OpenAPI description's text as a FathomJSON tree: JSON parsed as it is, YAML composed by
/// Yams into nodes and turned into the same values (mapping order kept), so everything after
/// reads one representation.
enum DocumentText {
    /// Whether the text reads as JSON (its first non-blank character opens an object).
    static func isJSON(_ data: Data) -> Bool {
        for byte in data {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), 0xEF, 0xBB, 0xBF:
                continue
            default: return byte == UInt8(ascii: "{")
            }
        }
        return false
    }

    static func parse(_ data: Data, name: String) throws(DescriptionError) -> JSON {
        try read(data, name: name).value
    }

    /// The text's value, and whether it was read as JSON (rather than as YAML).
    static func read(_ data: Data, name: String) throws(DescriptionError) -> (value: JSON, wasJSON: Bool) {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var jsonError: DescriptionError?
        if isJSON(bytes) {
            do {
                return (try JSON(parsing: bytes), true)
            } catch {
                jsonError = DescriptionError("\(name) is not valid JSON: \(error)")
            }
        }
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw jsonError ?? DescriptionError("\(name) is neither JSON nor UTF-8 YAML")
        }
        // Text that opens with `{` but is not JSON may be YAML's flow style (`{type: object}`):
        // read as YAML, and if that fails too, the error is JSON's unless the file says YAML.
        let saysYAML = [".yaml", ".yml"].contains { name.lowercased().hasSuffix($0) }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            if let jsonError, !saysYAML { throw jsonError }
            throw DescriptionError("\(name) is not valid YAML: \(Self.describe(error))")
        } catch {
            if let jsonError, !saysYAML { throw jsonError }
            throw DescriptionError("\(name) is not valid YAML: \(error)")
        }
        guard let node else { throw DescriptionError("\(name) is empty") }
        return (try json(node, name: name), false)
    }

    private static func describe(_ error: YamlError) -> String {
        let text = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        return text
    }

    static func json(_ node: Node, name: String) throws(DescriptionError) -> JSON {
        switch node {
        case .scalar(let scalar):
            switch node.tag.description {
            case Tag.Name.null.rawValue: return .null
            case Tag.Name.bool.rawValue: return .bool(node.bool ?? false)
            case Tag.Name.int.rawValue:
                if let value = node.int { return .number(String(value)) }
                return .string(scalar.string)
            case Tag.Name.float.rawValue:
                guard let value = node.float, value.isFinite else { return .string(scalar.string) }
                // The text as written when it is already a JSON number (keeps `1.50`), else Swift's.
                let written = scalar.string
                if (try? JSON(parsing: written)).map({ if case .number = $0 { true } else { false } }) == true {
                    return .number(written)
                }
                return .number(String(value))
            default: return .string(scalar.string)
            }
        case .mapping(let mapping):
            var members: [JSON.Member] = []
            members.reserveCapacity(mapping.count)
            for (key, value) in mapping {
                members.append(JSON.Member(key: key.string ?? "", value: try json(value, name: name)))
            }
            return .object(members)
        case .sequence(let sequence):
            var elements: [JSON] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence { elements.append(try json(element, name: name)) }
            return .array(elements)
        case .alias:
            throw DescriptionError("\(name) uses a YAML alias Fathom cannot follow")
        }
    }
}

/// Why a description could not be loaded: one line, naming the place when there is one.
public struct DescriptionError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file and the place.
    public var message: String
    /// Whether OpenAPIKit's structure check found it (the index itself could still be built:
    /// loading with `checkStructure: false` gets past it).
    public var isStructural: Bool

    /// An error; `isStructural` when OpenAPIKit's structure check found it.
    public init(_ message: String, isStructural: Bool = false) {
        self.message = message
        self.isStructural = isStructural
    }

    /// The message.
    public var description: String { message }
}
