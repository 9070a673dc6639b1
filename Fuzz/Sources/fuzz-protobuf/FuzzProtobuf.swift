import FathomJSON
import FathomProtobuf
import Foundation
import FuzzDriver

/// protobuf's conformance schema (every scalar, maps, oneofs, recursion, the well-known types),
/// linked from the descriptor set in Tests/Corpora/protobuf.
let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/Corpora/protobuf")
let pool = (try? Data(contentsOf: corpus.appendingPathComponent("test_messages_proto3.pb"))).flatMap {
    try? DescriptorPool(fileDescriptorSet: Array($0))
}
let type = pool?.message(named: "protobuf_test_messages.proto3.TestAllTypesProto3")

/// libFuzzer: the first byte picks what the rest is — 0 a FileDescriptorSet to link, 1 a message's
/// binary encoding to read, write as JSON and encode again, 2 JSON to read as a message. None may
/// trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtobuf(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    switch start[0] % 3 {
    case 0:
        if let linked = try? DescriptorPool(fileDescriptorSet: bytes) {
            for message in linked.messages.prefix(20) {
                guard let type = linked.message(named: message.fullName) else { continue }
                _ = try? WireDecoder(pool: linked).decode(bytes.prefix(64), as: type)
            }
        }
    case 1:
        guard let pool, let type, let message = try? WireDecoder(pool: pool).decode(bytes, as: type) else { return 0 }
        _ = try? ProtoJSON(pool: pool).json(message)
        _ = WireEncoder(pool: pool).encode(message)
    default:
        guard let pool, let type, let json = try? JSON(parsing: bytes),
            let message = try? ProtoJSON(pool: pool).message(from: json, as: type)
        else { return 0 }
        _ = WireEncoder(pool: pool).encode(message)
    }
    return 0
}

@_cdecl("fuzz_protobuf_main")
public func fuzzProtobufMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzProtobuf)
}
