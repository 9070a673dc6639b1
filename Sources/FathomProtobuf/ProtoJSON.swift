import FathomJSON

/// The proto3 JSON mapping between ``DynamicMessage``s and FathomJSON values, as
/// `protobuf`'s own `json_format` writes and reads it.
///
/// Writing: fields by their JSON names in number order, a field without presence left out at its
/// default, 64-bit integers as strings, enums by name (a number the enum does not name as the
/// number), bytes as base64, `NaN` and `±Infinity` as strings, maps as objects, and the
/// well-known types in their own forms (`Timestamp` and `Duration` as strings, `Struct` as an
/// object, wrappers as their value, `Any` with `@type` resolved through the pool). Reading takes
/// what `json_format.Parse` takes: either name of a field, numbers as numbers or strings, enums by
/// name or number, standard or URL-safe base64; a member the type does not have is an error
/// naming it, with the nearest field name.
public struct ProtoJSON: Sendable {
    /// The pool the types are in (and `Any`'s contents are looked up in).
    public let pool: DescriptorPool
    let wellKnown: WellKnownTypes

    /// A mapping for types in `pool`.
    public init(pool: DescriptorPool) {
        self.pool = pool
        wellKnown = WellKnownTypes(pool: pool)
    }

    /// `message` as proto3 JSON.
    public func json(_ message: DynamicMessage) throws(ProtobufError) -> JSON {
        try json(message, depth: 0)
    }

    /// The message of type `type` that `json` stands for.
    public func message(from json: JSON, as type: MessageID) throws(ProtobufError) -> DynamicMessage {
        try message(from: json, as: type, depth: 0)
    }

    // MARK: Writing

    func json(_ message: DynamicMessage, depth: Int) throws(ProtobufError) -> JSON {
        guard depth < WireDecoder.depthLimit else { throw WireDecoder.tooDeep }
        let descriptor = pool[message.type]
        if let special = try wellKnown.json(message, descriptor: descriptor, mapping: self, depth: depth) {
            return special
        }
        var members: [JSON.Member] = []
        for field in descriptor.fields.sorted(by: { $0.number < $1.number }) {
            guard let content = message.values[field.number] else { continue }
            let value: JSON
            switch content {
            case .single(let single):
                if !field.hasPresence, WireEncoder(pool: pool).isDefault(single) { continue }
                value = try json(single, of: field.type, depth: depth)
            case .list(let values):
                if values.isEmpty { continue }
                var elements: [JSON] = []
                elements.reserveCapacity(values.count)
                for element in values { elements.append(try json(element, of: field.type, depth: depth)) }
                value = .array(elements)
            case .map(let entries):
                if entries.count == 0 { continue }
                guard case .message(let entryType) = field.type, let valueField = pool[entryType].field(number: 2)
                else { continue }
                var object: [JSON.Member] = []
                for (key, entry) in entries.entries {
                    object.append(
                        JSON.Member(key: Self.mapKey(key), value: try json(entry, of: valueField.type, depth: depth)))
                }
                value = .object(object)
            }
            members.append(JSON.Member(key: field.jsonName, value: value))
        }
        return .object(members)
    }

    func json(_ value: ProtoValue, of type: FieldType, depth: Int) throws(ProtobufError) -> JSON {
        switch value {
        case .int(let number):
            switch type {
            case .int64, .sint64, .sfixed64: return .string(String(number))
            default: return .number(String(number))
            }
        case .uint(let number):
            switch type {
            case .uint64, .fixed64: return .string(String(number))
            default: return .number(String(number))
            }
        case .float(let number):
            if number.isNaN { return .string("NaN") }
            if number.isInfinite { return .string(number < 0 ? "-Infinity" : "Infinity") }
            return .number(number.description)
        case .double(let number):
            if number.isNaN { return .string("NaN") }
            if number.isInfinite { return .string(number < 0 ? "-Infinity" : "Infinity") }
            return .number(number.description)
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .string(text)
        case .bytes(let bytes): return .string(Base64.encode(bytes))
        case .enumeration(let number):
            guard case .enumeration(let id) = type else { return .number(String(number)) }
            let descriptor = pool[id]
            if descriptor.fullName == "google.protobuf.NullValue" { return .null }
            return descriptor.value(number: number).map { .string($0.name) } ?? .number(String(number))
        case .message(let message): return try json(message, depth: depth + 1)
        }
    }

    static func mapKey(_ key: ProtoValue) -> String {
        switch key {
        case .int(let number): String(number)
        case .uint(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .string(let text): text
        default: ""
        }
    }
}
