/// Writes a ``DynamicMessage`` in the protobuf binary encoding: fields in number order, repeated
/// scalars packed where the descriptor says so, a field without presence left out at its default,
/// unknown fields written back as they came.
public struct WireEncoder: Sendable {
    /// The pool the types are in.
    public let pool: DescriptorPool

    /// An encoder for types in `pool`.
    public init(pool: DescriptorPool) {
        self.pool = pool
    }

    /// The encoding of `message`.
    public func encode(_ message: DynamicMessage) -> [UInt8] {
        var writer = WireWriter()
        write(message, to: &writer)
        return writer.bytes
    }

    private func write(_ message: DynamicMessage, to writer: inout WireWriter) {
        let descriptor = pool[message.type]
        for number in message.values.keys.sorted() {
            guard let field = descriptor.field(number: number), let content = message.values[number] else { continue }
            switch content {
            case .single(let value):
                if !field.hasPresence, isDefault(value) { continue }
                write(value, of: field, to: &writer)
            case .list(let values):
                if field.isPacked, !values.isEmpty {
                    var packed = WireWriter()
                    for value in values { writeScalar(value, of: field.type, to: &packed) }
                    writer.tag(field.number, .lengthDelimited)
                    writer.lengthDelimited(packed.bytes)
                } else {
                    for value in values { write(value, of: field, to: &writer) }
                }
            case .map(let entries):
                guard case .message(let entryType) = field.type else { continue }
                for (key, value) in entries.entries {
                    var entry = DynamicMessage(type: entryType)
                    entry.values[1] = .single(key)
                    entry.values[2] = .single(value)
                    var inner = WireWriter()
                    write(entry, to: &inner)
                    writer.tag(field.number, .lengthDelimited)
                    writer.lengthDelimited(inner.bytes)
                }
            }
        }
        for unknown in message.unknownFields {
            guard let wireType = WireType(rawValue: unknown.wireType) else { continue }
            writer.tag(unknown.number, wireType)
            switch wireType {
            case .lengthDelimited: writer.lengthDelimited(unknown.bytes)
            case .startGroup:
                writer.bytes.append(contentsOf: unknown.bytes)
                writer.tag(unknown.number, .endGroup)
            default: writer.bytes.append(contentsOf: unknown.bytes)
            }
        }
    }

    private func write(_ value: ProtoValue, of field: FieldDescriptor, to writer: inout WireWriter) {
        switch (field.type, value) {
        case (.message, .message(let message)):
            var inner = WireWriter()
            write(message, to: &inner)
            writer.tag(field.number, .lengthDelimited)
            writer.lengthDelimited(inner.bytes)
        case (.group, .message(let message)):
            writer.tag(field.number, .startGroup)
            write(message, to: &writer)
            writer.tag(field.number, .endGroup)
        default:
            writer.tag(field.number, WireDecoder.wireType(of: field.type))
            writeScalar(value, of: field.type, to: &writer)
        }
    }

    private func writeScalar(_ value: ProtoValue, of type: FieldType, to writer: inout WireWriter) {
        switch (type, value) {
        case (.double, .double(let number)): writer.fixed64(number.bitPattern)
        case (.float, .float(let number)): writer.fixed32(number.bitPattern)
        case (.int64, .int(let number)), (.int32, .int(let number)): writer.varint(UInt64(bitPattern: number))
        case (.uint64, .uint(let number)), (.uint32, .uint(let number)): writer.varint(number)
        case (.fixed64, .uint(let number)): writer.fixed64(number)
        case (.fixed32, .uint(let number)): writer.fixed32(UInt32(truncatingIfNeeded: number))
        case (.sfixed64, .int(let number)): writer.fixed64(UInt64(bitPattern: number))
        case (.sfixed32, .int(let number)): writer.fixed32(UInt32(bitPattern: Int32(truncatingIfNeeded: number)))
        case (.sint32, .int(let number)):
            let value = Int32(truncatingIfNeeded: number)
            writer.varint(UInt64(UInt32(bitPattern: (value << 1) ^ (value >> 31))))
        case (.sint64, .int(let number)): writer.varint(UInt64(bitPattern: (number << 1) ^ (number >> 63)))
        case (.bool, .bool(let flag)): writer.varint(flag ? 1 : 0)
        case (.enumeration, .enumeration(let number)): writer.varint(UInt64(bitPattern: Int64(number)))
        case (.string, .string(let text)): writer.lengthDelimited(Array(text.utf8))
        case (.bytes, .bytes(let bytes)): writer.lengthDelimited(bytes)
        default:
            // A value of another type than the field's is not made by the decoder or the JSON
            // reader; it is written as its own type's zero rather than as a wrong encoding.
            writeScalar(zero(of: type), of: type, to: &writer)
        }
    }

    private func zero(of type: FieldType) -> ProtoValue {
        switch type {
        case .double: .double(0)
        case .float: .float(0)
        case .uint64, .uint32, .fixed32, .fixed64: .uint(0)
        case .bool: .bool(false)
        case .string: .string("")
        case .bytes: .bytes([])
        case .enumeration: .enumeration(0)
        case .message(let id), .group(let id): .message(DynamicMessage(type: id))
        default: .int(0)
        }
    }

    /// Whether `value` is its type's default, which a field without presence does not write.
    func isDefault(_ value: ProtoValue) -> Bool {
        switch value {
        case .int(let number): number == 0
        case .uint(let number): number == 0
        case .float(let number): number == 0 && number.sign == .plus
        case .double(let number): number == 0 && number.sign == .plus
        case .bool(let flag): !flag
        case .string(let text): text.isEmpty
        case .bytes(let bytes): bytes.isEmpty
        case .enumeration(let number): number == 0
        case .message: false
        }
    }
}
