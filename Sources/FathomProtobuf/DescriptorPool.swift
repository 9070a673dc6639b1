import SwiftProtobuf

/// Message, enum and service descriptors linked from `FileDescriptorProto`s: every type name
/// resolved, every reference checked, `json_name` derived where it is missing.
///
/// The files may come in any order (a reflection answer sends a file before its dependencies),
/// the same file more than once, and from anyone: what does not link is a ``ProtobufError``
/// naming the file and the reference — a dependency not given, a type name that names nothing or
/// names an enum where a message is needed, two definitions of one name, an import cycle, two
/// fields with one number, a map entry without its key — never a trap.
public struct DescriptorPool: Sendable {
    /// Every message type, nested ones and map entries included.
    public let messages: [MessageDescriptor]
    /// Every enum type.
    public let enums: [EnumDescriptor]
    /// Every service.
    public let services: [ServiceDescriptor]
    /// The names of the files linked, in the order given (each once).
    public let files: [String]
    private let symbols: [String: Symbol]

    enum Symbol: Hashable {
        case message(Int)
        case enumeration(Int)
        case service(Int)
        case package
    }

    /// Links `files`.
    public init(files: [Google_Protobuf_FileDescriptorProto]) throws(ProtobufError) {
        var linker = Linker()
        try linker.link(files)
        messages = linker.messages
        enums = linker.enums
        services = linker.services
        self.files = linker.fileNames
        symbols = linker.symbols
    }

    /// Links files given as serialized `FileDescriptorProto`s (as reflection answers carry them).
    public init(serializedFiles: [[UInt8]]) throws(ProtobufError) {
        var files: [Google_Protobuf_FileDescriptorProto] = []
        for (index, bytes) in serializedFiles.enumerated() {
            do {
                files.append(try Google_Protobuf_FileDescriptorProto(serializedBytes: bytes))
            } catch {
                throw ProtobufError("file descriptor \(index + 1) of \(serializedFiles.count) is not one: \(error)")
            }
        }
        try self.init(files: files)
    }

    /// Links the files of a serialized `FileDescriptorSet` (a protoset: what
    /// `protoc --descriptor_set_out --include_imports` writes).
    public init(fileDescriptorSet bytes: [UInt8]) throws(ProtobufError) {
        let set: Google_Protobuf_FileDescriptorSet
        do {
            set = try Google_Protobuf_FileDescriptorSet(serializedBytes: bytes)
        } catch {
            throw ProtobufError("not a FileDescriptorSet: \(error)")
        }
        try self.init(files: set.file)
    }

    /// The message type `id` names.
    public subscript(id: MessageID) -> MessageDescriptor { messages[id.index] }

    /// The enum type `id` names.
    public subscript(id: EnumID) -> EnumDescriptor { enums[id.index] }

    /// The message type named `fullName` (a leading dot is allowed).
    public func message(named fullName: String) -> MessageID? {
        guard case .message(let index) = symbols[Self.absolute(fullName)] else { return nil }
        return MessageID(index: index)
    }

    /// The enum type named `fullName` (a leading dot is allowed).
    public func enumeration(named fullName: String) -> EnumID? {
        guard case .enumeration(let index) = symbols[Self.absolute(fullName)] else { return nil }
        return EnumID(index: index)
    }

    /// The service named `fullName` (a leading dot is allowed).
    public func service(named fullName: String) -> ServiceDescriptor? {
        guard case .service(let index) = symbols[Self.absolute(fullName)] else { return nil }
        return services[index]
    }

    private static func absolute(_ name: String) -> String {
        name.hasPrefix(".") ? String(name.dropFirst()) : name
    }

    /// The `json_name` `protoc` gives a field that has none: underscores dropped, the letter after
    /// each in upper case (`foo_bar_baz` → `fooBarBaz`, `_x` → `X`).
    public static func jsonName(for name: String) -> String {
        var result = ""
        var capitalizeNext = false
        for character in name {
            if character == "_" {
                capitalizeNext = true
            } else if capitalizeNext {
                result += character.uppercased()
                capitalizeNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}
