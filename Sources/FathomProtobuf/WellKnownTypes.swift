import FathomJSON
import Foundation
import SwiftProtobuf

/// The well-known types' own JSON forms.
///
/// `Any` is written here, through the pool, and `Struct`,
/// `Value` and `ListValue` too, so an object's members keep the order they came in (a generated
/// `Struct` keeps them in a Swift dictionary, in no stable order); the others through
/// swift-protobuf's generated types, whose proto3 JSON is conformant: the message's bytes are read
/// into the generated type, which writes its JSON (and the other way round).
struct WellKnownTypes: Sendable {
    private struct Codec: Sendable {
        let toJSON: @Sendable ([UInt8]) throws -> String
        let fromJSON: @Sendable (String) throws -> [UInt8]
    }

    private static func codec<M: SwiftProtobuf.Message>(_: M.Type) -> Codec {
        Codec(
            toJSON: { bytes in try M(serializedBytes: bytes).jsonString() },
            fromJSON: { text in try M(jsonString: text).serializedBytes() })
    }

    private static let codecs: [String: Codec] = [
        "google.protobuf.Timestamp": codec(Google_Protobuf_Timestamp.self),
        "google.protobuf.Duration": codec(Google_Protobuf_Duration.self),
        "google.protobuf.FieldMask": codec(Google_Protobuf_FieldMask.self),
        "google.protobuf.DoubleValue": codec(Google_Protobuf_DoubleValue.self),
        "google.protobuf.FloatValue": codec(Google_Protobuf_FloatValue.self),
        "google.protobuf.Int64Value": codec(Google_Protobuf_Int64Value.self),
        "google.protobuf.UInt64Value": codec(Google_Protobuf_UInt64Value.self),
        "google.protobuf.Int32Value": codec(Google_Protobuf_Int32Value.self),
        "google.protobuf.UInt32Value": codec(Google_Protobuf_UInt32Value.self),
        "google.protobuf.BoolValue": codec(Google_Protobuf_BoolValue.self),
        "google.protobuf.StringValue": codec(Google_Protobuf_StringValue.self),
        "google.protobuf.BytesValue": codec(Google_Protobuf_BytesValue.self),
    ]

    let pool: DescriptorPool

    private static let structTypes: Set<String> = [
        "google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue",
    ]

    static func isWellKnown(_ fullName: String) -> Bool {
        codecs[fullName] != nil || structTypes.contains(fullName) || fullName == "google.protobuf.Any"
    }

    /// The JSON of `message` when its type has a form of its own, else nil.
    func json(
        _ message: DynamicMessage, descriptor: MessageDescriptor, mapping: ProtoJSON, depth: Int
    )
        throws(ProtobufError) -> JSON?
    {
        if descriptor.fullName == "google.protobuf.Any" { return try anyJSON(message, mapping: mapping, depth: depth) }
        if Self.structTypes.contains(descriptor.fullName) { return try structJSON(message, descriptor, depth: depth) }
        guard let codec = Self.codecs[descriptor.fullName] else { return nil }
        let bytes = WireEncoder(pool: pool).encode(message)
        do {
            return try JSON(parsing: try codec.toJSON(bytes), options: .init(maxDepth: WireDecoder.depthLimit * 2))
        } catch let error as JSONError {
            throw ProtobufError("\(descriptor.fullName): \(error)")
        } catch {
            throw ProtobufError("\(descriptor.fullName): \(Self.describe(error))")
        }
    }

