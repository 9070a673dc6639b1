/// A message of a type known only at run time: its fields' values by number, as read from the
/// wire or from proto3 JSON, and the fields its type does not name.
public struct DynamicMessage: Hashable, Sendable {
    /// Its type in the pool it was read with.
    public let type: MessageID
    /// The values of the fields that are set, by field number.
    public var values: [Int32: FieldValue] = [:]
    /// Fields the type does not name (from a newer server), and closed-enum values it does not
    /// know, as they came.
    public var unknownFields: [UnknownField] = []

    /// An empty message of `type`.
    public init(type: MessageID) {
        self.type = type
    }
}

/// What a field holds.
public enum FieldValue: Hashable, Sendable {
    /// A singular field's value.
    case single(ProtoValue)
    /// A repeated field's values, in order.
    case list([ProtoValue])
    /// A map field's entries, in the order their keys first came.
    case map(MapEntries)
}

/// One value of a field.
public enum ProtoValue: Hashable, Sendable {
    /// `int32`, `int64`, `sint32`, `sint64`, `sfixed32`, `sfixed64`.
    case int(Int64)
    /// `uint32`, `uint64`, `fixed32`, `fixed64`.
    case uint(UInt64)
    /// `float`.
    case float(Float)
    /// `double`.
    case double(Double)
    /// `bool`.
    case bool(Bool)
    /// `string`.
    case string(String)
    /// `bytes`.
    case bytes([UInt8])
    /// An enum's number (named or not).
    case enumeration(Int32)
    /// A message or group.
    case message(DynamicMessage)
}

/// A map field's entries: the last value for a key wins, keys keep the order they first came in.
public struct MapEntries: Hashable, Sendable {
    /// The keys, in order.
    public private(set) var keys: [ProtoValue] = []
    private var valuesByKey: [ProtoValue: ProtoValue] = [:]

    /// No entries.
    public init() {}

    /// The value for `key`.
    public subscript(key: ProtoValue) -> ProtoValue? {
        get { valuesByKey[key] }
        set {
            if valuesByKey[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil, valuesByKey[key] != nil { keys.removeAll { $0 == key } }
            valuesByKey[key] = newValue
        }
    }

    /// The entries, in order.
    public var entries: [(key: ProtoValue, value: ProtoValue)] {
        keys.compactMap { key in valuesByKey[key].map { (key, $0) } }
    }

    /// How many entries.
    public var count: Int { keys.count }
}

/// A field the message's type does not name, kept as it came.
public struct UnknownField: Hashable, Sendable {
    /// Its number.
    public let number: Int32
    /// Its wire type (0 varint, 1 fixed64, 2 length-delimited, 3 group, 5 fixed32).
    public let wireType: UInt8
    /// Its value's bytes as encoded (a varint's bytes, a length-delimited value's payload, a
    /// group's contents).
    public let bytes: [UInt8]
}
