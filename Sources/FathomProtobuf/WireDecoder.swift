/// Reads the protobuf binary encoding into a ``DynamicMessage`` by the descriptors in a pool.
///
/// As the protobuf runtimes do: a singular field seen twice keeps the last value (a message is
/// merged), repeated scalars are read packed or not, a map's later entry for a key wins, setting a
/// oneof member clears the others, fields the type does not name are kept as ``UnknownField``s,
/// and nesting deeper than ``depthLimit`` is an error rather than a deep stack.
public struct WireDecoder: Sendable {
    /// How deep messages may nest: protobuf's own default recursion limit.
    public static let depthLimit = 100
    static let tooDeep = ProtobufError("messages nested deeper than \(depthLimit)")

    /// The pool the types are in.
    public let pool: DescriptorPool

    /// A decoder for types in `pool`.
    public init(pool: DescriptorPool) {
        self.pool = pool
    }

    /// The message of type `type` that `bytes` encode.
    public func decode(_ bytes: some Collection<UInt8>, as type: MessageID) throws(ProtobufError) -> DynamicMessage {
        var message = DynamicMessage(type: type)
        let array = Array(bytes)
        let result: Result<Void, ProtobufError> = array.withUnsafeBytes { buffer in
            var reader = WireReader(buffer)
            do throws(ProtobufError) {
                try merge(&reader, into: &message, depth: 0, group: nil)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        return message
    }

    /// Reads fields from `reader` into `message` until its end, or until the end tag of `group`.
    private func merge(
        _ reader: inout WireReader, into message: inout DynamicMessage, depth: Int, group: Int32?
    )
        throws(ProtobufError)
    {
        let descriptor = pool[message.type]
        while !reader.isAtEnd {
            let (number, wireType) = try reader.tag()
            if wireType == .endGroup {
                guard let group, group == number else {
                    throw ProtobufError("byte \(reader.offset): the end of group \(number), which was not started")
                }
                return
            }
            guard let field = descriptor.field(number: number) else {
                try keepUnknown(number, wireType, &reader, in: &message, depth: depth)
                continue
            }
            do throws(ProtobufError) {
                try read(field, wireType, &reader, into: &message, depth: depth)
            } catch {
                throw error.inside(descriptor.fullName, field: field.name)
            }
        }
        if let group { throw ProtobufError("group \(group) has no end") }
    }

    private func keepUnknown(
        _ number: Int32, _ wireType: WireType, _ reader: inout WireReader, in message: inout DynamicMessage,
        depth: Int
    ) throws(ProtobufError) {
        let range = try reader.skip(wireType, number: number, depth: depth)
        message.unknownFields.append(
            UnknownField(number: number, wireType: wireType.rawValue, bytes: reader.slice(range)))
    }

    private func read(
        _ field: FieldDescriptor, _ wireType: WireType, _ reader: inout WireReader, into message: inout DynamicMessage,
        depth: Int
    ) throws(ProtobufError) {
        // A repeated scalar may come packed whatever the descriptor says.
        if field.isRepeated, field.type.isPackable, wireType == .lengthDelimited {
            let range = try reader.lengthDelimited()
            var packed = reader.reader(for: range)
            var values: [ProtoValue] = []
            while !packed.isAtEnd {
                let value = try scalar(field, Self.packedWireType(field.type), &packed)
                if case .enumeration(let number) = value, !isKnown(number, field) {
                    message.unknownFields.append(
                        UnknownField(number: field.number, wireType: 0, bytes: Self.varintBytes(Int64(number))))
                    continue
                }
                values.append(value)
            }
            append(values, to: field, in: &message)
            return
        }
        let expected = Self.wireType(of: field.type)
        guard wireType == expected else {
            throw ProtobufError(
                "byte \(reader.offset): wire type \(wireType.rawValue), where \(field.type) has \(expected.rawValue)")
        }
        let value: ProtoValue
        switch field.type {
        case .message(let type):
            guard depth + 1 < Self.depthLimit else { throw Self.tooDeep }
            let range = try reader.lengthDelimited()
            var inner = reader.reader(for: range)
            var nested = existingMessage(field, in: message) ?? DynamicMessage(type: type)
            try merge(&inner, into: &nested, depth: depth + 1, group: nil)
            value = .message(nested)
        case .group(let type):
            guard depth + 1 < Self.depthLimit else { throw Self.tooDeep }
            var nested = existingMessage(field, in: message) ?? DynamicMessage(type: type)
            try merge(&reader, into: &nested, depth: depth + 1, group: field.number)
            value = .message(nested)
        default:
            value = try scalar(field, wireType, &reader)
            if case .enumeration(let number) = value, !isKnown(number, field) {
                message.unknownFields.append(
                    UnknownField(number: field.number, wireType: 0, bytes: Self.varintBytes(Int64(number))))
                return
            }
        }
        if field.isRepeated {
            if case .message(let entryType) = field.type, pool[entryType].isMapEntry, case .message(let entry) = value {
                var entries: MapEntries
                if case .map(let existing) = message.values[field.number] {
                    entries = existing
                } else {
                    entries = MapEntries()
                }
                let descriptor = pool[entryType]
                let key = entry.values[1].flatMap(\.single) ?? defaultValue(descriptor.field(number: 1)!)
                let mapped = entry.values[2].flatMap(\.single) ?? defaultValue(descriptor.field(number: 2)!)
                entries[key] = mapped
                message.values[field.number] = .map(entries)
            } else {
                append([value], to: field, in: &message)
            }
            return
        }
        if let oneof = field.oneof {
            let descriptor = pool[message.type]
            for other in descriptor.oneofs[oneof].fieldNumbers where other != field.number {
                message.values[other] = nil
            }
        }
        message.values[field.number] = .single(value)
    }

    private func isKnown(_ number: Int32, _ field: FieldDescriptor) -> Bool {
        guard case .enumeration(let id) = field.type, !pool[id].isOpen else { return true }
        return pool[id].value(number: number) != nil
    }

    private func existingMessage(_ field: FieldDescriptor, in message: DynamicMessage) -> DynamicMessage? {
        guard !field.isRepeated, case .single(.message(let existing)) = message.values[field.number] else { return nil }
        return existing
    }

    private func append(_ values: [ProtoValue], to field: FieldDescriptor, in message: inout DynamicMessage) {
        if case .list(var existing) = message.values[field.number] {
            message.values[field.number] = nil
            existing.append(contentsOf: values)
            message.values[field.number] = .list(existing)
        } else {
            message.values[field.number] = .list(values)
        }
    }

    /// The value a field has when it is not set.
    func defaultValue(_ field: FieldDescriptor) -> ProtoValue {
        switch field.type {
        case .double: .double(0)
        case .float: .float(0)
        case .int64, .int32, .sint32, .sint64, .sfixed32, .sfixed64: .int(0)
        case .uint64, .uint32, .fixed32, .fixed64: .uint(0)
        case .bool: .bool(false)
        case .string: .string("")
        case .bytes: .bytes([])
        case .enumeration(let id): .enumeration(pool[id].values.first?.number ?? 0)
        case .message(let id), .group(let id): .message(DynamicMessage(type: id))
        }
    }

    private func scalar(
        _ field: FieldDescriptor, _ wireType: WireType, _ reader: inout WireReader
    )
        throws(ProtobufError) -> ProtoValue
    {
        switch field.type {
        case .double: return .double(Double(bitPattern: try reader.fixed64()))
        case .float: return .float(Float(bitPattern: try reader.fixed32()))
        case .int64: return .int(Int64(bitPattern: try reader.varint()))
        case .uint64: return .uint(try reader.varint())
        case .int32: return .int(Int64(Int32(truncatingIfNeeded: try reader.varint())))
        case .fixed64: return .uint(try reader.fixed64())
        case .fixed32: return .uint(UInt64(try reader.fixed32()))
        case .bool: return .bool(try reader.varint() != 0)
        case .uint32: return .uint(UInt64(UInt32(truncatingIfNeeded: try reader.varint())))
        case .sfixed32: return .int(Int64(Int32(bitPattern: try reader.fixed32())))
        case .sfixed64: return .int(Int64(bitPattern: try reader.fixed64()))
        case .sint32:
            let raw = UInt32(truncatingIfNeeded: try reader.varint())
            return .int(Int64(Int32(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))))
        case .sint64:
            let raw = try reader.varint()
            return .int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
        case .enumeration: return .enumeration(Int32(truncatingIfNeeded: try reader.varint()))
        case .string:
            let range = try reader.lengthDelimited()
            let bytes = reader.slice(range)
            if let text = String(validating: bytes, as: UTF8.self) { return .string(text) }
            if field.validatesUTF8 {
                throw ProtobufError("byte \(range.lowerBound): a string that is not UTF-8")
            }
            return .string(String(decoding: bytes, as: UTF8.self))
        case .bytes: return .bytes(reader.slice(try reader.lengthDelimited()))
        case .message, .group: throw ProtobufError("a message where a scalar was expected")
        }
    }

    static func wireType(of type: FieldType) -> WireType {
        switch type {
        case .double, .fixed64, .sfixed64: .fixed64
        case .float, .fixed32, .sfixed32: .fixed32
        case .string, .bytes, .message: .lengthDelimited
        case .group: .startGroup
        default: .varint
        }
    }

    private static func packedWireType(_ type: FieldType) -> WireType { wireType(of: type) }

    private static func varintBytes(_ value: Int64) -> [UInt8] {
        var writer = WireWriter()
        writer.varint(UInt64(bitPattern: value))
        return writer.bytes
    }
}

extension FieldValue {
    /// The value of a singular field.
    public var single: ProtoValue? {
        if case .single(let value) = self { value } else { nil }
    }
}
