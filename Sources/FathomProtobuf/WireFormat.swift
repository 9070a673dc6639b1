/// The wire types of the protobuf encoding.
enum WireType: UInt8 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}

/// Reads the protobuf encoding from bytes, every read checked against the end: a truncated varint,
/// a length past the end or a tag of wire type 6 is an error naming the offset.
struct WireReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        offset = start
        self.end = end ?? bytes.count
    }

    var isAtEnd: Bool { offset >= end }

    mutating func varint() throws(ProtobufError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while offset < end {
            let byte = bytes[offset]
            offset += 1
            if shift == 63, byte > 1 { throw ProtobufError("byte \(start): a varint longer than 64 bits") }
            result |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw ProtobufError("byte \(start): a varint longer than ten bytes") }
        }
        throw ProtobufError("byte \(start): a varint cut off at the end")
    }

    mutating func fixed32() throws(ProtobufError) -> UInt32 {
        guard end - offset >= 4 else { throw ProtobufError("byte \(offset): a 4-byte value cut off at the end") }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * UInt32(index)) }
        offset += 4
        return value
    }

    mutating func fixed64() throws(ProtobufError) -> UInt64 {
        guard end - offset >= 8 else { throw ProtobufError("byte \(offset): an 8-byte value cut off at the end") }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += 8
        return value
    }

    /// A field's tag: its number and wire type.
    mutating func tag() throws(ProtobufError) -> (number: Int32, wireType: WireType) {
        let start = offset
        let key = try varint()
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw ProtobufError("byte \(start): wire type \(key & 7), which does not exist")
        }
        let number = key >> 3
        guard number >= 1, number <= 536_870_911 else {
            throw ProtobufError("byte \(start): field number \(number) is outside 1…536870911")
        }
        return (Int32(number), wireType)
    }

    /// The bounds of a length-delimited value, and moves past it.
    mutating func lengthDelimited() throws(ProtobufError) -> Range<Int> {
        let start = offset
        let length = try varint()
        guard length <= UInt64(end - offset) else {
            throw ProtobufError("byte \(start): a length of \(length) runs past the end (\(end - offset) bytes left)")
        }
        let range = offset..<(offset + Int(length))
        offset = range.upperBound
        return range
    }

    func slice(_ range: Range<Int>) -> [UInt8] { Array(bytes[range]) }

    func reader(for range: Range<Int>) -> WireReader { WireReader(bytes, from: range.lowerBound, to: range.upperBound) }

    /// Moves past a value of `wireType` of field `number`, and returns the bytes of the value.
    ///
    /// For a group, past its end tag (nested groups counted, no deeper than `depth` allows); what
    /// it returns is a length-delimited value's payload, a group's contents without its end tag.
    @discardableResult
    mutating func skip(_ wireType: WireType, number: Int32, depth: Int) throws(ProtobufError) -> Range<Int> {
        let start = offset
        switch wireType {
        case .varint: _ = try varint()
        case .fixed64: _ = try fixed64()
        case .fixed32: _ = try fixed32()
        case .lengthDelimited: return try lengthDelimited()
        case .startGroup:
            guard depth < WireDecoder.depthLimit else { throw WireDecoder.tooDeep }
            while true {
                guard !isAtEnd else { throw ProtobufError("byte \(start): group \(number) has no end") }
                let contentEnd = offset
                let (inner, innerType) = try tag()
                if innerType == .endGroup {
                    guard inner == number else {
                        throw ProtobufError("byte \(contentEnd): group \(number) ended by the end of \(inner)")
                    }
                    return start..<contentEnd
                }
                try skip(innerType, number: inner, depth: depth + 1)
            }
        case .endGroup:
            throw ProtobufError("byte \(start): the end of group \(number), which was not started")
        }
        return start..<offset
    }
}

/// Writes the protobuf encoding.
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func tag(_ number: Int32, _ wireType: WireType) {
        varint(UInt64(UInt32(number)) << 3 | UInt64(wireType.rawValue))
    }

    mutating func fixed32(_ value: UInt32) {
        for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(index)))) }
    }

    mutating func fixed64(_ value: UInt64) {
        for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    mutating func lengthDelimited(_ payload: [UInt8]) {
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }
}
