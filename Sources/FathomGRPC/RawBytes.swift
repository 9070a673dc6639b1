import GRPCCore

/// Messages as the bytes of their encoding, for calling or serving any method by its
/// descriptors: FathomProtobuf encodes and decodes them, and gRPC carries them as they are.
public struct RawSerializer: MessageSerializer {
    /// A serializer of messages that are already bytes.
    public init() {}

    /// The bytes, as they are.
    public func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
}

/// The bytes of a message as they came, for calling or serving any method by its descriptors.
public struct RawDeserializer: MessageDeserializer {
    /// A deserializer that keeps the bytes.
    public init() {}

    /// The bytes, as they came.
    public func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
