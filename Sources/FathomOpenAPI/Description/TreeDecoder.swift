import FathomJSON
import Foundation

/// A `Decoder` over a FathomJSON tree, reading values as Foundation's `JSONDecoder` reads the same
/// text — the structure check's quick way to ask OpenAPIKit whether a description decodes.
///
/// Foundation's decoder reparses the text and, for every container, builds a dictionary of its
/// keys and, whenever asked, an array of the coding path; OpenAPIKit's decode tries one type and
/// then another (`Either`) at most places and asks for both often. Over the tree already in hand,
/// with the path built only for an error, the whole process that loads a 4.7 MB description spends
/// about a fifth less time; what is left is OpenAPIKit's own decoding. Only the
/// verdict is read from it: a description it refuses is decoded by Foundation's decoder again for
/// OpenAPIKit's words and places (``StructureCheck``). `TreeDecoderTests` holds the two to the same
/// verdict on the corpus and on thousands of broken descriptions.
struct TreeDecoder {
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func decode<T: Decodable>(_ type: T.Type, from value: JSON) throws -> T {
        try TreeValueDecoder(value: value, path: nil, userInfo: userInfo).decodeValue(type)
    }
}

/// A coding path as a list from the leaf, made into an array only when asked.
final class TreePath: Sendable {
    let parent: TreePath?
    let key: TreeKey

    init(parent: TreePath?, key: TreeKey) {
        self.parent = parent
        self.key = key
    }

    static func array(_ path: TreePath?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = path
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// A key of the path: an object's member or an array's element.
struct TreeKey: CodingKey, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    static let superKey = TreeKey(stringValue: "super")
}

private struct TreeValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSON
    let path: TreePath?
    let userInfo: [CodingUserInfoKey: Any]

    var codingPath: [any CodingKey] { TreePath.array(path) }

    func child(_ value: JSON, _ key: TreeKey) -> TreeValueDecoder {
        TreeValueDecoder(value: value, path: TreePath(parent: path, key: key), userInfo: userInfo)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: Any].self)
        }
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([Any].self)
        }
        return TreeUnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Single values, as Foundation's decoder reads them

    func mismatch(_ type: Any.Type) -> DecodingError {
        if value == .null {
            return .valueNotFound(
                type, .init(codingPath: codingPath, debugDescription: "Cannot get value of type \(type) -- found null"))
        }
        return .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Expected \(type), found \(value.kindName)"))
    }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let text) = value else { throw mismatch(type) }
        guard let number = Double(text), number.isFinite else { throw corrupted("\(text) does not fit in \(type)") }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        let number = try decode(Double.self)
        guard abs(number) <= Double(Float.greatestFiniteMagnitude) else {
            throw corrupted("\(number) does not fit in \(type)")
        }
        return Float(number)
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let text) = value else { throw mismatch(type) }
        if let integer = T(text) { return integer }
        // `1.0` and `1e2` are whole numbers as Foundation reads them; `1.5` is not.
        if let number = Double(text), let integer = T(exactly: number) { return integer }
        throw corrupted("Parsed JSON number <\(text)> does not fit in \(type).")
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: description))
    }

    /// A value of `type`; URLs as Foundation's decoder reads them (a string), the rest by their
    /// own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == URL.self {
            let text = try decode(String.self)
            guard let url = URL(string: text) else { throw corrupted("Invalid URL string.") }
            return url as! T
        }
        return try T(from: self)
    }
}

private struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TreeValueDecoder
    let members: [JSON.Member]

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    /// The member named `key`: the last of that name, as Foundation's decoder keeps.
    private func member(_ key: Key) -> JSON? {
        members.last { $0.key == key.stringValue }?.value
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    private func child(_ key: Key) throws -> TreeValueDecoder {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)"))
        }
        return decoder.child(value, TreeKey(stringValue: key.stringValue))
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(members.last { $0.key == "super" }?.value ?? .null, TreeKey.superKey)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(member(key) ?? .null, TreeKey(stringValue: key.stringValue))
    }
}

private struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TreeValueDecoder
    let elements: [JSON]
    var currentIndex = 0

    init(decoder: TreeValueDecoder, elements: [JSON]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func next(_ type: Any.Type) throws -> TreeValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath + [TreeKey(intValue: currentIndex)],
                    debugDescription: "Unkeyed container is at end."))
        }
        return decoder.child(elements[currentIndex], TreeKey(intValue: currentIndex))
    }

    /// Decodes the next element and moves past it only when that succeeds, as Foundation does.
    private mutating func take<T>(_ type: T.Type, _ read: (TreeValueDecoder) throws -> T) throws -> T {
        let value = try read(next(type))
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard try next(Never.self).decodeNil() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try take(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try take(type) { try $0.decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try take(type) { try $0.decodeValue(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try take(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try take((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try take((any Decoder).self) { $0 }
    }
}
