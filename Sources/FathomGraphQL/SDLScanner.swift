/// Reads what ``SchemaIndex`` needs from SDL — the types, their fields, arguments, values,
/// members, interfaces, descriptions and deprecations, the roots and the directives — in one pass
/// over the bytes, without building GraphQLSwift's syntax tree: a GitHub-size schema is indexed in
/// a few dozen milliseconds where the full parse takes hundreds, so a large schema is usable at
/// once and parsed whole off the line.
///
/// It reads a document that parses; anything it does not expect (an operation in the file, a
/// syntax error) makes it give up (`nil`), and the caller parses the document whole instead, so
/// a syntax error is still reported where it is.
struct SDLScanner {
    private let bytes: [UInt8]
    private var position = 0

    private enum Token: Equatable {
        case name(String)
        case punctuator(UInt8)
        case spread
        case string(String)
        case number(String)
        case end
    }

    private var token: Token = .end
    /// The description just read, for the definition that follows it.
    private var pendingDescription: String?

    /// The definitions of `sdl`, or `nil` when it is anything but a type system document that parses.
    static func definitions(_ sdl: String) -> [SchemaIndex.Definition]? {
        var scanner = SDLScanner(bytes: Array(sdl.utf8))
        return scanner.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private struct GiveUp: Error {}

    private mutating func document() -> [SchemaIndex.Definition]? {
        do {
            try advance()
            var definitions: [SchemaIndex.Definition] = []
            while token != .end { definitions.append(try definition()) }
            return definitions
        } catch {
            return nil
        }
    }

    // MARK: - Definitions

    private mutating func definition() throws -> SchemaIndex.Definition {
        let description = try optionalDescription()
        guard case .name(var keyword) = token else { throw GiveUp() }
        try advance()
        if keyword == "extend" {
            guard case .name(let extended) = token else { throw GiveUp() }
            keyword = extended
            try advance()
        }
        switch keyword {
        case "schema":
            try skipDirectives()
            var roots: [OperationKind: String] = [:]
            if token == .punctuator(UInt8(ascii: "{")) {
                try advance()
                while token != .punctuator(UInt8(ascii: "}")) {
                    guard let kind = OperationKind(rawValue: try name()) else { throw GiveUp() }
                    try expect(":")
                    roots[kind] = try name()
                }
                try advance()
            }
            return .schema(roots)
        case "scalar":
            let typeName = try name()
            try skipDirectives()
            return .type(type(typeName, .scalar, description))
        case "type", "interface":
            let typeName = try name()
            var interfaces: [String] = []
            if token == .name("implements") {
                try advance()
                if token == .punctuator(UInt8(ascii: "&")) { try advance() }
                while case .name(let interface) = token {
                    interfaces.append(interface)
                    try advance()
                    if token == .punctuator(UInt8(ascii: "&")) { try advance() }
                }
            }
            try skipDirectives()
            var fields: [SchemaIndex.Field] = []
            if token == .punctuator(UInt8(ascii: "{")) {
                try advance()
                while token != .punctuator(UInt8(ascii: "}")) { fields.append(try field()) }
                try advance()
            }
            let kind: SchemaIndex.Kind = keyword == "type" ? .object : .interface
            return .type(
                SchemaIndex.NamedType(
                    name: typeName, kind: kind, description: description, fields: fields, enumValues: [],
                    possibleTypes: kind == .object ? [typeName] : [], interfaces: interfaces))
        case "union":
            let typeName = try name()
            try skipDirectives()
            var members: [String] = []
            if token == .punctuator(UInt8(ascii: "=")) {
                try advance()
                if token == .punctuator(UInt8(ascii: "|")) { try advance() }
                members.append(try name())
                while token == .punctuator(UInt8(ascii: "|")) {
                    try advance()
                    members.append(try name())
                }
            }
            return .type(
                SchemaIndex.NamedType(
                    name: typeName, kind: .union, description: description, fields: [], enumValues: [],
                    possibleTypes: members, interfaces: []))
        case "enum":
            let typeName = try name()
            try skipDirectives()
            var values: [SchemaIndex.EnumValue] = []
            if token == .punctuator(UInt8(ascii: "{")) {
                try advance()
                while token != .punctuator(UInt8(ascii: "}")) {
                    let valueDescription = try optionalDescription()
                    let valueName = try name()
                    values.append(
                        SchemaIndex.EnumValue(
                            name: valueName, description: valueDescription, deprecationReason: try directives()))
                }
                try advance()
            }
            return .type(
                SchemaIndex.NamedType(
                    name: typeName, kind: .enum, description: description, fields: [], enumValues: values,
                    possibleTypes: [], interfaces: []))
        case "input":
            let typeName = try name()
            try skipDirectives()
            var fields: [SchemaIndex.Field] = []
            if token == .punctuator(UInt8(ascii: "{")) {
                try advance()
                while token != .punctuator(UInt8(ascii: "}")) {
                    let value = try inputValue()
                    fields.append(
                        SchemaIndex.Field(
                            name: value.argument.name, type: value.argument.type, arguments: [],
                            description: value.argument.description, deprecationReason: value.deprecation))
                }
                try advance()
            }
            return .type(
                SchemaIndex.NamedType(
                    name: typeName, kind: .inputObject, description: description, fields: fields, enumValues: [],
                    possibleTypes: [], interfaces: []))
        case "directive":
            try expect("@")
            let directiveName = try name()
            let arguments = try argumentDefinitions()
            if token == .name("repeatable") { try advance() }
            guard token == .name("on") else { throw GiveUp() }
            try advance()
            if token == .punctuator(UInt8(ascii: "|")) { try advance() }
            var locations = [try name()]
            while token == .punctuator(UInt8(ascii: "|")) {
                try advance()
                locations.append(try name())
            }
            return .directive(
                SchemaIndex.Directive(
                    name: directiveName, arguments: arguments, locations: locations, description: description))
        default:
            // An operation or a fragment: the whole parse says what to make of it.
            throw GiveUp()
        }
    }

    private func type(_ name: String, _ kind: SchemaIndex.Kind, _ description: String?) -> SchemaIndex.NamedType {
        SchemaIndex.NamedType(
            name: name, kind: kind, description: description, fields: [], enumValues: [], possibleTypes: [],
            interfaces: [])
    }

    private mutating func field() throws -> SchemaIndex.Field {
        let description = try optionalDescription()
        let fieldName = try name()
        let arguments = try argumentDefinitions()
        try expect(":")
        let type = try typeReference()
        return SchemaIndex.Field(
            name: fieldName, type: type, arguments: arguments, description: description,
            deprecationReason: try directives())
    }

    private mutating func argumentDefinitions() throws -> [SchemaIndex.Argument] {
        guard token == .punctuator(UInt8(ascii: "(")) else { return [] }
        try advance()
        var arguments: [SchemaIndex.Argument] = []
        while token != .punctuator(UInt8(ascii: ")")) { arguments.append(try inputValue().argument) }
        try advance()
        return arguments
    }

    private mutating func inputValue() throws -> (argument: SchemaIndex.Argument, deprecation: String?) {
        let description = try optionalDescription()
        let valueName = try name()
        try expect(":")
        let type = try typeReference()
        var defaultValue: String?
        if token == .punctuator(UInt8(ascii: "=")) {
            try advance()
            defaultValue = try value()
        }
        let deprecation = try directives()
        return (
            SchemaIndex.Argument(name: valueName, type: type, defaultValue: defaultValue, description: description),
            deprecation
        )
    }

    private mutating func typeReference() throws -> TypeReference {
        var type: TypeReference
        if token == .punctuator(UInt8(ascii: "[")) {
            try advance()
            type = .list(try typeReference())
            try expect("]")
        } else {
            type = .named(try name())
        }
        if token == .punctuator(UInt8(ascii: "!")) {
            try advance()
            type = .nonNull(type)
        }
        return type
    }

    /// The directives on a definition, read for `@deprecated`'s reason (its default when it
    /// gives none); `nil` when there is none.
    private mutating func directives() throws -> String? {
        var deprecation: String?
        while token == .punctuator(UInt8(ascii: "@")) {
            try advance()
            let directive = try name()
            var reason: String?
            if token == .punctuator(UInt8(ascii: "(")) {
                try advance()
                while token != .punctuator(UInt8(ascii: ")")) {
                    let argument = try name()
                    try expect(":")
                    if argument == "reason", case .string(let text) = token { reason = text }
                    _ = try value()
                }
                try advance()
            }
            if directive == "deprecated" { deprecation = reason ?? "No longer supported" }
        }
        return deprecation
    }

    private mutating func skipDirectives() throws { _ = try directives() }

    /// A value as GraphQL prints it (`10`, `"FR"`, `[1, 2]`, `{ a: 1 }`, `ADMIN`).
    private mutating func value() throws -> String {
        switch token {
        case .number(let text):
            try advance()
            return text
        case .string(let text):
            try advance()
            return SDLWriter.quoted(text)
        case .name(let text):
            try advance()
            return text
        case .punctuator(UInt8(ascii: "$")):
            try advance()
            return "$" + (try name())
        case .punctuator(UInt8(ascii: "[")):
            try advance()
            var items: [String] = []
            while token != .punctuator(UInt8(ascii: "]")) { items.append(try value()) }
            try advance()
            return "[" + items.joined(separator: ", ") + "]"
        case .punctuator(UInt8(ascii: "{")):
            try advance()
            var members: [String] = []
            while token != .punctuator(UInt8(ascii: "}")) {
                let key = try name()
                try expect(":")
                members.append(key + ": " + (try value()))
            }
            try advance()
            // As GraphQLSwift's printer writes an object: `{ a: 1 }`, `{}`.
            return members.isEmpty ? "{}" : "{ " + members.joined(separator: ", ") + " }"
        default:
            throw GiveUp()
        }
    }

    private mutating func optionalDescription() throws -> String? {
        guard case .string(let text) = token else { return nil }
        try advance()
        return text
    }

    private mutating func name() throws -> String {
        guard case .name(let text) = token else { throw GiveUp() }
        try advance()
        return text
    }

    private mutating func expect(_ punctuator: Unicode.Scalar) throws {
        guard token == .punctuator(UInt8(ascii: punctuator)) else { throw GiveUp() }
        try advance()
    }

    // MARK: - Tokens

    private mutating func advance() throws {
        // Blanks, line ends, commas, a byte order mark and comments are insignificant.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",") {
                position += 1
            } else if byte == UInt8(ascii: "#") {
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            } else if byte == 0xEF, position + 2 < bytes.count, bytes[position + 1] == 0xBB, bytes[position + 2] == 0xBF
            {
                position += 3
            } else {
                break
            }
        }
        guard position < bytes.count else {
            token = .end
            return
        }
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            position += 1
            token = .punctuator(byte)
        case UInt8(ascii: "."):
            guard position + 2 < bytes.count, bytes[position + 1] == byte, bytes[position + 2] == byte else {
                throw GiveUp()
            }
            position += 3
            token = .spread
        case UInt8(ascii: "\""):
            token = .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = position
            position += 1
            while position < bytes.count,
                Self.isNumberByte(bytes[position])
            {
                position += 1
            }
            token = .number(String(decoding: bytes[start..<position], as: UTF8.self))
        default:
            guard Self.isNameStart(byte) else { throw GiveUp() }
            let start = position
            while position < bytes.count, Self.isNameStart(bytes[position]) || Self.isDigit(bytes[position]) {
                position += 1
            }
            token = .name(String(decoding: bytes[start..<position], as: UTF8.self))
        }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// A string or block string's value, escapes and the block's indentation taken out.
    private mutating func string() throws -> String {
        if position + 2 < bytes.count, bytes[position + 1] == UInt8(ascii: "\""),
            bytes[position + 2] == UInt8(ascii: "\"")
        {
            position += 3
            var raw: [UInt8] = []
            while true {
                guard position < bytes.count else { throw GiveUp() }
                if bytes[position] == UInt8(ascii: "\\"), position + 3 < bytes.count, bytes[position + 1] == 0x22,
                    bytes[position + 2] == 0x22, bytes[position + 3] == 0x22
                {
                    raw += [0x22, 0x22, 0x22]
                    position += 4
                } else if bytes[position] == 0x22, position + 2 < bytes.count, bytes[position + 1] == 0x22,
                    bytes[position + 2] == 0x22
                {
                    position += 3
                    return Self.blockValue(String(decoding: raw, as: UTF8.self))
                } else {
                    raw.append(bytes[position])
                    position += 1
                }
            }
        }
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D else { throw GiveUp() }
            let byte = bytes[position]
            position += 1
            if byte == 0x22 { return String(decoding: value, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                value.append(byte)
                continue
            }
            guard position < bytes.count else { throw GiveUp() }
            let escaped = bytes[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "n"): value.append(0x0A)
            case UInt8(ascii: "t"): value.append(0x09)
            case UInt8(ascii: "r"): value.append(0x0D)
            case UInt8(ascii: "b"): value.append(0x08)
            case UInt8(ascii: "f"): value.append(0x0C)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): value.append(escaped)
            case UInt8(ascii: "u"):
                // A code point, or a surrogate pair's two: the full parse reads those exactly.
                guard position + 4 <= bytes.count,
                    let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(code)
                else { throw GiveUp() }
                position += 4
                value += Array(String(Character(scalar)).utf8)
            default:
                throw GiveUp()
            }
        }
    }

    /// A block string's value (the specification's BlockStringValue): common indentation and
    /// blank first and last lines removed.
    static func blockValue(_ raw: String) -> String {
        var lines = raw.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        )
        .map(String.init)
        var common: Int?
        for line in lines.dropFirst() {
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            guard indent < line.count else { continue }
            common = min(common ?? indent, indent)
        }
        if let common {
            for index in lines.indices.dropFirst() { lines[index] = String(lines[index].dropFirst(common)) }
        }
        while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
