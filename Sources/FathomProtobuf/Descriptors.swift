/// A message type in a ``DescriptorPool``, by position.
public struct MessageID: Hashable, Sendable {
    /// Its index in ``DescriptorPool/messages``.
    public let index: Int
}

/// An enum type in a ``DescriptorPool``, by position.
public struct EnumID: Hashable, Sendable {
    /// Its index in ``DescriptorPool/enums``.
    public let index: Int
}

/// The type of a field's values, its message and enum types resolved.
public enum FieldType: Hashable, Sendable {
    /// `double`.
    case double
    /// `float`.
    case float
    /// `int64`.
    case int64
    /// `uint64`.
    case uint64
    /// `int32`.
    case int32
    /// `fixed64`.
    case fixed64
    /// `fixed32`.
    case fixed32
    /// `bool`.
    case bool
    /// `string`.
    case string
    /// `bytes`.
    case bytes
    /// `uint32`.
    case uint32
    /// `sfixed32`.
    case sfixed32
    /// `sfixed64`.
    case sfixed64
    /// `sint32`.
    case sint32
    /// `sint64`.
    case sint64
    /// A message, length-delimited on the wire.
    case message(MessageID)
    /// A proto2 group: a message between start- and end-group tags.
    case group(MessageID)
    /// An enum.
    case enumeration(EnumID)

    /// The name `.proto` files use for it, a message's or enum's full name for those.
    public func name(in pool: DescriptorPool) -> String {
        switch self {
        case .message(let id), .group(let id): pool[id].fullName
        case .enumeration(let id): pool[id].fullName
        default: "\(self)"
        }
    }

    /// Whether repeated values of this type can be packed (every scalar but strings and bytes).
    var isPackable: Bool {
        switch self {
        case .string, .bytes, .message, .group: false
        default: true
        }
    }
}

/// A field of a message.
public struct FieldDescriptor: Hashable, Sendable {
    /// How many values a field holds.
    public enum Cardinality: Hashable, Sendable {
        /// One value, or none.
        case singular
        /// Any number of values, in order (a map is a repeated field of entries).
        case repeated
        /// A proto2 `required` field.
        case required
    }

    /// Its name in the `.proto` file.
    public let name: String
    /// Its name in proto3 JSON: `json_name` when the descriptor has one, else the name in
    /// lowerCamelCase as `protoc` derives it (servers' reflection answers often leave it out).
    public let jsonName: String
    /// Its number.
    public let number: Int32
    /// One value or many.
    public let cardinality: Cardinality
    /// The type of its values.
    public let type: FieldType
    /// The index in its message's ``MessageDescriptor/oneofs`` of the oneof it belongs to (a real
    /// one: a proto3 `optional` field's synthetic oneof is not counted).
    public let oneof: Int?
    /// Whether repeated values are written packed (decoding takes either form).
    public let isPacked: Bool
    /// Whether it tells "not set" from its default: message fields, oneof members, proto3
    /// `optional` and proto2 fields do; a proto3 scalar does not, so its default is never written.
    public let hasPresence: Bool
    /// Whether a `string` field's bytes must be UTF-8 (proto3 and editions; proto2 takes any).
    public let validatesUTF8: Bool
    /// The comment above it in its `.proto` file, when the descriptors carry source information.
    public let comment: String?

    /// Whether it holds more than one value.
    public var isRepeated: Bool { cardinality == .repeated }
}

/// A oneof: at most one of its fields is set.
public struct OneofDescriptor: Hashable, Sendable {
    /// Its name.
    public let name: String
    /// The numbers of its fields.
    public let fieldNumbers: [Int32]
}

/// A message type, its fields resolved.
public struct MessageDescriptor: Hashable, Sendable {
    /// The package-qualified name, without a leading dot (`pkg.Outer.Inner`).
    public let fullName: String
    /// The `.proto` file that defines it.
    public let file: String
    /// Its fields, in the order the file declares them.
    public let fields: [FieldDescriptor]
    /// Its oneofs (proto3 `optional` fields' synthetic ones left out).
    public let oneofs: [OneofDescriptor]
    /// Whether it is the entry type of a map field (key is field 1, value field 2).
    public let isMapEntry: Bool
    /// The comment above it in its `.proto` file, when the descriptors carry source information.
    public let comment: String?
    let fieldsByNumber: [Int32: Int]
    let fieldsByJSONName: [String: Int]

    /// The field numbered `number`.
    public func field(number: Int32) -> FieldDescriptor? {
        fieldsByNumber[number].map { fields[$0] }
    }

    /// The field proto3 JSON names `name`: its JSON name or its name in the `.proto` file.
    public func field(named name: String) -> FieldDescriptor? {
        fieldsByJSONName[name].map { fields[$0] }
    }

    /// The short name (the last part of ``fullName``).
    public var name: String { String(fullName.split(separator: ".").last ?? Substring(fullName)) }
}

/// An enum type.
public struct EnumDescriptor: Hashable, Sendable {
    /// One named value.
    public struct Value: Hashable, Sendable {
        /// Its name.
        public let name: String
        /// Its number.
        public let number: Int32
        /// The comment above it, when the descriptors carry source information.
        public let comment: String?
    }

    /// The package-qualified name, without a leading dot.
    public let fullName: String
    /// The `.proto` file that defines it.
    public let file: String
    /// Its values, in the order the file declares them (aliases included).
    public let values: [Value]
    /// Whether a number it does not name is kept as a number (proto3) or set aside as an unknown
    /// field (a closed proto2 enum).
    public let isOpen: Bool
    /// The comment above it, when the descriptors carry source information.
    public let comment: String?

    /// The first value numbered `number`.
    public func value(number: Int32) -> Value? { values.first { $0.number == number } }

    /// The value named `name`.
    public func value(named name: String) -> Value? { values.first { $0.name == name } }
}

/// A method of a service.
public struct MethodDescriptor: Hashable, Sendable {
    /// Its name.
    public let name: String
    /// The message it takes.
    public let input: MessageID
    /// The message it answers with.
    public let output: MessageID
    /// Whether the client sends a stream of messages.
    public let clientStreaming: Bool
    /// Whether the server answers with a stream of messages.
    public let serverStreaming: Bool
    /// The comment above it, when the descriptors carry source information.
    public let comment: String?

    /// `unary`, `server streaming`, `client streaming` or `bidirectional streaming`.
    public var kind: String {
        switch (clientStreaming, serverStreaming) {
        case (false, false): "unary"
        case (false, true): "server streaming"
        case (true, false): "client streaming"
        case (true, true): "bidirectional streaming"
        }
    }
}

/// A service.
public struct ServiceDescriptor: Hashable, Sendable {
    /// The package-qualified name, without a leading dot.
    public let fullName: String
    /// The `.proto` file that defines it.
    public let file: String
    /// Its methods, in the order the file declares them.
    public let methods: [MethodDescriptor]
    /// The comment above it, when the descriptors carry source information.
    public let comment: String?

    /// The method named `name`.
    public func method(named name: String) -> MethodDescriptor? { methods.first { $0.name == name } }
}
