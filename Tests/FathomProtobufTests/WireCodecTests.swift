import FathomJSON
import FathomProtobuf
import Testing

@Suite struct WireCodecTests {
    let pool: DescriptorPool
    let user: MessageID

    init() throws {
        pool = try DescriptorPool(files: Proto.users)
        user = try #require(pool.message(named: "demo.User"))
    }

    func json(_ bytes: [UInt8]) throws -> String {
        try ProtoJSON(pool: pool).json(try WireDecoder(pool: pool).decode(bytes, as: user)).formatted(.compactText)
    }

    @Test func aMessageReadsAndWritesBack() throws {
        let text =
            #"{"id":"42","displayName":"Ada","tags":["a","b"],"role":"ADMIN","address":{"city":"Paris","zipCode":"75001"},"labels":{"x":"-1"},"email":"ada@example.com","scores":[1,-2,300],"nickname":""}"#
        let mapping = ProtoJSON(pool: pool)
        let message = try mapping.message(from: try JSON(parsing: text), as: user)
        let bytes = WireEncoder(pool: pool).encode(message)
        #expect(try json(bytes) == text + "\n")
        // Packed scores: field 9, wire type 2.
        #expect(bytes.contains(0x4a))
    }

    @Test func unknownFieldsAreKeptAndWrittenBack() throws {
        // Field 99 as a varint, field 100 length-delimited, field 101 a group holding a varint.
        let bytes: [UInt8] = [
            0x08, 0x05, 0x98, 0x06, 0x07, 0xa2, 0x06, 0x02, 0x68, 0x69, 0xab, 0x06, 0x08, 0x01, 0xac, 0x06,
        ]
        let message = try WireDecoder(pool: pool).decode(bytes, as: user)
        #expect(message.unknownFields.map(\.number) == [99, 100, 101])
        #expect(message.unknownFields[1].bytes == Array("hi".utf8))
        #expect(message.unknownFields[2].bytes == [0x08, 0x01])
        #expect(WireEncoder(pool: pool).encode(message) == bytes)
        #expect(try json(bytes) == #"{"id":"5"}"# + "\n")
    }

    @Test func aMessageSeenTwiceIsMergedAndTheLastOneofWins() throws {
        // address{city} then address{zip}; email then phone.
        let bytes: [UInt8] = [
            0x2a, 0x03, 0x0a, 0x01, 0x50, 0x2a, 0x03, 0x12, 0x01, 0x37, 0x3a, 0x01, 0x65, 0x42, 0x01, 0x70,
        ]
        #expect(try json(bytes) == #"{"address":{"city":"P","zipCode":"7"},"phone":"p"}"# + "\n")
    }

    @Test func unpackedAndPackedScalarsBothRead() throws {
        let bytes: [UInt8] = [0x48, 0x01, 0x4a, 0x02, 0x02, 0x03, 0x48, 0x04]
        #expect(try json(bytes) == #"{"scores":[1,2,3,4]}"# + "\n")
    }

    @Test func anUnknownEnumNumberOfAnOpenEnumIsANumber() throws {
        #expect(try json([0x20, 0x07]) == #"{"role":7}"# + "\n")
    }

    static let hostile: [([UInt8], String)] = [
        ([0x08], "demo.User.id: byte 1: a varint cut off at the end"),
        (
            [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            "demo.User.id: byte 1: a varint longer than 64 bits"
        ),
        ([0x12, 0x05, 0x41], "demo.User.display_name: byte 1: a length of 5 runs past the end (1 bytes left)"),
        ([0x0f], "byte 0: wire type 7, which does not exist"),
        ([0x00], "byte 0: field number 0 is outside 1…536870911"),
        ([0x0a, 0x00], "demo.User.id: byte 1: wire type 2, where int64 has 0"),
        ([0x12, 0x01, 0xff], "demo.User.display_name: byte 2: a string that is not UTF-8"),
        ([0xab, 0x06, 0x08], "byte 3: a varint cut off at the end"),
        ([0xab, 0x06], "byte 2: group 101 has no end"),
        ([0xac, 0x06], "byte 2: the end of group 101, which was not started"),
        ([0x09, 0x01, 0x02], "demo.User.id: byte 1: wire type 1, where int64 has 0"),
    ]

    @Test(arguments: hostile)
    func hostileBytesAreOneLineErrors(bytes: [UInt8], expected: String) {
        #expect(throws: ProtobufError(expected)) { try WireDecoder(pool: pool).decode(bytes, as: user) }
    }

    @Test func deepNestingIsAnErrorNotADeepStack() throws {
        // friend { friend { … } } 100,000 deep, built inside out.
        var bytes: [UInt8] = []
        for _ in 0..<100_000 {
            var length = bytes.count
            var prefix: [UInt8] = [0x5a]
            repeat {
                prefix.append(UInt8(length & 0x7f) | (length >= 0x80 ? 0x80 : 0))
                length >>= 7
            } while length > 0
            bytes = prefix + bytes
            if bytes.count > 2_000_000 { break }
        }
        let expected =
            "demo.User.friend.friend.friend.friend.…(100 fields deep)….friend.friend.friend: messages nested deeper than 100"
        #expect(throws: ProtobufError(expected)) { try WireDecoder(pool: pool).decode(bytes, as: user) }
        // A group that never ends, nested past the bound, as an unknown field.
        let groups: [UInt8] = (0..<200_000).map { $0 % 2 == 0 ? 0xab : 0x06 }
        #expect(throws: ProtobufError("messages nested deeper than 100")) {
            try WireDecoder(pool: pool).decode(groups, as: user)
        }
    }
}