    /// The message `json` stands for when `descriptor`'s type has a form of its own, else nil.
    func message(
        from json: JSON, descriptor: MessageDescriptor, type: MessageID, mapping: ProtoJSON, depth: Int
    )
        throws(ProtobufError) -> DynamicMessage?
    {
        if descriptor.fullName == "google.protobuf.Any" {
            return try anyMessage(json, type: type, mapping: mapping, depth: depth)
        }
        if Self.structTypes.contains(descriptor.fullName) { return try structMessage(json, type, depth: depth) }
        guard let codec = Self.codecs[descriptor.fullName] else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try codec.fromJSON(json.formatted(.compactText))
        } catch {
            throw ProtobufError("not a \(descriptor.fullName): \(Self.describe(error))")
        }
        return try WireDecoder(pool: pool).decode(bytes, as: type)
    }

    // MARK: Struct, Value, ListValue

    private func structJSON(
        _ message: DynamicMessage, _ descriptor: MessageDescriptor, depth: Int
    )
        throws(ProtobufError) -> JSON
    {
        guard depth < WireDecoder.depthLimit else { throw WireDecoder.tooDeep }
        switch descriptor.fullName {
        case "google.protobuf.Struct":
            guard case .map(let entries) = message.values[1] else { return .object([]) }
            var members: [JSON.Member] = []
            for (key, value) in entries.entries {
                guard case .string(let name) = key, case .message(let inner) = value else { continue }
                members.append(JSON.Member(key: name, value: try structJSON(inner, pool[inner.type], depth: depth + 1)))
            }
            return .object(members)
        case "google.protobuf.ListValue":
            guard case .list(let values) = message.values[1] else { return .array([]) }
            var elements: [JSON] = []
            for case .message(let inner) in values {
                elements.append(try structJSON(inner, pool[inner.type], depth: depth + 1))
            }
            return .array(elements)
        default:
            // Value: a oneof of null (1), number (2), string (3), bool (4), struct (5), list (6).
            for (number, content) in message.values {
                switch (number, content) {
                case (1, _): return .null
                case (2, .single(.double(let number))):
                    guard number.isFinite else {
                        throw ProtobufError("a Value cannot hold \(number): JSON has no NaN or Infinity")
                    }
                    return .number(number.description)
                case (3, .single(.string(let text))): return .string(text)
                case (4, .single(.bool(let flag))): return .bool(flag)
                case (5, .single(.message(let inner))), (6, .single(.message(let inner))):
                    return try structJSON(inner, pool[inner.type], depth: depth + 1)
                default: continue
                }
            }
            throw ProtobufError("a google.protobuf.Value with no kind set")
        }
    }

    private func structMessage(_ json: JSON, _ type: MessageID, depth: Int) throws(ProtobufError) -> DynamicMessage {
        guard depth < WireDecoder.depthLimit else { throw WireDecoder.tooDeep }
        let descriptor = pool[type]
        var message = DynamicMessage(type: type)
        func nested(_ number: Int32) throws(ProtobufError) -> MessageID {
            guard let field = descriptor.field(number: number), case .message(let id) = field.type else {
                throw ProtobufError("\(descriptor.fullName) has no message field \(number)")
            }
            return id
        }
        switch descriptor.fullName {
        case "google.protobuf.Struct":
            guard case .object(let members) = json else {
                throw ProtobufError("google.protobuf.Struct is a JSON object, not \(json.kindName)")
            }
            let entryType = try nested(1)
            guard let valueField = pool[entryType].field(number: 2), case .message(let valueType) = valueField.type
            else {
                throw ProtobufError("google.protobuf.Struct's entries have no value")
            }
            var entries = MapEntries()
            for member in members {
                entries[.string(member.key)] = .message(try structMessage(member.value, valueType, depth: depth + 1))
            }
            message.values[1] = .map(entries)
        case "google.protobuf.ListValue":
            guard case .array(let elements) = json else {
                throw ProtobufError("google.protobuf.ListValue is a JSON array, not \(json.kindName)")
            }
            let valueType = try nested(1)
            var values: [ProtoValue] = []
            for element in elements { values.append(.message(try structMessage(element, valueType, depth: depth + 1))) }
            message.values[1] = .list(values)
        default:
            switch json {
            case .null: message.values[1] = .single(.enumeration(0))
            case .number:
                let number = try ProtoJSON.double(json)
                message.values[2] = .single(.double(number))
            case .string(let text): message.values[3] = .single(.string(text))
            case .bool(let flag): message.values[4] = .single(.bool(flag))
            case .object:
                message.values[5] = .single(.message(try structMessage(json, try nested(5), depth: depth + 1)))
            case .array: message.values[6] = .single(.message(try structMessage(json, try nested(6), depth: depth + 1)))
            }
        }
        return message
    }

    // MARK: Any

    private func anyJSON(_ message: DynamicMessage, mapping: ProtoJSON, depth: Int) throws(ProtobufError) -> JSON {
        let url: String
        if case .single(.string(let text)) = message.values[1] { url = text } else { url = "" }
        let value: [UInt8]
        if case .single(.bytes(let bytes)) = message.values[2] { value = bytes } else { value = [] }
        if url.isEmpty, value.isEmpty { return .object([]) }
        let (type, name) = try resolve(url)
        let inner = try WireDecoder(pool: pool).decode(value, as: type)
        let json = try mapping.json(inner, depth: depth + 1)
        if Self.isWellKnown(name) {
            return .object([JSON.Member(key: "@type", value: .string(url)), JSON.Member(key: "value", value: json)])
        }
        guard case .object(let members) = json else { return json }
        return .object([JSON.Member(key: "@type", value: .string(url))] + members)
    }

    private func anyMessage(
        _ json: JSON, type: MessageID, mapping: ProtoJSON, depth: Int
    ) throws(ProtobufError)
        -> DynamicMessage
    {
        guard case .object(let members) = json else {
            throw ProtobufError("google.protobuf.Any is a JSON object, not \(json.kindName)")
        }
        var message = DynamicMessage(type: type)
        if members.isEmpty { return message }
        guard case .string(let url) = json["@type"] else {
            throw ProtobufError("google.protobuf.Any needs \"@type\" naming the type it holds")
        }
        let (inner, name) = try resolve(url)
        let rest = members.filter { $0.key != "@type" }
        let content: JSON
        if Self.isWellKnown(name) {
            guard rest.count == 1, let value = json["value"] else {
                throw ProtobufError("an Any holding \(name) has its JSON in \"value\"")
            }
            content = value
        } else {
            content = .object(rest)
        }
        let held = try mapping.message(from: content, as: inner, depth: depth + 1)
        message.values[1] = .single(.string(url))
        message.values[2] = .single(.bytes(WireEncoder(pool: pool).encode(held)))
        return message
    }

    /// The type an `Any`'s URL names: the part after its last `/`.
    private func resolve(_ url: String) throws(ProtobufError) -> (MessageID, String) {
        guard let slash = url.lastIndex(of: "/") else {
            throw ProtobufError("an Any's type URL \"\(url)\" has no \"/\" before the type's name")
        }
        let name = String(url[url.index(after: slash)...])
        guard let type = pool.message(named: name) else {
            throw ProtobufError("an Any holds \(name), which is not among the descriptors")
        }
        return (type, name)
    }

    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.split(separator: "\n").first.map(String.init) ?? text
    }
}
