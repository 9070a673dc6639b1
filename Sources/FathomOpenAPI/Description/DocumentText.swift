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
            // No resolver: scalars are typed here, by YAML 1.2's core schema, without a regular
            // expression per scalar.
            node = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            if let jsonError, !saysYAML { throw jsonError }
            throw DescriptionError("\(name) is not valid YAML: \(Self.describe(error))")
        } catch {
            if let jsonError, !saysYAML { throw jsonError }
            throw DescriptionError("\(name) is not valid YAML: \(error)")
        }
        guard let node else { throw DescriptionError("\(name) is empty") }
        var converter = YAMLConverter(name: name, budget: YAMLConverter.budget(forBytes: bytes.count))
        return (try converter.json(node), false)
    }

    private static func describe(_ error: YamlError) -> String {
        let text = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        return text
    }
}

/// A composed YAML document as a FathomJSON value, read as YAML 1.2 (what OpenAPI 3 says its YAML
/// is): plain scalars typed by the core schema (`off` and `yes` are strings, not booleans), quoted
/// ones strings, integers of any size kept exactly, mapping order kept.
///
/// Aliases are expanded — an alias is its anchor's value again — within a budget of values
/// proportional to the text (``budget(forBytes:)``): a few hundred bytes of nested anchors (an
/// "alias bomb") would otherwise expand to billions of values.
struct YAMLConverter {
    let name: String
    /// How many more values may be made.
    var budget: Int
    let limit: Int

    init(name: String, budget: Int) {
        self.name = name
        self.budget = budget
        self.limit = budget
    }

    /// Twice as many values as the text has bytes, and at least 100,000: a document without
    /// aliases makes fewer values than it has bytes, so only expansion reaches it.
    static func budget(forBytes bytes: Int) -> Int { max(100_000, bytes * 2) }

    mutating func json(_ node: Node) throws(DescriptionError) -> JSON {
        budget -= 1
        guard budget >= 0 else {
            throw DescriptionError(
                "\(name): its YAML aliases expand past \(limit.formatted()) values — a description that size has no need of them; Fathom stops there"
            )
        }
        switch node {
        case .scalar(let scalar):
            return Self.value(scalar)
        case .mapping(let mapping):
            var members: [JSON.Member] = []
            members.reserveCapacity(mapping.count)
            for (key, value) in mapping {
                members.append(JSON.Member(key: key.string ?? "", value: try json(value)))
            }
            return .object(members)
        case .sequence(let sequence):
            var elements: [JSON] = []
            elements.reserveCapacity(sequence.count)
            for element in sequence { elements.append(try json(element)) }
            return .array(elements)
        case .alias:
            throw DescriptionError("\(name) uses a YAML alias Fathom cannot follow")
        }
    }

    static let strTag = "tag:yaml.org,2002:str"

    /// A scalar's value: an explicit tag (`!!int 3`, `!!str 3`) decides; a quoted or block scalar
    /// is a string; a plain one is typed by the core schema.
    static func value(_ scalar: Node.Scalar) -> JSON {
        let text = scalar.string
        let tag = scalar.tag.description
        switch tag {
        case "tag:yaml.org,2002:null": return .null
        case "tag:yaml.org,2002:bool": return coreValue(text) ?? .string(text)
        case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float": return coreValue(text) ?? .string(text)
        case "", "!": break
        default: return .string(text)
        }
        guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
        return coreValue(text) ?? .string(text)
    }

    /// A plain scalar by YAML 1.2's core schema, or `nil` for a string.
    ///
    /// Numbers become JSON number text, exactly (an integer past 64 bits stays as written).
    static func coreValue(_ text: String) -> JSON? {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        let bytes = Array(text.utf8)
        guard let first = bytes.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return nil }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"),
            bytes[1] == UInt8(ascii: "x") || bytes[1] == UInt8(ascii: "o")
        {
            let radix = bytes[1] == UInt8(ascii: "x") ? 16 : 8
            guard let value = UInt64(String(decoding: bytes[2...], as: UTF8.self), radix: radix) else { return nil }
            return .number(String(value))
        }
        return decimal(bytes)
    }

    /// A core-schema decimal as JSON number text.
    ///
    /// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`, written without `+`,
    /// without leading zeros, with a digit on each side of the point. `.inf` and `.nan` are not
    /// JSON numbers: they stay strings.
    static func decimal(_ bytes: [UInt8]) -> JSON? {
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        var index = 0
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        var integer = Array(bytes[integerStart..<index])
        var fraction: [UInt8]?
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            fraction = Array(bytes[fractionStart..<index])
        }
        guard !integer.isEmpty || !(fraction ?? []).isEmpty else { return nil }
        var exponent: [UInt8] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            let letter = bytes[index]
            index += 1
            var sign: [UInt8] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                sign = [bytes[index]]
                index += 1
            }
            let digitsStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > digitsStart else { return nil }
            exponent = [letter] + sign + bytes[digitsStart..<index]
        }
        guard index == bytes.count else { return nil }
        while integer.count > 1, integer.first == UInt8(ascii: "0") { integer.removeFirst() }
        if integer.isEmpty { integer = [UInt8(ascii: "0")] }
        var out = negative ? [UInt8(ascii: "-")] : []
        out += integer
        if let fraction {
            out += [UInt8(ascii: ".")] + (fraction.isEmpty ? [UInt8(ascii: "0")] : fraction)
        }
        out += exponent
        return .number(String(decoding: out, as: UTF8.self))
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
