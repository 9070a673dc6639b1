import GRPCCore

/// Messages as the bytes of their encoding: FathomProtobuf encodes and decodes them, so gRPC
/// carries them as they are.
struct RawSerializer: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
}

/// The bytes of a message as they came.
struct RawDeserializer: MessageDeserializer {
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
